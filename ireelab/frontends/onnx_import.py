"""ONNX models in: the real IREE's ONNX importer (what `iree-import-onnx` runs).

`iree-import-onnx model.onnx` checks the model, infers its shapes (with data propagation) and
imports every node as `torch.operator "onnx.<Op>"` in a `func.func` marked with
`torch.onnx_meta.opset_version`, which IREE's torch plugin then converts (`--iree-input-type=
onnx`). ireelab calls the same importer (`iree.compiler.extras.onnx_importer`, part of
`iree-base-compiler[onnx]`) in process, for an `onnx.ModelProto` or a `.onnx` path; weights
come in as the importer writes them (`dense_resource` initialisers, not externalised).
"""

from __future__ import annotations

import os

from ireelab.diagnostics import CompileError
from ireelab.frontends.extras import require
from ireelab.frontends.signature import Signature, onnx_signature

_WHAT = "importing an ONNX model"


def is_onnx_model(source) -> bool:
    """An `onnx.ModelProto`, or a path naming a `.onnx` file (a missing one is reported by
    `load_model`, not parsed as MLIR)."""
    if isinstance(source, str | os.PathLike):
        path = os.fspath(source)
        return "\n" not in path and path.endswith(".onnx")
    return type(source).__name__ == "ModelProto" and hasattr(source, "graph")


def load_model(source, opset_version: int | None = None, data_prop: bool = True):
    """The model (from a path or as given), upgraded to `opset_version` if that is newer, with
    its shapes inferred, as `iree-import-onnx` prepares it."""
    onnx = require("onnx", _WHAT)
    model = source
    if isinstance(source, str | os.PathLike):
        try:
            model = onnx.load(os.fspath(source))
        except Exception as err:  # a damaged or non-ONNX file: one line, the loader's words
            raise CompileError(f"cannot load the ONNX model '{source}': {_line(err)}") from None
    try:
        if opset_version and opset_version > model.opset_import[0].version:
            model = onnx.version_converter.convert_version(model, opset_version)
        onnx.checker.check_model(model)
        return onnx.shape_inference.infer_shapes(model, data_prop=data_prop)
    except Exception as err:
        raise CompileError(f"iree-import-onnx: {_line(err)}", stage="input") from None


def import_onnx(source, opset_version: int | None = None, data_prop: bool = True) -> str:
    """The model as torch-dialect MLIR text (what `iree-import-onnx model.onnx` prints)."""
    return import_onnx_program(source, opset_version, data_prop)[0]


def import_onnx_program(
    source, opset_version: int | None = None, data_prop: bool = True
) -> tuple[str, Signature]:
    """The imported text and the graph's input and output names."""
    model = load_model(source, opset_version, data_prop)
    return _imported(model), onnx_signature(model)


def _imported(model) -> str:
    importer = require("iree.compiler.extras.onnx_importer", _WHAT, "iree-base-compiler[onnx]")
    from iree.compiler.ir import Context

    try:
        info = importer.ModelInfo(model)
        module = info.create_module(context=Context()).operation
        importer.NodeImporter.define_function(info.main_graph, module).import_all()
        module.verify()
        return module.get_asm()
    except Exception as err:  # the importer's own message, one line
        raise CompileError(f"iree-import-onnx: {_line(err)}", stage="input") from None


def _line(err: Exception) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__
