"""OutlineMemoizeRegionsPass: each `hal.device.memoize` becomes work done once, at load.

Mirrors IREE's `iree-hal-outline-memoize-regions` (HAL/Transforms/OutlineMemoizeRegions.cpp),
which runs right after `ConvertToHALPass` when `--iree-hal-memoization` is on (IREE's
default). For a region in function `@f`:

- its body moves to `util.func private @__f_memoize_apply(%device, %affinity, globals...)`
  (`inlining_policy = #util.inline.never`): the constants it used from above are cloned in,
  the immutable globals it loaded become arguments;
- `util.global private @__f_memoize_result_<i>_<device>` holds each result, stored by a
  `util.initializer` that loads the device and those globals and calls the apply function;
- `util.func private @__f_memoize_lookup(%device, %affinity)` returns the results memoized
  for the device it is given, or null for any other, and replaces the region.

A region that uses any other value from above (a value only known per call) cannot run at
initialisation: it becomes a call of the apply function in place, recording every time, as
IREE does. Unlike IREE, the lookup selects its device with `cf.cond_br` blocks rather than
`scf.if` (ireelab's host code has no `scf` lowering to the VM), and it stays a call: IREE's
later cleanup inlines it down to the global's load, which ireelab's inliner (single-block
callees only) does not.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, cf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i64
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import ConstantLike

from ireelab.dialects import hal, util


@dataclass(frozen=True)
class OutlineMemoizeRegionsPass(ModulePass):
    name = "iree-hal-outline-memoize-regions"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in [o for o in op.body.block.ops if isinstance(o, util.FuncOp)]:
            regions = [o for o in fn.walk() if isinstance(o, hal.DeviceMemoizeOp)]
            for index, memoize in enumerate(regions):
                suffix = "" if index == 0 else f"_{index}"
                _outline(memoize, fn, f"__{fn.sym_name.data}_memoize{suffix}")


@dataclass
class _Captures:
    """What a region uses from above, by IREE's categories (`categorizeValue`)."""

    constants: list[SSAValue] = field(default_factory=list)
    globals: list[SSAValue] = field(default_factory=list)
    dynamic: list[SSAValue] = field(default_factory=list)


def _captures(memoize: hal.DeviceMemoizeOp) -> _Captures:
    inside = {id(o) for o in memoize.body.walk()}
    seen: set[SSAValue] = {memoize.device, memoize.queue_affinity}
    captures = _Captures()
    for inner in memoize.body.walk():
        for value in inner.operands:
            if value in seen or id(value.owner) in inside:
                continue
            seen.add(value)
            owner = value.owner
            if isinstance(owner, Operation) and owner.has_trait(ConstantLike):
                captures.constants.append(value)
            elif isinstance(owner, util.GlobalLoadOp) and owner.is_immutable is not None:
                captures.globals.append(value)
            else:
                captures.dynamic.append(value)
    return captures


def _outline(memoize: hal.DeviceMemoizeOp, parent: util.FuncOp, prefix: str) -> None:
    captures = _captures(memoize)
    apply = _apply_function(memoize, captures, f"{prefix}_apply")
    Rewriter.insert_op(apply, InsertPoint.before(parent))
    device_global = _device_global(memoize.device)
    if captures.dynamic or device_global is None:
        # Not known at initialisation: record in place, on every call.
        operands = [memoize.device, memoize.queue_affinity, *captures.globals, *captures.dynamic]
        call = util.CallOp(apply.sym_name.data, operands, memoize.result_types)
        Rewriter.replace_op(memoize, call)
        return
    affinity = _constant_affinity(memoize.queue_affinity)
    device_name = device_global.removeprefix("__")
    result_globals = []
    for i, type_ in enumerate(memoize.result_types):
        name = f"{prefix}_result_{i}_{device_name}"
        result_globals.append(name)
        Rewriter.insert_op(util.GlobalOp(name, type_), InsertPoint.before(parent))
    init = _initializer(memoize, captures, apply, device_global, affinity, result_globals)
    lookup = _lookup_function(memoize, f"{prefix}_lookup", device_global, result_globals)
    Rewriter.insert_op([init, lookup], InsertPoint.before(parent))
    call = util.CallOp(
        lookup.sym_name.data, [memoize.device, memoize.queue_affinity], memoize.result_types
    )
    Rewriter.replace_op(memoize, call)


