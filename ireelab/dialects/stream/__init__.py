"""The `stream` dialect: IREE's resources, asynchronous execution and timepoints.

Mirrors `compiler/src/iree/compiler/Dialect/Stream/IR/StreamOps.td` and `StreamTypes.td`
(IREE 3.13) for the ops the Stream stage prints, from `ConvertToStreamPass` (the
`stream.tensor.*` ops on `!stream.resource<*>`, `tensor_ops`) through the `stream.async.*`
value-semantics ops (`async_ops`, `async_dispatch`) and `stream.async.execute` regions
(`async_execution`), contiguous slices and updates (`slice_ops`), host reads and writes of
single elements (`element_ops`), constants uploaded by initializers (`constant_ops`), down to `stream.cmd.*` commands on explicitly allocated resources
(`cmd_ops`, `resource_ops`) awaited through `!stream.timepoint`s (`timepoint_ops`).
Executables (`executables`: `stream.executable`) keep the dispatch functions, now taking
`!stream.binding` arguments read with `stream.binding.subspan`.

Almost every op has a custom parse/print: IREE's formats size each resource right after its
type (`!stream.resource<external>{%c32}`), use `=>` for timepoints, name region arguments in
`with(%x as %arg: type{size})` lists and write dispatch bindings as `ro %r[%o for %l]`, which
xDSL's declarative format cannot say; the shared pieces are in `syntax`. The trivial ops use
`assembly_format`.

Not modelled: multiple entry points, parameters, channels, files and collectives.

This package builds the one `Stream` dialect object and re-exports every public name, so
`from ireelab.dialects import stream; stream.X` works for any op or type.
"""

from __future__ import annotations

from xdsl.ir import Dialect

from ireelab.dialects.stream.async_dispatch import AsyncDispatchOp
from ireelab.dialects.stream.async_execution import AsyncConcurrentOp, AsyncExecuteOp, YieldOp
from ireelab.dialects.stream.async_ops import (
    AsyncAllocaOp,
    AsyncCastOp,
    AsyncCloneOp,
    AsyncCopyOp,
    AsyncSplatOp,
    AsyncTransferOp,
    AsyncUpdateOp,
)
from ireelab.dialects.stream.cmd_ops import (
    CmdConcurrentOp,
    CmdCopyOp,
    CmdDispatchOp,
    CmdExecuteOp,
    CmdFillOp,
    CmdSerialOp,
)
from ireelab.dialects.stream.constant_ops import (
    AsyncConstantOp,
    ResourceConstantsOp,
    ResourceTryMapOp,
    TensorConstantOp,
)
from ireelab.dialects.stream.element_ops import (
    AsyncFillOp,
    AsyncLoadOp,
    CmdFlushOp,
    ResourceLoadOp,
    TensorFillOp,
    TensorLoadOp,
)
from ireelab.dialects.stream.executables import (
    BindingSubspanOp,
    ExecutableExportOp,
    ExecutableOp,
    ReturnOp,
)
from ireelab.dialects.stream.resource_ops import (
    ResourceAllocaOp,
    ResourceDeallocaOp,
    ResourceSizeOp,
    ResourceSubviewOp,
)
from ireelab.dialects.stream.resource_pack import ResourcePackOp
from ireelab.dialects.stream.slice_ops import (
    AsyncSliceOp,
    TensorEmptyOp,
    TensorSliceOp,
    TensorUpdateOp,
)
from ireelab.dialects.stream.syntax import (
    affinity_props,
    is_resource,
    parse_affinity,
    parse_arrow,
    parse_encoding,
    parse_operand_list,
    parse_optional_await,
    parse_range,
    parse_region_results,
    parse_resource_captures,
    parse_size,
    parse_sized_type,
    parse_trailing_attrs,
    parse_typed_operand,
    print_affinity,
    print_await,
    print_encoding,
    print_range,
    print_region_results,
    print_resource_captures,
    print_sized,
    print_trailing_attrs,
)
from ireelab.dialects.stream.tensor_ops import (
    TensorCloneOp,
    TensorDispatchOp,
    TensorExportOp,
    TensorImportOp,
    TensorSizeOfOp,
    TensorSplatOp,
)
from ireelab.dialects.stream.timepoint_ops import (
    TimepointAwaitOp,
    TimepointBarrierOp,
    TimepointChainExternalOp,
    TimepointImmediateOp,
    TimepointImportOp,
    TimepointJoinOp,
)
from ireelab.dialects.stream.types import Access, BindingType, Lifetime, ResourceType, TimepointType

