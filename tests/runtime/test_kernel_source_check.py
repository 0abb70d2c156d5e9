"""The executable loader runs only what ireelab's code generator writes (issue 9).

Every kernel module the compiler generates passes `check_kernel_source` (the reference
programs here cover micro-kernels, convolutions, softmax max/min intrinsics, constant buffers;
every other test that runs a kernel goes through the same check in `load_executable`), and
forged sources are refused with one line before anything is written or imported.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from ireelab.compiler.api import compile_text
from ireelab.compiler.driver import CompileOptions
from ireelab.runtime.hal.executable_loader import (
    ExecutableLoadError,
    load_executable,
    trust_kernel_source,
)
from ireelab.runtime.hal.kernel_source_check import KernelSourceError, check_kernel_source

PROGRAMS = Path("/work/shared/reference/programs")
F16_AND_CONSTANTS = """
func.func @f(%a: tensor<4xf16>, %b: tensor<4xf32>) -> (tensor<4xf16>, tensor<4xf32>) {
  %k = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %0 = arith.addf %a, %a : tensor<4xf16>
  %1 = arith.maximumf %b, %k : tensor<4xf32>
  %2 = arith.bitcast %1 : tensor<4xf32> to tensor<4xi32>
  %3 = arith.bitcast %2 : tensor<4xi32> to tensor<4xf32>
  return %0, %3 : tensor<4xf16>, tensor<4xf32>
}
"""


def _sources(source: str) -> list[str]:
    result = compile_text(source, options=CompileOptions(compile_to="executable-targets"))
    found = []
    for op in result.module.walk():
        text = op.attributes.get("ireelab.numba.source")
        if text is not None:
            found.append(text.data)
    assert found
    return found


@pytest.fixture(scope="module")
def generated() -> list[str]:
    programs = ["a0_matmul_tiny", "e_softmax", "f_conv_bias_relu", "g_reduce_sum",
                "j_attention", "k_batch_matmul"]  # fmt: skip
    sources = [s for p in programs for s in _sources((PROGRAMS / f"{p}.mlir").read_text())]
    return sources + _sources(F16_AND_CONSTANTS)


def test_every_generated_kernel_module_passes(generated):
    joined = "\n".join(generated)
    for feature in ("_uk_matmul_f32", "_uk_conv_hwc", "_fmaximum", "_f16_to_f32", "_cst_"):
        assert feature in joined, feature
    for source in generated:
        check_kernel_source(source)


def _binary(source: str) -> bytes:
    exports = [{"name": "k", "ordinal": 0, "bindings": 1, "workgroup_size": [1, 1, 1]}]
    document = {"format": "numba-python", "version": 1, "exports": exports, "source": source}
    return json.dumps(document).encode()


HEADER = "import numba\nimport numpy as np\n\n"
KERNEL = (
    "@numba.njit(nogil=True, cache=True)\n"
    "def dispatch_0(wg_begin, wg_end, wg_count_x, wg_count_y, wg_count_z, b0):\n"
    "    v0 = b0[0:4].view(np.float32).reshape((4,))\n"
    "    for wg in range(wg_begin, wg_end):\n"
    "        v0[0] = v0[0] + np.float32(1.0)\n"
)

FORGERIES = {
    "import os": ("import os\n" + HEADER + KERNEL, "imports other than"),
    "from os import system": ("from os import system\n" + HEADER + KERNEL, "imports other"),
    "relative import": ("from . import x\n" + HEADER + KERNEL, "imports other"),
    "top-level call": (HEADER + "print(1)\n" + KERNEL, "module-level 'Expr'"),
    "top-level open": (HEADER + "x = open(1)\n" + KERNEL, "may not call"),
    "eval in kernel": (HEADER + KERNEL + "        eval(1)\n", "name 'eval'"),
    "__import__": (HEADER + KERNEL + "        __import__(1)\n", "'__import__'"),
    "dunder attribute": (HEADER + KERNEL + "        v1 = np.__class__\n", "'__class__'"),
    "getattr game": (HEADER + KERNEL + "        v1 = getattr(np, 1)\n", "name 'getattr'"),
    "unknown attribute": (HEADER + KERNEL + "        v1 = np.fromfile\n", "'.fromfile'"),
    "string in kernel": (HEADER + KERNEL + "        v1 = np.empty(3, 'f')\n", "string 'f'"),
    "lambda": (HEADER + KERNEL + "        v1 = (lambda: 1)\n", "'Lambda'"),
    "comprehension": (HEADER + KERNEL + "        v1 = [i for i in v0]\n", "'ListComp'"),
    "while loop": (HEADER + KERNEL + "        while v0[0]:\n            pass\n", "'While'"),
    "with objmode": (
        HEADER + KERNEL + "        with numba.objmode():\n            pass\n",
        "'With'",
    ),
    "object mode": (HEADER + KERNEL.replace("nogil=True", "forceobj=True"), "'forceobj'"),
    "other decorator": (HEADER + "@staticmethod\n" + KERNEL, "exactly one decorator"),
    "decorator call": (HEADER + KERNEL.replace("@numba.njit(", "@numba.types.void("), "decorators"),
    "no decorator": (HEADER + KERNEL.split("\n", 1)[1], "exactly one decorator"),
    "external symbol": (
        HEADER + '_f = numba.types.ExternalFunction("system", numba.types.void())\n' + KERNEL,
        "string 'system'",
    ),
    "class": (HEADER + "class A:\n    pass\n" + KERNEL, "'ClassDef'"),
    "default argument": (HEADER + KERNEL.replace("b0):", "b0=open):"), "signature"),
    "f-string": (HEADER + KERNEL + "        v1 = f'{v0}'\n", "'JoinedStr'"),
    "intrinsic string slice": (
        HEADER
        + "@numba.extending.intrinsic\ndef _g(typingctx, x):\n"
        + "    name = 'llvm.maximum.'[0]\n    return None\n"
        + KERNEL,
        "args",
    ),
    "syntax error": (HEADER + "def (:\n", "not valid Python"),
}


@pytest.mark.parametrize("name", list(FORGERIES))
def test_forged_sources_are_refused_before_import(name, tmp_path, monkeypatch):
    monkeypatch.setenv("IREELAB_CACHE_DIR", str(tmp_path))
    source, reason = FORGERIES[name]
    with pytest.raises(ExecutableLoadError) as info:
        load_executable(_binary(source))
    message = str(info.value)
    assert "\n" not in message and "kernel source refused" in message
    assert reason in message
    assert not list(tmp_path.iterdir()), "nothing is written before the check"


def test_the_plain_kernel_is_accepted(tmp_path, monkeypatch):
    monkeypatch.setenv("IREELAB_CACHE_DIR", str(tmp_path))
    assert load_executable(_binary(HEADER + KERNEL)).export_names == ("k",)


def test_a_line_added_to_a_generated_module_is_refused(generated):
    source = generated[0]
    lines = source.splitlines()
    injections = ["import sys", "sys.modules.clear()", "x = open(0)", "del np"]
    for injection in injections:
        for at in (0, len(lines) // 2, len(lines)):
            forged = "\n".join(lines[:at] + [injection] + lines[at:]) + "\n"
            try:
                check_kernel_source(forged)
            except KernelSourceError:
                continue
            pytest.fail(f"accepted {injection!r} at line {at}")


def test_trusted_hand_written_source_loads(tmp_path, monkeypatch):
    monkeypatch.setenv("IREELAB_CACHE_DIR", str(tmp_path))
    source = HEADER + KERNEL + "        sys_flag = 1\n" + "\n\nassert True\n"
    with pytest.raises(ExecutableLoadError):
        load_executable(_binary(source))
    trust_kernel_source(source)
    assert load_executable(_binary(source)).export_names == ("k",)
    assert "ireelab_forged" not in vars(sys)


def test_ukernel_imports_allowed_are_the_library() -> None:
    # The check allows importing exactly the micro-kernels codegen may call, and they exist.
    from ireelab.compiler.codegen.ukernel_library import UKERNEL_MODULE, UKERNELS
    from ireelab.runtime.hal import kernel_source_check, ukernels

    assert kernel_source_check.UKERNEL_MODULE == UKERNEL_MODULE == ukernels.__name__
    assert kernel_source_check.UKERNEL_NAMES == set(UKERNELS)
    assert all(callable(getattr(ukernels, name)) for name in UKERNELS)
    with pytest.raises(KernelSourceError):
        check_kernel_source(f"from {UKERNEL_MODULE} import _uk_sgemm\n")
