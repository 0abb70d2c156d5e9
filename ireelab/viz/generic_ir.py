"""Reading IREE's IR by op name, type name and symbol, without depending on one dialect's API.

The views must draw what ireelab prints and what the real IREE prints (its dumps parse with
ireelab's dialects), at whatever pass the picture is taken. So they look at ops the way
`mlir-opt --view-op-graph` does: names, operands, results, regions, symbol references, and
types by their dialect name (`tensor`, `stream.resource`, `stream.timepoint`).
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, ModuleOp, StringAttr, SymbolRefAttr
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue

DATA_TYPES = frozenset(
    {
        "tensor",
        "hal.buffer_view",
        "hal.buffer",
        "stream.resource",
        "iree_tensor_ext.dispatch.tensor",
    }
)
"""Types whose values are program data (edges in the dataflow views)."""

FUNCTIONS = frozenset({"util.func", "func.func"})
RETURNS = frozenset({"util.return", "func.return"})


def type_name(t: Attribute) -> str:
    return getattr(t, "name", type(t).__name__)


def type_text(t: Attribute) -> str:
    """The type as IREE prints it (`tensor<2x4xf32>`, `!stream.resource<external>`)."""
    return str(t)


def is_data(value: SSAValue) -> bool:
    return type_name(value.type) in DATA_TYPES


def is_timepoint(value: SSAValue) -> bool:
    return type_name(value.type) == "stream.timepoint"


def value_name(value: SSAValue) -> str:
    """`%name` when the parser kept a name hint (`%result_timepoint`), else the kind of value."""
    if value.name_hint:
        return f"%{value.name_hint}"
    if isinstance(value, BlockArgument):
        return f"%arg{value.index}"
    return f"%{type_name(value.type).rsplit('.', 1)[-1]}"


def all_attributes(op: Operation) -> Iterator[tuple[str, Attribute]]:
    yield from op.properties.items()
    yield from op.attributes.items()


def symbol_refs(op: Operation) -> list[SymbolRefAttr]:
    """Every symbol reference an op holds (`flow.dispatch`'s `@exe::@export`, `util.call`'s callee)."""
    refs: list[SymbolRefAttr] = []
    for _, attr in all_attributes(op):
        if isinstance(attr, SymbolRefAttr):
            refs.append(attr)
        elif isinstance(attr, ArrayAttr):
            refs.extend(a for a in attr.data if isinstance(a, SymbolRefAttr))
    return refs


def string_attr(op: Operation, key: str) -> str | None:
    attr = op.properties.get(key) or op.attributes.get(key)
    return attr.data if isinstance(attr, StringAttr) else None


def int_array(op: Operation, key: str) -> list[int] | None:
    attr = op.properties.get(key) or op.attributes.get(key)
    if not isinstance(attr, ArrayAttr):
        return None
    return [a.value.data for a in attr.data if isinstance(a, IntegerAttr)]


def sym_name(op: Operation) -> str | None:
    return string_attr(op, "sym_name")


def host_functions(module: ModuleOp) -> list[Operation]:
    """The module's top-level functions with a body (executables' inner functions excluded)."""
    return [
        op
        for op in module.body.block.ops
        if op.name in FUNCTIONS and op.regions and op.regions[0].blocks
    ]


def lookup_export_function(module: ModuleOp, ref: SymbolRefAttr) -> Operation | None:
    """`@exe::@export` -> the function holding the export's body inside executable `@exe`."""
    if not ref.nested_references.data:
        return None
    exe_name = ref.root_reference.data
    export = ref.nested_references.data[-1].data
    for exe in module.body.block.ops:
        if sym_name(exe) != exe_name:
            continue
        for op in exe.walk():
            if op.name in FUNCTIONS and sym_name(op) == export:
                return op
    return None


def symbol_text(ref: SymbolRefAttr) -> str:
    """`@exe::@export`, as MLIR prints a nested symbol reference."""
    parts = [ref.root_reference.data, *(s.data for s in ref.nested_references.data)]
    return "::".join(f"@{p}" for p in parts)


def export_name(ref: SymbolRefAttr) -> str:
    nested = ref.nested_references.data
    return nested[-1].data if nested else ref.root_reference.data


def body_ops(op: Operation) -> list[Operation]:
    """The ops of the entry block of `op`'s first region."""
    if not op.regions or not op.regions[0].blocks:
        return []
    return list(op.regions[0].blocks[0].ops)
