"""RefineUsagePass (iree-stream-refine-usage): lifetimes for every resource."""

from __future__ import annotations

import re

from _stream_ir import flow_reference, print_ir, run_stream_stage


def test_boundary_resources_external_intermediates_transient():
    # mlp3: inputs and the output are external, the two hidden activations transient
    text = print_ir(run_stream_stage(flow_reference("d_mlp3"), until="RefineUsagePass"))
    host = text[text.index("util.func public") :]
    assert "!stream.resource<*>" not in host
    assert "stream.async.cast" not in host
    dispatches = re.findall(r"stream\.async\.dispatch .*-> (!stream\.resource<\w+>)", host)
    assert dispatches == [
        "!stream.resource<transient>",
        "!stream.resource<transient>",
        "!stream.resource<external>",
    ]


def test_exported_results_are_external():
    # both results of two_results leave the program
    text = print_ir(run_stream_stage(flow_reference("l_two_results"), until="RefineUsagePass"))
    assert "transient" not in text
