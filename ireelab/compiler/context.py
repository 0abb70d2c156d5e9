"""The MLIR context ireelab parses with: xDSL's upstream dialects plus IREE's.

IREE registers every dialect its pipeline can meet; so does this: the input dialects a notebook
cell may hold (func, arith, math, linalg, tensor) and the ones ireelab's own stages print
(util, hal, flow, stream, iree_tensor_ext, vm, and the iree_codegen / iree_cpu attributes
codegen writes), so any phase's output and the IR after any pass parses back.

Attributes of dialects ireelab does not load (`tosa.target_env`, which IREE's TOSA input
conversion leaves on the module; `torch.*` markers on functions) parse as opaque attributes and
are carried along untouched, as MLIR keeps attributes of a dialect it knows only by name. Ops
and types of such dialects stay errors: ireelab cannot compile them.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import UnregisteredAttr
from xdsl.ir import Attribute, Dialect

_UPSTREAM = (
    ("xdsl.dialects.builtin", "Builtin"),
    ("xdsl.dialects.func", "Func"),
    ("xdsl.dialects.math", "Math"),
    ("xdsl.dialects.scf", "Scf"),
    ("xdsl.dialects.memref", "MemRef"),
    ("xdsl.dialects.cf", "Cf"),
    ("xdsl.dialects.bufferization", "Bufferization"),
    ("xdsl.dialects.complex", "Complex"),  # complex<f32> values in linalg bodies
)

_IREELAB = (
    ("ireelab.dialects.arith_ext", "Arith"),  # MLIR's casts and select on tensors
    ("ireelab.dialects.linalg_ext", "Linalg"),
    ("ireelab.dialects.tensor_ext", "Tensor"),  # MLIR's rank-0 expand_shape
    ("ireelab.dialects.util", "Util"),
    ("ireelab.dialects.hal", "HAL"),
    ("ireelab.dialects.iree_cpu", "IREECPU"),  # targets, lowering configs, CPU pipelines
    ("ireelab.dialects.iree_codegen", "IREECodegen"),  # translation_info, ukernel.generic
    ("ireelab.dialects.iree_tensor_ext", "IREETensorExt"),
    ("ireelab.dialects.iree_encoding", "IREEEncoding"),  # data-tiling encodings
    ("ireelab.dialects.flow", "Flow"),
    ("ireelab.dialects.stream", "Stream"),
    ("ireelab.dialects.vm", "VM"),
    ("ireelab.dialects.check", "Check"),  # IREE's e2e test assertions
    ("ireelab.dialects.iree_linalg_ext", "IREELinalgExt"),  # sort, topk, scatter, ...
    ("ireelab.dialects.affine_ext", "Affine"),  # xDSL's affine + MLIR's (de)linearize_index
)


@dataclass
class InputContext(Context):
    """A context that reads attributes of unknown dialects as opaque `UnregisteredAttr`s."""

    def get_optional_attr(self, name: str) -> type[Attribute] | None:
        found = super().get_optional_attr(name)
        if found is not None or self._knows_dialect(Dialect.split_name(name)[0]):
            return found
        attr_type = UnregisteredAttr.with_name_and_type(name, False)
        self._loaded_attrs[name] = attr_type
        return attr_type

    def _knows_dialect(self, dialect: str) -> bool:
        return dialect in self._loaded_dialects or dialect in self._registered_dialects

    def clone(self) -> InputContext:
        base = super().clone()
        return InputContext(**{name: getattr(base, name) for name in base.__dataclass_fields__})


def make_context() -> Context:
    ctx = InputContext(allow_unregistered=False)
    for module_name, attr in _UPSTREAM + _IREELAB:
        dialect = _dialect(module_name, attr)
        if dialect is not None:
            ctx.load_dialect(dialect)
    return ctx


def _dialect(module_name: str, attr: str):
    """The dialect object, or None while its module is not written yet (the test
    `tests/test_pipeline.py` fails until every dialect exists)."""
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        if err.name == module_name:
            return None
        raise
    return getattr(module, attr)
