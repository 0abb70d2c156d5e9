"""ireelab-compile's output handling: atomic writes, ordinary permissions, devices left alone."""

from __future__ import annotations

import os
import stat

from ireelab.tools.compile import main

SEED = """
func.func @add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""


def test_text_phase_written_with_ordinary_permissions(tmp_path):
    src = tmp_path / "add.mlir"
    src.write_text(SEED)
    out = tmp_path / "add.flow.mlir"
    assert main([str(src), "--compile-to=flow", "-o", str(out)]) == 0
    assert "flow.dispatch @add_dispatch_0::" in out.read_text()
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~umask


def test_dev_null_is_written_to_not_replaced(tmp_path):
    """Regression: the temp-file-and-rename write once replaced /dev/null with a file."""
    src = tmp_path / "add.mlir"
    src.write_text(SEED)
    assert main([str(src), "--compile-to=abi", "-o", os.devnull]) == 0
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


def test_unknown_print_pass_is_a_one_line_error(tmp_path, capsys):
    src = tmp_path / "add.mlir"
    src.write_text(SEED)
    assert main([str(src), "--mlir-print-ir-after=NoSuchPass", "-o", str(tmp_path / "x")]) == 1
    err = capsys.readouterr().err
    assert err.strip() == "error: unknown pass 'NoSuchPass' in --mlir-print-ir-after/before"
    assert not (tmp_path / "x").exists()
