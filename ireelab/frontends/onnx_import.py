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
import re
from dataclasses import dataclass

from ireelab.diagnostics import CompileError
from ireelab.frontends.extras import require
from ireelab.frontends.signature import Signature, onnx_signature
from ireelab.input_limit import check_file, check_size

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
        check_file(source)
        try:
            model = onnx.load(os.fspath(source))
        except Exception as err:  # a damaged or non-ONNX file: one line, the loader's words
            raise CompileError(f"cannot load the ONNX model '{source}': {_line(err)}") from None
    else:
        check_size(model.ByteSize(), "the ONNX model")
    try:
        if opset_version and opset_version > model.opset_import[0].version:
            model = onnx.version_converter.convert_version(model, opset_version)
        onnx.checker.check_model(model)
        return onnx.shape_inference.infer_shapes(model, data_prop=data_prop)
    except Exception as err:
        raise CompileError(f"iree-import-onnx: {_line(err)}", stage="input") from None


def import_onnx(source, opset_version: int | None = None, data_prop: bool = True) -> str:
    """The model as torch-dialect MLIR text (what `iree-import-onnx model.onnx` prints)."""
    return import_onnx_program(source, opset_version, data_prop).text


@dataclass
class ImportedOnnx:
    text: str
    """What `iree-import-onnx` prints (no debug locations: an op's location is its line)."""
    signature: Signature
    """The graph's input and output names."""
    nodes: dict[int, tuple[str, str]]
    """Line of `text` -> (ONNX node name, op_type) of the node imported there."""

    def name_node(self, err: CompileError, filename: str) -> CompileError:
        """Add the ONNX node an error is located at (in `filename`, this text) to its
        message, which stays one line: `... (ONNX node '/conv1/Conv', Conv)`."""
        line = _imported_line(err, filename)
        node = self.nodes.get(line) if line is not None else None
        if node is not None and "(ONNX node " not in err.message:
            name, op_type = node
            err.message = f"{err.message} (ONNX node {_quoted(name)}, {op_type})"
        return err


def _imported_line(err: CompileError, filename: str) -> int | None:
    """The line of the imported text an error is at: its own location, or, for an error in
    IREE's converted program (`<file>.input.mlir`, which ireelab could not parse), the
    location IREE kept on that line (`loc("<file>":5:10)`)."""
    where = err.location
    if where is None:
        return None
    if where.file == filename:
        return where.line
    if where.file != f"{filename}.input.mlir":
        return None
    from ireelab.diagnostics import SOURCES

    lines = SOURCES.get(where.file) or [where.source_line]
    start = where.line - 1 if len(lines) > 1 else 0
    depth = 0
    for text in lines[start:]:  # an op with regions carries its location after the last `}`
        unquoted = re.sub(r'"(?:[^"\\]|\\.)*"', '""', text)
        depth += unquoted.count("{") - unquoted.count("}")
        if depth <= 0:
            match = re.search(r'loc\("(?:[^"\\]|\\.)*":(\d+):\d+\)\s*$', text.rstrip())
            return int(match.group(1)) if match else None
    return None


def import_onnx_program(
    source, opset_version: int | None = None, data_prop: bool = True
) -> ImportedOnnx:
    """The imported text, the graph's input and output names and where each node went."""
    model = load_model(source, opset_version, data_prop)
    text, nodes = _imported(model)
    return ImportedOnnx(text, onnx_signature(model), nodes)


def _imported(model) -> tuple[str, dict[int, tuple[str, str]]]:
    importer = require("iree.compiler.extras.onnx_importer", _WHAT, "iree-base-compiler[onnx]")
    from iree.compiler.ir import Context

    try:
        info = importer.ModelInfo(model)
        module = info.create_module(context=Context()).operation
        importer.NodeImporter.define_function(info.main_graph, module).import_all()
        module.verify()
        text = module.get_asm()
        located = module.get_asm(enable_debug_info=True, large_elements_limit=16)
    except Exception as err:  # the importer's own message, one line
        raise CompileError(f"iree-import-onnx: {_line(err)}", stage="input") from None
    op_types = {node.name: node.op_type for node in model.graph.node if node.name}
    return text, _node_lines(text, located, op_types)


_LOC_ALIAS = re.compile(r'^#(loc\d*) = loc\("((?:[^"\\]|\\.)*)"\)$')
_OP_LOC = re.compile(r'\sloc\((?:#(loc\d*)|"((?:[^"\\]|\\.)*)")\)$')


def _node_lines(text: str, located: str, op_types: dict[str, str]) -> dict[int, tuple[str, str]]:
    """The importer names each op's location after its ONNX node; the same module printed
    with those locations has the same op lines (plus `#loc` aliases), so line k of `text`
    came from the node named at line k of the located print. Empty if they do not line up."""
    aliases: dict[str, str] = {}
    body: list[str] = []
    for line in located.splitlines():
        alias = _LOC_ALIAS.match(line) or (line.startswith("#loc") and line)
        if alias:
            if not isinstance(alias, str):
                aliases[alias.group(1)] = alias.group(2)
            continue
        body.append(line)
    plain = text.splitlines()
    if len(body) != len(plain):
        return {}
    nodes: dict[int, tuple[str, str]] = {}
    for number, line in enumerate(body, start=1):
        match = _OP_LOC.search(line.rstrip())
        if match is None:
            continue
        name = aliases.get(match.group(1)) if match.group(1) else match.group(2)
        if name in op_types:
            nodes[number] = (name, op_types[name])
    return nodes


def _quoted(name: str) -> str:
    """A node name as the message shows it: quoted, printable characters only."""
    shown = "".join(c if c.isprintable() else "?" for c in name)
    return f"'{shown[:120]}'"


def _line(err: Exception) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__
