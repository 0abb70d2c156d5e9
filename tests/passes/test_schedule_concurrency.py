"""ScheduleConcurrencyPass (iree-stream-schedule-concurrency)."""

from __future__ import annotations

import re

from _stream_ir import flow_reference, print_ir, run_stream_stage


def test_independent_dispatches_run_concurrently():
    # the matmul and the add of two_results read only inputs: one concurrent block of two
    text = print_ir(
        run_stream_stage(flow_reference("l_two_results"), until="ScheduleConcurrencyPass")
    )
    assert text.count("stream.async.concurrent") == 1
    block = text[text.index("stream.async.concurrent") :]
    block = block[: block.index("stream.yield")]
    assert len(re.findall(r"stream\.async\.dispatch", block)) == 2
    assert (
        "-> (!stream.resource<external>{%c1048576}, !stream.resource<external>{%c1048576})" in text
    )


def test_dependent_chain_stays_serial():
    # attention is a chain of four dependent dispatches: nothing to run concurrently
    text = print_ir(
        run_stream_stage(flow_reference("j_attention"), until="ScheduleConcurrencyPass")
    )
    assert "stream.async.concurrent" not in text
