"""Host-side globals ConvertToHALPass creates: the device and one loaded executable per device.

Mirrors what IREE's HAL conversion and its `InitializeDevicesPass` /
`MaterializeResourceCachesPass` leave in `--compile-to=hal` output (`a0_matmul_tiny.hal.mlir`):

- `util.global private @__device_0 : !hal.device` plus a `util.initializer` that walks the
  runtime's devices (`hal.devices.count` / `hal.devices.get`), keeps the first whose
  `hal.device.id` matches the target's device id (`local*`) and that supports one of the
  target's executable formats, and fails with `util.status.check_ok` if there is none;
- `util.global private @__device_0_executable_<i>_<name> : !hal.executable` plus an
  initializer that creates it with `hal.executable.create` after checking that the device
  supports the variant's format.

The same ops as IREE's, in a slightly flatter control flow (IREE also caches each format query
in its own global; here the query runs in the executable's initializer).
"""

from __future__ import annotations

from xdsl.dialects import arith, cf
from xdsl.dialects.builtin import IndexType, IntegerAttr, SymbolRefAttr, i1, i32, i64
from xdsl.ir import Block, Region, SSAValue

from ireelab.dialects import hal, util

# IREE's status codes (iree/base/status.h) used by the initializers' checks.
STATUS_UNAVAILABLE = 14
STATUS_INCOMPATIBLE = 18


def _const(block: Block, value: int, type_) -> SSAValue:
    op = arith.ConstantOp(IntegerAttr(value, type_))
    block.add_op(op)
    return op.result


def device_initializer(
    name: str, target: hal.DeviceTargetAttr
) -> tuple[util.GlobalOp, util.InitializerOp]:
    """The device global (now without its target attribute) and the initializer that fills it.

    Control flow: ^entry -> ^loop(i, found) -> ^check(i) -> ^next(found') -> ^loop ... ->
    ^done -> (^fail) -> ^store.
    """
    index = IndexType()
    formats = [t.format.data for t in target.executable_targets.data]
    region = Region()
    entry, loop, query_format, next_, done, fail, store = (Block() for _ in range(7))
    for block in (entry, loop, query_format, next_, done, fail, store):
        region.add_block(block)

    c0 = _const(entry, 0, index)
    c1 = _const(entry, 1, index)
    null = util.NullOp(hal.DeviceType())
    count = hal.DevicesCountOp()
    entry.add_ops([null, count, cf.BranchOp(loop, c0, null.result)])

    i = loop.insert_arg(index, 0)
    found = loop.insert_arg(hal.DeviceType(), 1)
    none_yet = util.CmpEQOp(found, null.result)
    in_range = arith.CmpiOp(i, count.result, "slt")
    keep_going = arith.AndIOp(none_yet.result, in_range.result)
    loop.add_ops(
        [
            none_yet,
            in_range,
            keep_going,
            cf.ConditionalBranchOp(keep_going, query_format, [], done, []),
        ]
    )

    device = hal.DevicesGetOp(i)
    id_query = hal.DeviceQueryOp(
        device, "hal.device.id", f"{target.device_id.data}*", i1, IntegerAttr(0, i1)
    )
    query_format.add_ops([device, id_query])
    supported: SSAValue = id_query.value
    for fmt in formats:
        fmt_query = hal.DeviceQueryOp(device, "hal.executable.format", fmt, i1, IntegerAttr(0, i1))
        both = arith.AndIOp(supported, fmt_query.value)
        query_format.add_ops([fmt_query, both])
        supported = both.result
    pick = arith.SelectOp(supported, device.result, found)
    query_format.add_ops([pick, cf.BranchOp(next_, pick.result)])

    chosen = next_.insert_arg(hal.DeviceType(), 0)
    step = arith.AddiOp(i, c1)
    next_.add_ops([step, cf.BranchOp(loop, step.result, chosen)])

    done.add_op(cf.ConditionalBranchOp(none_yet.result, fail, [], store, []))
    code = _const(fail, STATUS_INCOMPATIBLE, i32)
    message = f"HAL device `{name}` not found or unavailable: {target}"
    fail.add_ops([util.StatusCheckOkOp(code, message), cf.BranchOp(store)])

    store.add_ops([util.GlobalStoreOp(found, name), util.ReturnOp()])
    return util.GlobalOp(name, hal.DeviceType()), util.InitializerOp(region)


def executable_global_name(device: str, ordinal: int, executable: str) -> str:
    return f"{device}_executable_{ordinal}_{executable}"


def executable_initializer(
    device: str, ordinal: int, executable: hal.ExecutableOp
) -> tuple[util.GlobalOp, util.InitializerOp]:
    """`@<device>_executable_<i>_<name>` and the initializer that loads it on the device."""
    name = executable_global_name(device, ordinal, executable.sym_name.data)
    variants = [v for v in executable.body.block.ops if isinstance(v, hal.ExecutableVariantOp)]
    region = Region()
    entry, create, fail, store = (Block() for _ in range(4))
    for block in (entry, create, fail, store):
        region.add_block(block)

    load = util.GlobalLoadOp(device, hal.DeviceType())
    load.result.name_hint = device
    entry.add_op(load)
    null = util.NullOp(hal.ExecutableType())
    entry.add_op(null)
    supported: SSAValue | None = None
    for variant in variants:
        query = hal.DeviceQueryOp(
            load, "hal.executable.format", variant.target.format.data, i1, IntegerAttr(0, i1)
        )
        entry.add_op(query)
        if supported is None:
            supported = query.value
            continue
        either = arith.OrIOp(supported, query.value)
        entry.add_op(either)
        supported = either.result
    assert supported is not None, "an executable has at least one variant"
    entry.add_op(cf.ConditionalBranchOp(supported, create, [], fail, []))

    affinity = _const(create, -1, i64)
    target = SymbolRefAttr(executable.sym_name.data, [variants[0].sym_name.data])
    made = hal.ExecutableCreateOp(load, affinity, target)
    create.add_ops([made, cf.BranchOp(store, made.result)])

    code = _const(fail, STATUS_UNAVAILABLE, i32)
    available = ", ".join(v.target.format.data for v in variants)
    message = (
        f"HAL device `{device}` does not support any variant of executable "
        f"`{executable.sym_name.data}`; available formats: [{available}]"
    )
    fail.add_ops([util.StatusCheckOkOp(code, message), cf.BranchOp(store, null.result)])

    value = store.insert_arg(hal.ExecutableType(), 0)
    store.add_ops([util.GlobalStoreOp(value, name), util.ReturnOp()])
    return util.GlobalOp(name, hal.ExecutableType()), util.InitializerOp(region)
