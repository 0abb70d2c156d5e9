"""The MLIR context ireelab parses with: xDSL's upstream dialects plus IREE's.

IREE registers every dialect its pipeline can meet; so does this: the input dialects a notebook
cell may hold (func, arith, math, linalg, tensor) and the ones ireelab's own stages print
(util, hal, flow, stream, iree_tensor_ext, vm, and the iree_codegen / iree_cpu attributes
codegen writes), so any phase's output and the IR after any pass parses back.

Attributes of dialects ireelab does not load (`tosa.target_env`, which IREE's TOSA input
conversion leaves on the module; `torch.*` markers on functions) parse as opaque attributes and
are carried along untouched, as MLIR keeps attributes of a dialect it knows only by name. Ops
and types of such dialects stay errors: ireelab cannot compile them.

Dialects are registered, not loaded (MLIR's `DialectRegistry` and a context that loads a
dialect when it first meets one of its names; xDSL's `Context.register_dialect`): importing a
dialect's IRDL definitions costs up to a few hundredths of a second each (parsing its
declarative assembly formats, building its dataclasses), so a compile imports only the
dialects its input and its passes use, not the check, sort or encoding dialects of programs
it is not compiling.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, UnregisteredAttr
from xdsl.ir import Attribute, Dialect

_UPSTREAM = (
    ("func", "xdsl.dialects.func", "Func"),
    ("math", "xdsl.dialects.math", "Math"),
    ("scf", "xdsl.dialects.scf", "Scf"),
    ("memref", "xdsl.dialects.memref", "MemRef"),
    ("cf", "xdsl.dialects.cf", "Cf"),
    ("bufferization", "xdsl.dialects.bufferization", "Bufferization"),
    ("complex", "xdsl.dialects.complex", "Complex"),  # complex<f32> values in linalg bodies
)
"""(dialect name, module, attribute) of xDSL's dialects ireelab reads; `builtin` is loaded."""

_IREELAB = (
    ("arith", "ireelab.dialects.arith_ext", "Arith"),  # MLIR's casts and select on tensors
    ("linalg", "ireelab.dialects.linalg_ext", "Linalg"),
    ("tensor", "ireelab.dialects.tensor_ext", "Tensor"),  # MLIR's rank-0 expand_shape
    ("util", "ireelab.dialects.util", "Util"),
    ("hal", "ireelab.dialects.hal", "HAL"),
    ("iree_cpu", "ireelab.dialects.iree_cpu", "IREECPU"),  # targets, lowering configs
    ("iree_codegen", "ireelab.dialects.iree_codegen", "IREECodegen"),  # translation_info
    ("iree_tensor_ext", "ireelab.dialects.iree_tensor_ext", "IREETensorExt"),
    ("iree_encoding", "ireelab.dialects.iree_encoding", "IREEEncoding"),  # data tiling
    ("flow", "ireelab.dialects.flow", "Flow"),
    ("stream", "ireelab.dialects.stream", "Stream"),
    ("vm", "ireelab.dialects.vm", "VM"),
    ("check", "ireelab.dialects.check", "Check"),  # IREE's e2e test assertions
    ("iree_linalg_ext", "ireelab.dialects.iree_linalg_ext", "IREELinalgExt"),  # sort, topk
    ("affine", "ireelab.dialects.affine_ext", "Affine"),  # + MLIR's (de)linearize_index
)
"""(dialect name, module, attribute) of the dialects ireelab defines or extends."""


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
    ctx.load_dialect(Builtin)
    for name, module_name, attr in _UPSTREAM + _IREELAB:
        ctx.register_dialect(name, _loader(module_name, attr))
    return ctx


def _loader(module_name: str, attr: str) -> Callable[[], Dialect]:
    def load() -> Dialect:
        return getattr(importlib.import_module(module_name), attr)

    return load
