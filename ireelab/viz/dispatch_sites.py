"""Where the dispatches are and what is fused in each: the analysis behind the dispatch graph.

A dispatch site is one of the forms IREE's Flow and Stream stages give a kernel launch:
`flow.dispatch.region` (ops still inline, after FormDispatchRegionsPass),
`flow.dispatch.workgroups` (after ConvertDispatchRegionsToWorkgroupsPass), and `flow.dispatch`
/ `stream.tensor.dispatch` / `stream.async.dispatch` calling an outlined export (after
OutlineDispatchRegionsPass). For each the analysis finds the ops fused inside and how the
site's operands and results reach them: through captured values, or through the bindings an
executable function reads with `iree_tensor_ext.dispatch.tensor.load` / `.store` (via
`stream.binding.subspan` at the Stream level). Bindings follow IREE's outlining convention:
one per argument, then one per result that is not tied to an argument.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import BlockArgument, Operation, SSAValue

from ireelab.viz.generic_ir import (
    body_ops,
    export_name,
    int_array,
    is_data,
    lookup_export_function,
    symbol_refs,
    symbol_text,
    type_name,
)

REGION_SITES = frozenset({"flow.dispatch.region"})
WORKGROUP_SITES = frozenset({"flow.dispatch.workgroups"})
CALL_SITES = frozenset({"flow.dispatch", "stream.tensor.dispatch", "stream.async.dispatch"})

_PLUMBING = frozenset(
    {
        "iree_tensor_ext.dispatch.tensor.load",
        "iree_tensor_ext.dispatch.tensor.store",
        "stream.binding.subspan",
        "flow.dispatch.tie_shape",
        "iree_tensor_ext.dispatch.workload.ordinal",
        "tensor.empty",
        "arith.constant",
    }
)
"""Inner ops that move data in and out, name sizes or make scratch; not what the dispatch
computes."""

_BINDING_TYPES = frozenset({"iree_tensor_ext.dispatch.tensor", "stream.binding"})


@dataclass
class Source:
    """Where an inner value comes from: an inner op, or one of the site's data operands."""

    inner: Operation | None = None
    operand: SSAValue | None = None


@dataclass
class DispatchSite:
    op: Operation
    label: str
    """The export name (`mlp_layer_dispatch_0_matmul_256x512x512_f32`) or `dispatch region N`."""
    symbol: str
    """`@exe::@export` for outlined sites, empty for inline regions."""
    inner: list[Operation] = field(default_factory=list)
    """The fused ops, in order."""
    inputs: dict[Operation, list[Source]] = field(default_factory=dict)
    """Inner op -> where each of its data operands comes from (None entries dropped)."""
    outputs: dict[SSAValue, Source] = field(default_factory=dict)
    """Site result -> what produces it inside."""


def is_site(op: Operation) -> bool:
    return op.name in REGION_SITES | WORKGROUP_SITES | CALL_SITES


def dispatch_site(module: ModuleOp, op: Operation, region_number: int) -> DispatchSite:
    """The site analysis of `op` (one of the dispatch forms above)."""
    if op.name in REGION_SITES:
        return _region_site(op, region_number)
    if op.name in WORKGROUP_SITES:
        return _binding_site(op, f"dispatch workgroups {region_number}", "", op)
    refs = symbol_refs(op)
    if not refs:
        return DispatchSite(op, f"{op.name} {region_number}", "")
    symbol = symbol_text(refs[0])
    body = lookup_export_function(module, refs[0])
    return _binding_site(op, export_name(refs[0]), symbol, body)


def _shown(op: Operation) -> bool:
    return op.name not in _PLUMBING and any(is_data(r) for r in op.results)


def _region_site(op: Operation, number: int) -> DispatchSite:
    site = DispatchSite(op, f"dispatch region {number}", "")
    ops = body_ops(op)
    site.inner = [o for o in ops if _shown(o)]
    inner = set(site.inner)
    for o in site.inner:
        site.inputs[o] = [s for v in o.operands if (s := _captured(v, inner, op))]
    terminator = ops[-1] if ops else None
    if terminator is not None and terminator.name == "flow.return":
        for result, value in zip(op.results, terminator.operands, strict=False):
            source = _captured(value, inner, op)
            if source:
                site.outputs[result] = source
    return site


def _captured(value: SSAValue, inner: set[Operation], site: Operation) -> Source | None:
    owner = value.owner
    if isinstance(owner, Operation) and owner in inner:
        return Source(inner=owner)
    if is_data(value) and not site.is_ancestor(
        owner if isinstance(owner, Operation) else owner.parent_op()
    ):
        return Source(operand=value)
    return None


def _binding_site(op: Operation, label: str, symbol: str, body: Operation | None) -> DispatchSite:
    site = DispatchSite(op, label, symbol)
    if body is None:
        return site
    ops = body_ops(body)
    bindings = [a for a in body.regions[0].blocks[0].args if type_name(a.type) in _BINDING_TYPES]
    position = {arg: i for i, arg in enumerate(bindings)}
    arguments = [v for v in op.operands if is_data(v)]
    tied = int_array(op, "tied_operands") or [-1] * len(op.results)
    untied = [r for r, t in zip(op.results, tied, strict=False) if t < 0]
    site.inner = [o for o in ops if _shown(o)]
    inner = set(site.inner)

    def source_of(value: SSAValue) -> Source | None:
        owner = value.owner
        if isinstance(owner, Operation) and owner in inner:
            return Source(inner=owner)
        if isinstance(owner, Operation) and owner.name.endswith("dispatch.tensor.load"):
            index = position.get(_binding_arg(owner.operands[0]), -1)
            if 0 <= index < len(arguments):
                return Source(operand=arguments[index])
        return None

    for o in site.inner:
        site.inputs[o] = [s for v in o.operands if (s := source_of(v))]
    for store in (o for o in ops if o.name.endswith("dispatch.tensor.store")):
        index = position.get(_binding_arg(store.operands[1]), -1)
        result = _result_for_binding(index, len(arguments), untied, tied, op)
        source = source_of(store.operands[0])
        if result is not None and source is not None:
            site.outputs[result] = source
    return site


def _binding_arg(value: SSAValue) -> SSAValue:
    """Look through `stream.binding.subspan` (and the `flow.dispatch.tie_shape` naming a
    binding's `?` sizes) to the function argument it views."""
    views = ("stream.binding.subspan", "flow.dispatch.tie_shape")
    while isinstance(value.owner, Operation) and value.owner.name in views:
        value = value.owner.operands[0]
    return value if isinstance(value, BlockArgument) else value


def _result_for_binding(
    index: int, n_args: int, untied: list[SSAValue], tied: list[int], op: Operation
) -> SSAValue | None:
    if index < 0:
        return None
    if index >= n_args:
        k = index - n_args
        return untied[k] if k < len(untied) else None
    for result, t in zip(op.results, tied, strict=False):
        if t == index:
            return result
    return None
