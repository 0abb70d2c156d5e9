"""The founding note's command recipe, run unchanged against ireelab's tools (issue 2)."""

from __future__ import annotations

import re
import shutil
import subprocess

import numpy as np
import pytest

GREP = r"""grep -oE 'IR Dump After .*//' dump.txt | sed 's/IR Dump After //; s/ (.*//; s/ \/\/$//' | awk '!seen[$0]++' | nl"""


def sh(command: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-c", command], cwd=cwd, capture_output=True, text=True)


STEP_1 = (
    "ireelab-compile --iree-hal-target-backends=llvm-cpu --mlir-print-ir-after-all "
    "matmul.mlir -o matmul.ilvm 2> dump.txt"
)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory, reference_dir):
    # Step 1 runs here, so every later step finds its files whichever xdist worker runs it.
    if shutil.which("ireelab-compile") is None:
        pytest.skip("ireelab's tools are not installed (pip install -e .)")
    d = tmp_path_factory.mktemp("recipe")
    shutil.copy(reference_dir / "programs" / "a0_matmul_tiny.mlir", d / "matmul.mlir")
    np.save(d / "a.npy", np.arange(8, dtype=np.float32).reshape(2, 4))
    np.save(d / "b.npy", np.arange(8, dtype=np.float32).reshape(4, 2) / 2)
    return d


@pytest.fixture(scope="module")
def compiled(workdir):
    """The recipe's first command, run once per worker; later steps read its outputs."""
    return sh(STEP_1, workdir)


def test_1_compile_with_print_ir_after_all(workdir, compiled):
    p = compiled
    assert p.returncode == 0, (workdir / "dump.txt").read_text()[-2000:]
    assert (workdir / "matmul.ilvm").stat().st_size > 0
    assert (
        "// -----// IR Dump After WrapEntryPointsPass: iree-abi-wrap-entry-points"
        in (workdir / "dump.txt").read_text()
    )


def test_2_grep_lists_the_passes_in_order(workdir, compiled):
    p = sh(GREP, workdir)
    assert p.returncode == 0
    lines = [re.sub(r"^\s*\d+\s+", "", line) for line in p.stdout.splitlines()]
    names = [line.split(":", 1)[0] for line in lines]
    expected = ["WrapEntryPointsPass", "AssignLegacyTargetDevicesPass",
                "MaterializeTargetDevicesPass", "FormDispatchRegionsPass",
                "OutlineDispatchRegionsPass", "AnnotateDispatchesPass", "ConvertToStreamPass",
                "ScheduleExecutionPass", "MaterializeInterfacesPass", "ConvertToHALPass",
                "SerializeAllExecutablesPass"]  # fmt: skip
    positions = [names.index(n) for n in expected]
    assert positions == sorted(positions)
    assert "ConvertToStreamPass: iree-stream-conversion //-----" in p.stdout


@pytest.mark.parametrize("spelling", ["ConvertToStreamPass", "iree-stream-conversion"])
def test_3_print_after_one_pass_module_scope(workdir, compiled, spelling):
    p = sh(
        "ireelab-compile --iree-hal-target-backends=llvm-cpu "
        f"--mlir-print-ir-after={spelling} --mlir-print-ir-module-scope matmul.mlir -o matmul.ilvm",
        workdir,
    )
    assert p.returncode == 0, p.stderr[-2000:]
    header = "// -----// IR Dump After ConvertToStreamPass: iree-stream-conversion ('builtin.module' operation) //----- //"
    assert p.stderr.count("IR Dump After") == 1
    assert header in p.stderr
    assert "stream.tensor.dispatch" in p.stderr


def test_4_dump_module(workdir, compiled):
    p = sh("ireelab-dump-module matmul.ilvm", workdir)
    assert p.returncode == 0, p.stderr
    for text in ("hal.command_buffer.dispatch", "hal.fence.await", "matmul"):
        assert text in p.stdout


def test_5_run_module(workdir, compiled):
    p = sh(
        "ireelab-run-module --module=matmul.ilvm --function=matmul --input=@a.npy --input=@b.npy",
        workdir,
    )
    assert p.returncode == 0, p.stderr
    assert "result[0]: hal.buffer_view" in p.stdout
    a = np.load(workdir / "a.npy")
    b = np.load(workdir / "b.npy")
    expected = a @ b
    rows = "".join("[" + " ".join(f"{v:g}" for v in row) + "]" for row in expected)
    assert f"2x2xf32={rows}" in p.stdout
