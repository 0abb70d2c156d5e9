"""The `iree_tensor_ext` dialect: how a dispatch body sees its bindings as tensors.

Mirrors IREE's `compiler/src/iree/compiler/Dialect/TensorExt/IR/TensorExtOps.td` and
`TensorExtTypes.td`. Inside `flow.executable` / `stream.executable` / `hal.executable` bodies a
binding is a `!iree_tensor_ext.dispatch.tensor<readonly:tensor<...>>` (or `writeonly`,
`readwrite`); `dispatch.tensor.load` reads a slice of it as a value tensor, and
`dispatch.tensor.store` writes a value tensor into it. Slices are given by offsets, sizes and
strides, each entry a constant or an SSA index (tiling makes them dynamic). The
workgroup-count region of an export starts as `dispatch.workgroup_count_from_slice()`, which
codegen later replaces with the counts its tiling chose. A dynamically shaped binding carries its
`?` sizes after its type (`{%d}`), values the body gets from `dispatch.workload.ordinal`s.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import auto
from functools import cache

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.dialects.utils.dynamic_index_list import (
    DynamicIndexList,
    get_dynamic_index_list,
    split_dynamic_index_list,
    verify_dynamic_index_list,
)
from xdsl.ir import Attribute, Dialect, Operation, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from ireelab.dialects.iree_tensor_ext_bitcast import BitCastOp


class TensorAccess(StrEnum):
    """How a dispatch may use a binding; decides `ReadOnly` in the HAL pipeline layout."""

    readonly = auto()
    writeonly = auto()
    readwrite = auto()


@irdl_attr_definition
class DispatchTensorType(ParametrizedAttribute, TypeAttribute):
    """`!iree_tensor_ext.dispatch.tensor<readonly:tensor<2x4xf32>>`."""

    name = "iree_tensor_ext.dispatch.tensor"

    access_: StringAttr
    """one of `TensorAccess` (kept as a string parameter; `access` gives the enum)."""
    bound_type: TensorType

    def __init__(self, access: TensorAccess | str, bound_type: TensorType):
        super().__init__(StringAttr(TensorAccess(access).value), bound_type)

    @property
    def access(self) -> TensorAccess:
        return TensorAccess(self.access_.data)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[StringAttr, Attribute]:
        with parser.in_angle_brackets():
            access = parser.parse_str_enum(TensorAccess)
            parser.parse_punctuation(":")
            bound = parser.parse_type()
        return StringAttr(access.value), bound

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.access_.data}:")
        printer.print_attribute(self.bound_type)
        printer.print_string(">")

    def verify(self) -> None:
        if self.access_.data not in TensorAccess.__members__:
            raise VerifyException(f"unknown dispatch tensor access '{self.access_.data}'")

    @property
    def can_read(self) -> bool:
        return self.access != TensorAccess.writeonly

    @property
    def can_write(self) -> bool:
        return self.access != TensorAccess.readonly

    def slice_type(self, sizes: Sequence[int]) -> TensorType:
        """The value tensor a load of `sizes` yields (unit dims are kept, as IREE does
        when no rank reduction is asked for)."""
        return TensorType(self.bound_type.element_type, sizes)


def _slice_operands(
    offsets: Sequence[SSAValue | int],
    sizes: Sequence[SSAValue | int],
    strides: Sequence[SSAValue | int],
) -> tuple[list[list[SSAValue]], dict[str, Attribute]]:
    dynamic: list[list[SSAValue]] = []
    props: dict[str, Attribute] = {}
    for key, values in (("offsets", offsets), ("sizes", sizes), ("strides", strides)):
        static, dyn = split_dynamic_index_list(values, DYNAMIC_INDEX)
        dynamic.append(dyn)
        props[f"static_{key}"] = _static_list(tuple(static))
    return dynamic, props


@cache
def _static_list(values: tuple[int, ...]) -> DenseArrayBase:
    """An i64 array attribute, made once per list (each load and store of a model's dispatches
    spells the same few offsets, sizes and strides; xDSL checks every element it packs)."""
    return DenseArrayBase.from_list(i64, values)


class _SliceOp(IRDLOperation):
    """Shared accessors and checks of dispatch.tensor.load and .store."""

    def mixed(self, key: str) -> list[SSAValue | int]:
        static = getattr(self, f"static_{key}").get_values()
        return get_dynamic_index_list(static, getattr(self, key), DYNAMIC_INDEX)

    def verify_slices(self, target: DispatchTensorType) -> None:
        rank = len(target.bound_type.get_shape())
        for key in ("offsets", "sizes", "strides"):
            static = getattr(self, f"static_{key}").get_values()
            verify_dynamic_index_list(static, getattr(self, key), DYNAMIC_INDEX, f" in {key}")
            if len(static) != rank:
                raise VerifyException(
                    f"{key} has {len(static)} entries, the dispatch tensor has rank {rank}"
                )


@irdl_op_definition
class DispatchTensorLoadOp(_SliceOp):
    """`%t = iree_tensor_ext.dispatch.tensor.load %b, offsets = [...], sizes = [...],
    strides = [...] : !iree_tensor_ext.dispatch.tensor<readonly:T> -> tensor<...>`."""

    name = "iree_tensor_ext.dispatch.tensor.load"

    source = operand_def(DispatchTensorType)
    source_dims = var_operand_def(IndexType)
    """The binding's `?` sizes (`{%d}` after its type)."""
    offsets = var_operand_def(IndexType)
    sizes = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)
    static_offsets = prop_def(DenseArrayBase.constr(i64))
    static_sizes = prop_def(DenseArrayBase.constr(i64))
    static_strides = prop_def(DenseArrayBase.constr(i64))
    result = result_def(TensorType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    custom_directives = (DynamicIndexList,)

    assembly_format = (
        "$source `,` `offsets` `=` custom<DynamicIndexList>($offsets, $static_offsets)"
        " `,` `sizes` `=` custom<DynamicIndexList>($sizes, $static_sizes)"
        " `,` `strides` `=` custom<DynamicIndexList>($strides, $static_strides)"
        " attr-dict `:` type($source) (`{` $source_dims^ `}`)? `->` type($result)"
    )

    def __init__(
        self,
        source: SSAValue | Operation,
        result_type: Attribute,
        offsets: Sequence[SSAValue | int],
        sizes: Sequence[SSAValue | int],
        strides: Sequence[SSAValue | int],
        source_dims: Sequence[SSAValue] = (),
    ):
        dynamic, props = _slice_operands(offsets, sizes, strides)
        super().__init__(
            operands=[source, list(source_dims), *dynamic],
            result_types=[result_type],
            properties=props,
        )

    def verify_(self) -> None:
        source_type = self.source.type
        assert isinstance(source_type, DispatchTensorType)
        if not source_type.can_read:
            raise VerifyException("cannot load from a writeonly dispatch tensor")
        self.verify_slices(source_type)


@irdl_op_definition
class DispatchTensorStoreOp(_SliceOp):
    """`iree_tensor_ext.dispatch.tensor.store %v, %b, offsets = [...], sizes = [...],
    strides = [...] : tensor<...> -> !iree_tensor_ext.dispatch.tensor<writeonly:T>`."""

    name = "iree_tensor_ext.dispatch.tensor.store"

    value = operand_def(TensorType)
    target = operand_def(DispatchTensorType)
    target_dims = var_operand_def(IndexType)
    """The binding's `?` sizes (`{%d}` after its type)."""
    offsets = var_operand_def(IndexType)
    sizes = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)
    static_offsets = prop_def(DenseArrayBase.constr(i64))
    static_sizes = prop_def(DenseArrayBase.constr(i64))
    static_strides = prop_def(DenseArrayBase.constr(i64))

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    custom_directives = (DynamicIndexList,)

    assembly_format = (
        "$value `,` $target `,` `offsets` `=` custom<DynamicIndexList>($offsets, $static_offsets)"
        " `,` `sizes` `=` custom<DynamicIndexList>($sizes, $static_sizes)"
        " `,` `strides` `=` custom<DynamicIndexList>($strides, $static_strides)"
        " attr-dict `:` type($value) `->` type($target) (`{` $target_dims^ `}`)?"
    )

    def __init__(
        self,
        value: SSAValue | Operation,
        target: SSAValue | Operation,
        offsets: Sequence[SSAValue | int],
        sizes: Sequence[SSAValue | int],
        strides: Sequence[SSAValue | int],
        target_dims: Sequence[SSAValue] = (),
    ):
        dynamic, props = _slice_operands(offsets, sizes, strides)
        super().__init__(operands=[value, target, list(target_dims), *dynamic], properties=props)

    def verify_(self) -> None:
        target_type = self.target.type
        assert isinstance(target_type, DispatchTensorType)
        if not target_type.can_write:
            raise VerifyException("cannot store into a readonly dispatch tensor")
        self.verify_slices(target_type)


