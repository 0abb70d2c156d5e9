"""Host `scf.if` and `scf.while` carrying tensors, from Stream to the VM, as IREE runs them.

IREE keeps `scf.if` and `scf.while` on the host (ONNX If, Loop with a condition). To check
ireelab's later stages on exactly IREE's flow IR, the program is taken to the flow phase by
the real `iree-compile` and then through ireelab's passes from `iree-stream-conversion` on
(the device global swapped for ireelab's numba-cpu target): Stream carries each tensor as a resource and its size through
the branches (ConvertToStreamPass's structural patterns), SCFToControlFlowPass makes the
blocks, HAL passes buffers, and the VM branches on `vm.cmp.lt.f32.o` of a value read back
from a tensor. Results equal numpy and the real IREE's, for both branches and for 0, 1 and
several `scf.while` iterations. test_host_control_flow_source.py takes the same programs
through ireelab's own Input and Flow stages.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from ireelab.compiler import pipeline
from ireelab.compiler.context import make_context
from ireelab.compiler.source import parse_source
from ireelab.compiler.vm.module_file import write_module
from ireelab.runtime import load_module

PROGRAM = Path(__file__).parent / "programs" / "host_if_while.mlir"
NUMBA_DEVICE = (
    'util.global private @__device_0 = #hal.device.target<"local", [#hal.executable.target<'
    '"numba-cpu", "numba-python", {native_vector_size = 64 : i64, target_triple = '
    '"x86_64-unknown-linux"}>]> : !hal.device'
)

pytestmark = [
    pytest.mark.iree,
    pytest.mark.skipif(shutil.which("iree-compile") is None, reason="IREE not installed"),
]


@pytest.fixture(scope="module")
def iree_flow() -> str:
    import ireelab.iree

    text = ireelab.iree.compile(str(PROGRAM), compile_to="flow", trace=False).ir()
    return re.sub(r"util\.global private @__device_0 = .*", NUMBA_DEVICE, text)


@pytest.fixture(scope="module")
def stream_ir(iree_flow) -> str:
    module = _after_flow(iree_flow, "stream")
    return str(module)


def _after_flow(text: str, phase: str):
    module = parse_source(text, str(PROGRAM))
    ctx = make_context()
    start = len(pipeline.steps_until("flow"))
    for step in pipeline.steps_until(phase)[start:]:
        step.make().apply(ctx, module)
        module.verify()
    return module


@pytest.fixture(scope="module")
def modules(iree_flow):
    import ireelab.iree

    ours = load_module(write_module(_after_flow(iree_flow, "end")))
    return ours, ireelab.iree.compile(str(PROGRAM))


def test_if_picks_the_branch_the_flag_names(modules):
    ours, theirs = modules
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal(4).astype(np.float32) for _ in range(2))
    for flag, want in ((1, a + b), (0, a - b), (-7, a + b)):
        flag = np.array(flag, np.int32)
        (got,) = ours.invoke("pick", flag, a, b)
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(got, theirs.pick(flag, a, b))


def test_while_runs_until_its_condition_fails(modules):
    ours, theirs = modules
    x = np.array([1.5, -2.0, 3.0, 0.25], np.float32)
    for limit, doublings in ((1.0, 0), (2.0, 1), (100.0, 7), (float("nan"), 0)):
        limit = np.array(limit, np.float32)
        (got,) = ours.invoke("double_until", x, limit)
        np.testing.assert_array_equal(got, x * np.float32(2**doublings))
        np.testing.assert_array_equal(got, theirs.double_until(x, limit))


def test_stream_carries_resources_through_the_branches(stream_ir):
    pick = stream_ir[stream_ir.index("@pick(") : stream_ir.index("@double_until(")]
    # the join block of the if takes the chosen resource, its size and its timepoint
    assert re.search(
        r"\^bb\d\(%\w+: !stream\.resource<external>, %\w+: index, %\w+: !stream\.timepoint\)", pick
    )
    assert pick.count("stream.cmd.dispatch") == 2
    assert "scf." not in stream_ir[stream_ir.index("util.func public @pick") :]
