"""PackDispatchOperandsPass (iree-stream-pack-dispatch-operands)."""

from __future__ import annotations

import re

from _stream_ir import flow_reference, print_ir, run_stream_stage


def test_index_operands_become_i32_pairs():
    # three index offsets become six i32 push constants; the kernel rebuilds each one
    text = print_ir(
        run_stream_stage(flow_reference("l_two_results"), until="PackDispatchOperandsPass")
    )
    site = re.search(r"::@two_results_dispatch_1_elementwise_262144_f32\(([^)]*)\) \{", text)
    assert site
    assert site.group(1).endswith(": i32, i32, i32, i32, i32, i32")
    assert "arith.constant 1048576 : i32" in text
    fn = text[text.index("func.func @two_results_dispatch_1") :]
    fn = fn[: fn.index("func.return")]
    assert fn.count("arith.extui") == 6
    assert fn.count("arith.shli") == 3
    assert fn.count("arith.ori") == 3
    assert fn.count("arith.index_cast") == 3