Stream = Dialect(
    "stream",
    [
        ExecutableOp,
        ExecutableExportOp,
        ReturnOp,
        BindingSubspanOp,
        ResourceAllocaOp,
        ResourceDeallocaOp,
        ResourceSizeOp,
        ResourceSubviewOp,
        ResourcePackOp,
        ResourceConstantsOp,
        ResourceTryMapOp,
        TensorImportOp,
        TensorExportOp,
        TensorSizeOfOp,
        TensorCloneOp,
        TensorSplatOp,
        TensorDispatchOp,
        TensorEmptyOp,
        TensorSliceOp,
        TensorUpdateOp,
        TensorLoadOp,
        TensorFillOp,
        TensorConstantOp,
        AsyncConstantOp,
        AsyncAllocaOp,
        AsyncSplatOp,
        AsyncCloneOp,
        AsyncCastOp,
        AsyncTransferOp,
        AsyncUpdateOp,
        AsyncSliceOp,
        AsyncCopyOp,
        AsyncFillOp,
        AsyncLoadOp,
        AsyncDispatchOp,
        AsyncExecuteOp,
        AsyncConcurrentOp,
        YieldOp,
        CmdExecuteOp,
        CmdSerialOp,
        CmdConcurrentOp,
        CmdDispatchOp,
        CmdFillOp,
        CmdCopyOp,
        CmdFlushOp,
        ResourceLoadOp,
        TimepointImmediateOp,
        TimepointJoinOp,
        TimepointAwaitOp,
        TimepointImportOp,
        TimepointBarrierOp,
        TimepointChainExternalOp,
    ],
    [ResourceType, TimepointType, BindingType],
)


__all__ = [
    "ResourcePackOp",
    "TensorLoadOp",
    "TensorFillOp",
    "ResourceLoadOp",
    "CmdFlushOp",
    "AsyncLoadOp",
    "AsyncFillOp",
    "Access",
    "AsyncAllocaOp",
    "AsyncCastOp",
    "AsyncCloneOp",
    "AsyncConcurrentOp",
    "AsyncConstantOp",
    "AsyncCopyOp",
    "AsyncDispatchOp",
    "AsyncExecuteOp",
    "AsyncSliceOp",
    "AsyncSplatOp",
    "AsyncTransferOp",
    "AsyncUpdateOp",
    "BindingSubspanOp",
    "BindingType",
    "CmdConcurrentOp",
    "CmdCopyOp",
    "CmdDispatchOp",
    "CmdExecuteOp",
    "CmdFillOp",
    "CmdSerialOp",
    "ExecutableExportOp",
    "ExecutableOp",
    "Lifetime",
    "ResourceAllocaOp",
    "ResourceConstantsOp",
    "ResourceDeallocaOp",
    "ResourceSizeOp",
    "ResourceSubviewOp",
    "ResourceTryMapOp",
    "ResourceType",
    "ReturnOp",
    "Stream",
    "TensorCloneOp",
    "TensorConstantOp",
    "TensorDispatchOp",
    "TensorEmptyOp",
    "TensorExportOp",
    "TensorImportOp",
    "TensorSizeOfOp",
    "TensorSliceOp",
    "TensorSplatOp",
    "TensorUpdateOp",
    "TimepointAwaitOp",
    "TimepointBarrierOp",
    "TimepointChainExternalOp",
    "TimepointImportOp",
    "TimepointImmediateOp",
    "TimepointJoinOp",
    "TimepointType",
    "YieldOp",
    "affinity_props",
    "is_resource",
    "parse_affinity",
    "parse_arrow",
    "parse_encoding",
    "parse_operand_list",
    "parse_optional_await",
    "parse_range",
    "parse_region_results",
    "parse_resource_captures",
    "parse_size",
    "parse_sized_type",
    "parse_trailing_attrs",
    "parse_typed_operand",
    "print_affinity",
    "print_await",
    "print_encoding",
    "print_range",
    "print_region_results",
    "print_resource_captures",
    "print_sized",
    "print_trailing_attrs",
]
