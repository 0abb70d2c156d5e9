"""Programs for the VM and runtime tests: hand-written numba kernels in the "numba-python"
executable format (docs/internals.md), and IREE's own VM program for the 2x4x2 matmul
(`a0_matmul_tiny.vm.mlir`, printed by iree-compile 3.13) retargeted to them.

Retargeting changes only data: the executable rodata becomes a numba-python binary and the
format string `embedded-elf-x86_64` becomes `numba-python`. Every instruction is IREE's.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.parser import Parser

from ireelab.runtime.hal.executable_loader import trust_kernel_source

REFERENCE = Path(__file__).resolve().parents[2].parent / "shared" / "reference"
if not REFERENCE.exists():
    REFERENCE = Path("/work/shared/reference")
REFERENCE_VM = REFERENCE / "iree-3.13-ir" / "a0_matmul_tiny.vm.mlir"

MATMUL_EXPORT = "matmul_dispatch_0_matmul_2x2x4_f32"

# Rows of the 2x2 result are split over however many workgroups the dispatch has.
MATMUL_SOURCE = """\
# executable matmul_dispatch_0, export matmul_dispatch_0_matmul_2x2x4_f32 (hand-written test kernel)
import numba
import numpy as np


@numba.njit(nogil=True, cache=True, error_model="numpy")
def dispatch_0(wg_begin, wg_end, wg_count_x, wg_count_y, wg_count_z, b0, b1, b2):
    lhs = b0.view(np.float32).reshape((2, 4))
    rhs = b1.view(np.float32).reshape((4, 2))
    out = b2.view(np.float32).reshape((2, 2))
    total = wg_count_x * wg_count_y * wg_count_z
    per = (2 + total - 1) // total
    for wg in range(wg_begin, wg_end):
        for i in range(wg * per, min(2, (wg + 1) * per)):
            for j in range(2):
                acc = np.float32(0.0)
                for k in range(4):
                    acc += lhs[i, k] * rhs[k, j]
                out[i, j] = acc
"""

FAILING_SOURCE = """\
# executable matmul_dispatch_0, export matmul_dispatch_0_matmul_2x2x4_f32 (raises on purpose)
import numba
import numpy as np


@numba.njit(nogil=True, cache=True, error_model="numpy")
def dispatch_0(wg_begin, wg_end, wg_count_x, wg_count_y, wg_count_z, b0, b1, b2):
    lhs = b0.view(np.float32)
    if lhs[0] < 0:
        raise ValueError("negative input")
    out = b2.view(np.float32)
    for i in range(4):
        out[i] = lhs[i]
"""


def numba_binary(source: str, exports: list[str], bindings: int = 3) -> bytes:
    trust_kernel_source(source)  # hand-written: the loader refuses sources it did not generate
    document = {
        "format": "numba-python",
        "version": 1,
        "exports": [
            {"name": name, "ordinal": i, "bindings": bindings, "workgroup_size": [1, 1, 1]}
            for i, name in enumerate(exports)
        ],
        "source": source,
    }
    return json.dumps(document).encode("utf-8")


def retargeted_reference_vm(source: str = MATMUL_SOURCE, workgroups: int = 1) -> str:
    """IREE's vm.mlir for the tiny matmul, running `source` with `workgroups` workgroups."""
    text = REFERENCE_VM.read_text()
    blob = numba_binary(source, [MATMUL_EXPORT]).hex().upper()
    text, count = re.subn(
        r"(vm\.rodata private @matmul_dispatch_0_embedded_elf_x86_64 )<alignment = 16, "
        r'mime_type = "application/x-elf"> dense<"0x[0-9A-F]+"> : vector<\d+xi8>',
        rf'\1<alignment = 16, mime_type = "text/x-python"> dense<"0x{blob}"> : vector<{len(blob) // 2}xi8>',
        text,
    )
    assert count == 1
    text = text.replace('<alignment = 1> "embedded-elf-x86_64"', '<alignment = 1> "numba-python"')
    if workgroups != 1:
        # The dispatch's x count is the first `%c1` after the function id in IREE's program.
        text = text.replace(
            "%0, %c1, %c1, %c1, %zero_0, []",
            "%0, %wg, %c1, %c1, %zero_0, []",
        ).replace(
            "%c3 = vm.const.i32 3\n",
            f"%c3 = vm.const.i32 3\n      %wg = vm.const.i32 {workgroups}\n",
            1,
        )
    return text


def parse_vm(text: str) -> ModuleOp:
    from ireelab.dialects.hal import HAL
    from ireelab.dialects.util import Util
    from ireelab.dialects.vm import VM

    ctx = Context()
    for dialect in (Builtin, VM, HAL, Util):
        ctx.load_dialect(dialect)
    module = Parser(ctx, text).parse_module()
    module.verify()
    return module


REFERENCE_HAL = REFERENCE / "iree-3.13-ir" / "a0_matmul_tiny.hal.mlir"


def retargeted_reference_hal(source: str = MATMUL_SOURCE) -> str:
    """IREE's hal.mlir for the tiny matmul with the ELF binary replaced by `source`."""
    text = REFERENCE_HAL.read_text()
    blob = numba_binary(source, [MATMUL_EXPORT]).hex().upper()
    text, count = re.subn(
        r'hal\.executable\.binary public @embedded_elf_x86_64 <format = "embedded-elf-x86_64", '
        r'data = dense<"0x[0-9A-F]+"> : vector<\d+xi8>, mime_type = "application/x-elf">',
        f'hal.executable.binary public @embedded_elf_x86_64 <format = "numba-python", '
        f'data = dense<"0x{blob}"> : vector<{len(blob) // 2}xi8>, mime_type = "text/x-python">',
        text,
    )
    assert count == 1
    return text.replace(
        'key("hal.executable.format" :: "embedded-elf-x86_64")',
        'key("hal.executable.format" :: "numba-python")',
    )


def parse_ir(text: str) -> ModuleOp:
    from ireelab.compiler.context import make_context

    module = Parser(make_context(), text).parse_module()
    module.verify()
    return module