def _apply_function(memoize: hal.DeviceMemoizeOp, captures: _Captures, name: str) -> util.FuncOp:
    """The region's body as a function of the device, the affinity and the captured globals
    and dynamic values; an entry block clones the constants and branches to the body."""
    passed = [memoize.device, memoize.queue_affinity, *captures.globals, *captures.dynamic]
    entry = Block(arg_types=[v.type for v in passed])
    mapping: dict[SSAValue, SSAValue] = dict(zip(passed, entry.args, strict=True))
    for value, arg in zip(passed, entry.args, strict=True):
        arg.name_hint = value.name_hint
    for value in captures.constants:
        clone = value.owner.clone(value_mapper=mapping)
        entry.add_op(clone)
        mapping[value] = clone.results[0]
    body = Block()
    for inner in memoize.body.block.ops:
        if isinstance(inner, hal.ReturnOp):
            body.add_op(util.ReturnOp(*[mapping[v] for v in inner.operands]))
            continue
        body.add_op(inner.clone(value_mapper=mapping))
    entry.add_op(cf.BranchOp(body))
    fn = util.FuncOp(
        name,
        ([a.type for a in entry.args], memoize.result_types),
        Region([entry, body]),
        visibility="private",
    )
    fn.attributes["inlining_policy"] = util.InlineNeverAttr()
    return fn


def _initializer(
    memoize: hal.DeviceMemoizeOp,
    captures: _Captures,
    apply: util.FuncOp,
    device_global: str,
    affinity: int,
    result_globals: list[str],
) -> util.InitializerOp:
    block = Block()
    device = util.GlobalLoadOp(device_global, hal.DeviceType(), immutable=True)
    _hint(device.result, device_global)
    queue_affinity = arith.ConstantOp(IntegerAttr(affinity, i64))
    queue_affinity.result.name_hint = f"c{affinity}_i64"
    block.add_ops([device, queue_affinity])
    operands: list[SSAValue] = [device.result, queue_affinity.result]
    for value in captures.globals:
        load = value.owner.clone()
        block.add_op(load)
        operands.append(load.results[0])
    call = util.CallOp(apply.sym_name.data, operands, memoize.result_types)
    block.add_op(call)
    for result, name in zip(call.results, result_globals, strict=True):
        block.add_op(util.GlobalStoreOp(result, name))
    block.add_op(util.ReturnOp())
    return util.InitializerOp(Region(block))


def _hint(value: SSAValue, name: str) -> None:
    """Names a value after its global, as IREE's printer does, where the global's name (taken
    from the function's, which may be quoted) is a valid SSA name; else the printer numbers it."""
    if SSAValue.is_valid_name(name):
        value.name_hint = name


def _lookup_function(
    memoize: hal.DeviceMemoizeOp, name: str, device_global: str, result_globals: list[str]
) -> util.FuncOp:
    """Returns the memoized results when given the device they were recorded on, else null
    (IREE's tree of `scf.if`, as blocks)."""
    types = memoize.result_types
    entry = Block(arg_types=[hal.DeviceType(), i64])
    known = util.GlobalLoadOp(device_global, hal.DeviceType())
    _hint(known.result, device_global)
    same = util.CmpEQOp(entry.args[0], known)
    found, other = Block(), Block()
    loads = [util.GlobalLoadOp(g, t) for g, t in zip(result_globals, types, strict=True)]
    for load, global_name in zip(loads, result_globals, strict=True):
        _hint(load.result, global_name)
    found.add_ops([*loads, util.ReturnOp(*loads)])
    nulls = [util.NullOp(t) for t in types]
    other.add_ops([*nulls, util.ReturnOp(*nulls)])
    entry.add_ops([known, same, cf.ConditionalBranchOp(same, found, [], other, [])])
    return util.FuncOp(
        name, ([hal.DeviceType(), i64], types), Region([entry, found, other]), "private"
    )


def _device_global(device: SSAValue) -> str | None:
    """The `!hal.device` global the region runs on (IREE's DeviceAnalysis, for the one case
    ireelab produces: a load of the device global)."""
    owner = device.owner
    if isinstance(owner, util.GlobalLoadOp):
        return owner.global_.root_reference.data
    return None


def _constant_affinity(value: SSAValue) -> int:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return -1
