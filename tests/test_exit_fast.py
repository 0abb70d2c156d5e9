"""`ireelab-compile`'s exit without the interpreter's teardown (`ireelab.tools.exit_fast`): what
a normal exit does that can be seen (exit code, everything written to stdout and stderr, the
`atexit` functions' work) is done, and the normal exit is kept where it must be."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from ireelab.tools.exit_fast import exit_now

SEED = """
func.func @add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""
TREE = Path(__file__).resolve().parents[1]


def _compile(tmp_path: Path, source: str, fast: bool, *flags: str):
    src = tmp_path / "p.mlir"
    src.write_text(source)
    cache = tmp_path / ("fast" if fast else "normal")
    env = dict(os.environ, PYTHONPATH=str(TREE), IREELAB_CACHE_DIR=str(cache))
    env.pop("PYTHONPYCACHEPREFIX", None)
    env["IREELAB_FAST_EXIT"] = "1" if fast else "0"
    command = [sys.executable, "-m", "ireelab.tools.compile", str(src), *flags]
    done = subprocess.run(command, env=env, cwd=tmp_path, capture_output=True)
    written = sorted(p.name for p in (cache / ".dataclass-code").glob("*.marshal"))
    return done.returncode, done.stdout, done.stderr, written


def test_same_output_code_and_atexit_work_as_a_normal_exit(tmp_path):
    fast = _compile(tmp_path, SEED, True, "--compile-to=flow", "-o", "-")
    normal = _compile(tmp_path, SEED, False, "--compile-to=flow", "-o", "-")
    assert fast == normal
    code, out, err, written = fast
    assert code == 0 and err == b""
    assert b"flow.dispatch @add_dispatch_0::" in out and out.endswith(b"\n  }\n}")
    assert len(written) == 1  # the dataclass code cache, written by its atexit function


def test_error_message_and_code_as_a_normal_exit(tmp_path):
    bad = SEED.replace("tensor<4xf32>) -> tensor<4xf32> {", "tensor<4xf32>) -> tensor<4xf32>")
    fast = _compile(tmp_path, bad, True, "-o", str(tmp_path / "m.ilvm"))
    assert fast == _compile(tmp_path, bad, False, "-o", str(tmp_path / "m.ilvm"))
    code, _, err, _ = fast
    assert code == 1 and b"p.mlir:3:19: error: use of undeclared SSA value %a" in err


def test_normal_exit_while_another_thread_runs():
    release = threading.Event()
    worker = threading.Thread(target=release.wait)
    worker.start()
    try:
        with pytest.raises(SystemExit) as exited:
            exit_now(3)
        assert exited.value.code == 3
    finally:
        release.set()
        worker.join()


def test_normal_exit_when_turned_off(monkeypatch):
    monkeypatch.setenv("IREELAB_FAST_EXIT", "0")
    with pytest.raises(SystemExit) as exited:
        exit_now(0)
    assert exited.value.code == 0
