"""FuseDispatchBindingsPass (iree-stream-fuse-dispatch-bindings)."""

from __future__ import annotations

import re

from _stream_ir import flow_reference, print_ir, run_stream_stage


def test_bindings_cover_whole_resources_offsets_become_operands():
    # the add writes at 1 MiB into the result slab: that offset is now a dispatch operand
    text = print_ir(
        run_stream_stage(flow_reference("l_two_results"), until="FuseDispatchBindingsPass")
    )
    assert (
        "@two_results_dispatch_1::@two_results_dispatch_1_elementwise_262144_f32(%c0, %c0, %c1048576 : index, index, index) {"
        in text
    )
    assert re.search(
        r"wo %\w+\[%c0 for %c2097152\] : !stream\.resource<external>\{%c2097152\}", text
    )
    fn = re.search(r"func\.func @two_results_dispatch_1_elementwise_262144_f32\(([^)]*)\)", text)
    assert fn
    assert fn.group(1).count("!stream.binding {stream.alignment = 64 : index}") == 3
    assert len(re.findall(r"%\w+: index", fn.group(1))) == 3
    assert re.search(r"stream\.binding\.subspan %arg2\[%\w+\]", text)