@irdl_op_definition
class DispatchWorkloadOrdinalOp(IRDLOperation):
    """`%0 = iree_tensor_ext.dispatch.workload.ordinal %arg0, 0 : index`: this dispatch
    argument is entry `ordinal` of the workload, so the count region's `%w{ordinal}` and the
    body's value are the same number (codegen computes workgroup counts from it)."""

    name = "iree_tensor_ext.dispatch.workload.ordinal"

    operand = operand_def(IndexType)
    ordinal = prop_def(IntegerAttr[IndexType])
    result = result_def(IndexType)

    traits = traits_def(Pure())

    assembly_format = "attr-dict $operand `,` $ordinal `:` type($operand)"

    def __init__(self, operand: SSAValue | Operation, ordinal: int):
        super().__init__(
            operands=[operand],
            result_types=[IndexType()],
            properties={"ordinal": IntegerAttr(ordinal, IndexType())},
        )


@irdl_op_definition
class DispatchWorkgroupCountFromSliceOp(IRDLOperation):
    """`%x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%workload...)`.

    A placeholder in an export's count region: "as many workgroups as the tiling of the
    dispatch's root op needs". Codegen (TileAndDistributeToWorkgroups) resolves it.
    """

    name = "iree_tensor_ext.dispatch.workgroup_count_from_slice"

    workload = var_operand_def(IndexType)
    x = result_def(IndexType)
    y = result_def(IndexType)
    z = result_def(IndexType)

    traits = traits_def(Pure())

    assembly_format = "`(` $workload `)` attr-dict"

    def __init__(self, workload: Sequence[SSAValue | Operation] = ()):
        super().__init__(operands=[workload], result_types=[IndexType()] * 3)
        for result, hint in zip(self.results, "xyz", strict=True):
            result.name_hint = hint


