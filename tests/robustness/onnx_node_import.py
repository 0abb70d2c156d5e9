"""ONNX backend node tests through IREE's importer, as issue 15 measures them: the model is
saved, `iree-import-onnx` turns it into torch-dialect MLIR, and `iree-compile
--compile-to=input` (sync entry points) gives the linalg program ireelab compiles. Tests that
use it are marked `iree` and skip cleanly without onnx or IREE's tools."""

from __future__ import annotations

import glob
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

_HAS_IMPORTER = shutil.which("iree-import-onnx") is not None and shutil.which("iree-compile")


def needs_onnx_import(test):
    """Mark `test` as needing the real IREE's ONNX importer; skip it where that is absent."""
    skip = pytest.mark.skipif(
        not _HAS_IMPORTER, reason="IREE's ONNX importer (iree-base-compiler[onnx]) not installed"
    )
    return pytest.mark.iree(skip(test))


@cache
def _node_test(name: str):
    """ONNX's node test `name` (None if there is none), its case module alone built."""
    benchmarks = str(Path(__file__).resolve().parents[2] / "benchmarks")
    if benchmarks not in sys.path:
        sys.path.insert(0, benchmarks)
    import onnx_node_tests

    found = onnx_node_tests.named_tests({name})
    return found[0] if found else None


def load_node_test(name: str):
    """(model, inputs, expected outputs) of ONNX's node test `name`."""
    onnx = pytest.importorskip("onnx")
    from onnx import numpy_helper

    test = _node_test(name)
    if test is None:
        raise LookupError(f"no ONNX node test named {name}")
    if test.model is not None:  # built in memory by this onnx version
        inputs, outputs = test.data_sets[0]
        return test.model, list(inputs), list(outputs)
    model = onnx.load(f"{test.model_dir}/model.onnx")
    data = f"{test.model_dir}/test_data_set_0"
    read = [numpy_helper.to_array(onnx.load_tensor(p)) for p in sorted(glob.glob(data + "/*"))]
    n_in = len(glob.glob(data + "/input_*.pb"))
    return model, read[:n_in], read[n_in:]


def import_to_input_phase(model, directory: Path, name: str) -> Path:
    """The model as IREE's input phase leaves it (what `ireelab-compile` reads)."""
    import onnx

    onnx_path = directory / f"{name}.onnx"
    torch_path = directory / f"{name}.torch.mlir"
    input_path = directory / f"{name}.mlir"
    onnx.save(model, onnx_path)
    subprocess.run(
        ["iree-import-onnx", str(onnx_path), "-o", str(torch_path)], check=True, timeout=120
    )
    subprocess.run(
        [
            "iree-compile",
            str(torch_path),
            "--compile-to=input",
            "--iree-torch-emit-async-entry-points=false",
            "-o",
            str(input_path),
        ],
        check=True,
        timeout=300,
    )
    return input_path