class _ComputeBarrierOp(IRDLOperation):
    """An identity on a tensor that marks the edge of the program's compute: passes that move
    reshapes or fuse producers do not reach across it. Only static shapes (no `{%dims}`)."""

    value = operand_def(TensorType)
    result = result_def(TensorType)

    traits = traits_def(Pure())

    assembly_format = "$value `:` type($value) `->` type($result) attr-dict-with-keyword"

    def __init__(self, value: SSAValue | Operation):
        value = SSAValue.get(value)
        super().__init__(operands=[value], result_types=[value.type])

    def verify_(self) -> None:
        if self.value.type != self.result.type:
            raise VerifyException("value and result types must match")


@irdl_op_definition
class ComputeBarrierStartOp(_ComputeBarrierOp):
    """`%r = iree_tensor_ext.compute_barrier.start %v : tensor<..> -> tensor<..>`: a value
    entering the compute region (a function argument, an imported tensor)."""

    name = "iree_tensor_ext.compute_barrier.start"


@irdl_op_definition
class ComputeBarrierEndOp(_ComputeBarrierOp):
    """`%r = iree_tensor_ext.compute_barrier.end %v : tensor<..> -> tensor<..>`: a computed
    value leaving the compute region (returned, exported)."""

    name = "iree_tensor_ext.compute_barrier.end"


IREETensorExt = Dialect(
    "iree_tensor_ext",
    [
        DispatchTensorLoadOp,
        DispatchTensorStoreOp,
        DispatchWorkloadOrdinalOp,
        DispatchWorkgroupCountFromSliceOp,
        ComputeBarrierStartOp,
        ComputeBarrierEndOp,
        BitCastOp,
    ],
    [DispatchTensorType],
)
