"""The `iree_linalg_ext` dialect: IREE's structured ops that linalg cannot express.

Mirrors IREE's `compiler/src/iree/compiler/Dialect/LinalgExt/IR/LinalgExtOps.td`: ops that
sort, select, scatter and gather along a dimension, each in destination-passing style (its
`outs` are the tensors it writes, returned as results) with a comparator or combiner region
ending in `iree_linalg_ext.yield`. The syntax is IREE's, said with xDSL's declarative
assembly format; the semantics are IREE's scalar implementations
(`generateScalarImplementation`), which `codegen/linalg_ext_to_loops.py` lowers the ops to.

Every op answers `inputs` / `outputs` (its DPS inputs and inits, in operand order), so
bufferization treats it as any destination-style op, and `main_tensor()` (the largest tensor it
touches), which IREE's dispatch naming and cost model use (`iree_linalg_ext_interface.py`).
`fft` is defined in `iree_linalg_ext_fft.py` and registered here, in the one dialect, as are
`quantize_affine` / `dequantize_affine` (`iree_linalg_ext_quant.py`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from xdsl.dialects.builtin import (
    I64,
    AffineMapAttr,
    AnyFloat,
    AnyTensorTypeConstr,
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    DictionaryAttr,
    IndexType,
    IntegerAttr,
    UnitAttr,
    i64,
)
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import IsTerminator
from xdsl.utils.exceptions import VerifyException

from ireelab.dialects.iree_linalg_ext_fft import FftOp
from ireelab.dialects.iree_linalg_ext_interface import SHAPED as _SHAPED
from ireelab.dialects.iree_linalg_ext_interface import LinalgExtOp
from ireelab.dialects.iree_linalg_ext_interface import shape_of as _shape
from ireelab.dialects.iree_linalg_ext_quant import QUANT_OPS

if TYPE_CHECKING:
    from xdsl.parser import Parser


@irdl_op_definition
class YieldOp(IRDLOperation):
    """`iree_linalg_ext.yield %v : i1`: ends a comparator or combiner region."""

    name = "iree_linalg_ext.yield"

    values = var_operand_def()

    traits = traits_def(IsTerminator())

    assembly_format = "attr-dict ($values^ `:` type($values))?"

    def __init__(self, *values: SSAValue) -> None:
        super().__init__(operands=[list(values)])


@irdl_op_definition
class ArgCompareOp(LinalgExtOp):
    """Reduce `dimension` to the value its comparator prefers and that value's index
    (argmax / argmin); `index_base` is added to the index, an `input_index` gives indices
    explicitly. The comparator `(candidate, current) -> i1` says whether the candidate wins;
    on equal values the first stays."""

    name = "iree_linalg_ext.arg_compare"

    input_value = operand_def(_SHAPED)
    input_index = opt_operand_def(_SHAPED)
    output_value = operand_def(_SHAPED)
    output_index = operand_def(_SHAPED)
    index_base = opt_operand_def(IndexType)
    dimension = prop_def(IntegerAttr[I64])
    results_ = var_result_def(AnyTensorTypeConstr)
    region = region_def("single_block")

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    assembly_format = (
        "attr-dict `dimension` `(` $dimension `)`"
        " `ins` `(` $input_value (`,` $input_index^)? `:` type($input_value)"
        " (`,` type($input_index)^)? `)`"
        " `outs` `(` $output_value `,` $output_index `:` type($output_value) `,`"
        " type($output_index) `)`"
        " (`index_base` `(` $index_base^ `:` type($index_base) `)`)?"
        " $region (`->` type($results_)^)?"
    )

    INPUTS: ClassVar[tuple[str, ...]] = ("input_value", "input_index")
    OUTPUTS: ClassVar[tuple[str, ...]] = ("output_value", "output_index")

    def verify_(self) -> None:
        self._verify_results()
        rank = len(_shape(self.input_value))
        self._dimension_in_range(rank)
        dimension = self.dimension.value.data
        reduced = tuple(s for d, s in enumerate(_shape(self.input_value)) if d != dimension)
        for value in self.outputs:
            if _shape(value) != reduced:
                raise VerifyException(
                    f"'{self.name}' outs must have the input's shape without dimension {dimension}"
                )
        if self.input_index is not None and self.index_base is not None:
            raise VerifyException(f"'{self.name}' takes input indices or index_base, not both")


@irdl_op_definition
class SortOp(LinalgExtOp):
    """Sort `outs` in place along `dimension` (XLA's sort): the comparator reads a pair of
    elements of every operand, `(a0, b0, a1, b1, ...)`, and says whether `a` goes first;
    every operand is permuted as the first is."""

    name = "iree_linalg_ext.sort"

    inputs_ = var_operand_def()
    outputs_ = var_operand_def(_SHAPED)
    dimension = prop_def(IntegerAttr[I64])
    results_ = var_result_def(AnyTensorTypeConstr)
    region = region_def("single_block")

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    assembly_format = (
        "attr-dict `dimension` `(` $dimension `)`"
        " (`ins` `(` $inputs_^ `:` type($inputs_) `)`)?"
        " `outs` `(` $outputs_ `:` type($outputs_) `)`"
        " $region (`->` type($results_)^)?"
    )

    INPUTS: ClassVar[tuple[str, ...]] = ("inputs_",)
    OUTPUTS: ClassVar[tuple[str, ...]] = ("outputs_",)

    def verify_(self) -> None:
        self._verify_results()
        shapes = {_shape(v) for v in self.outputs}
        if len(shapes) != 1:
            raise VerifyException(f"'{self.name}' outs must all have one shape")
        self._dimension_in_range(len(next(iter(shapes))))


@irdl_op_definition
class TopkOp(LinalgExtOp):
    """The first K elements along `dimension` in the comparator's order, with their indices
    (from `indices`, or the positions). The comparator `(candidate, kept) -> i1` says whether
    the candidate goes before a kept element; equal values keep the first one."""

    name = "iree_linalg_ext.topk"

    values = operand_def(_SHAPED)
    indices = opt_operand_def(_SHAPED)
    output_values = operand_def(_SHAPED)
    output_indices = operand_def(_SHAPED)
    dimension = prop_def(IntegerAttr[I64])
    results_ = var_result_def(AnyTensorTypeConstr)
    region = region_def("single_block")

    assembly_format = (
        "attr-dict `dimension` `(` $dimension `)`"
        " `ins` `(` $values (`,` $indices^)? `:` type($values) (`,` type($indices)^)? `)`"
        " `outs` `(` $output_values `,` $output_indices `:` type($output_values) `,`"
        " type($output_indices) `)`"
        " $region (`->` type($results_)^)?"
    )

    INPUTS: ClassVar[tuple[str, ...]] = ("values", "indices")
    OUTPUTS: ClassVar[tuple[str, ...]] = ("output_values", "output_indices")

    def verify_(self) -> None:
        self._verify_results()
        _verify_topk_shapes(self, self.values, self.indices, self.outputs)


@irdl_op_definition
class TopkV2Op(LinalgExtOp):
    """As `topk`, with optional output indices and a pure ordering comparator
    `(a, b) -> i1`: does `a` go before `b`. Equal values keep the first as each is inserted;
    with `is_sorted` the kept ones are then bubble-sorted after each insertion, which may
    trade equal values' places, as IREE's lowering does (the loop lowering models both)."""

    name = "iree_linalg_ext.topk_v2"

    dimension = prop_def(IntegerAttr[I64])
    is_sorted = opt_prop_def(UnitAttr)
    values = operand_def(_SHAPED)
    input_indices = opt_operand_def(_SHAPED)
    output_values = operand_def(_SHAPED)
    output_indices = opt_operand_def(_SHAPED)
    results_ = var_result_def(AnyTensorTypeConstr)
    region = region_def("single_block")

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    assembly_format = (
        "attr-dict `dimension` `(` $dimension `)` (`is_sorted` $is_sorted^)?"
        " `ins` `(` $values (`,` $input_indices^)? `:` type($values)"
        " (`,` type($input_indices)^)? `)`"
        " `outs` `(` $output_values (`,` $output_indices^)? `:` type($output_values)"
        " (`,` type($output_indices)^)? `)`"
        " $region (`->` type($results_)^)?"
    )

    INPUTS: ClassVar[tuple[str, ...]] = ("values", "input_indices")
    OUTPUTS: ClassVar[tuple[str, ...]] = ("output_values", "output_indices")

    def verify_(self) -> None:
        self._verify_results()
        if self.input_indices is not None and self.output_indices is None:
            raise VerifyException(f"'{self.name}' input indices need output indices")
        _verify_topk_shapes(self, self.values, self.input_indices, self.outputs)


def _verify_topk_shapes(
    op: TopkOp | TopkV2Op, values: SSAValue, indices: SSAValue | None, outputs: list[SSAValue]
) -> None:
    shape = _shape(values)
    op._dimension_in_range(len(shape))
    dimension = op.dimension.value.data
    if indices is not None and _shape(indices) != shape:
        raise VerifyException(f"'{op.name}' input indices must have the values' shape")
    out_shape = _shape(outputs[0])
    for value in outputs:
        if _shape(value) != out_shape:
            raise VerifyException(f"'{op.name}' outs must have one shape")
    if len(out_shape) != len(shape):
        raise VerifyException(f"'{op.name}' outs must have the input's rank")
    pairs = list(zip(shape, out_shape, strict=True))
    # a `?` size (kDynamic, negative) is compatible with any size, as MLIR's verifiers treat it
    same = all(a == b or min(a, b) < 0 for d, (a, b) in enumerate(pairs) if d != dimension)
    a, b = pairs[dimension]
    if not same or (min(a, b) >= 0 and b > a):
        raise VerifyException(
            f"'{op.name}' outs must have the input's shape with at most as many elements "
            f"along dimension {dimension}"
        )


def _batch_rank(indices: SSAValue, depth: int) -> int:
    """Leading dims of `indices` that count updates: all but the last, which holds the
    `depth` coordinates (and may be left out when `depth` is 1)."""
    shape = _shape(indices)
    if depth == 1 and (not shape or shape[-1] != 1):
        return len(shape)
    return len(shape) - 1


class IndexedSlicesOp(LinalgExtOp):
    """Scatter and gather: slices of one tensor addressed by the coordinates in `indices`."""

    def _slices(self) -> tuple[SSAValue, SSAValue]:
        """(the batched tensor: batch dims then a slice, the tensor indexed)."""
        raise NotImplementedError

    def depth(self) -> int:
        return len(self.dimension_map.get_values())

    def batch_rank(self) -> int:
        return _batch_rank(self.indices, self.depth())

    def verify_(self) -> None:
        self._verify_results()
        batched, full = self._slices()
        _verify_slices(self, batched, full, self.depth(), self.batch_rank())


@irdl_op_definition
class ScatterOp(IndexedSlicesOp):
    """Combine each slice of `updates` into `original` at the coordinates `indices` give
    (`dimension_map` says which dim each coordinate addresses); the region
    `(update, original) -> new` combines, `mask` skips updates."""

    name = "iree_linalg_ext.scatter"

    updates = operand_def(_SHAPED)
    indices = operand_def(_SHAPED)
    mask = opt_operand_def(_SHAPED)
    original = operand_def(_SHAPED)
    dimension_map = prop_def(DenseArrayBase.constr(i64))
    unique_indices = prop_def(BoolAttr)
    results_ = var_result_def(AnyTensorTypeConstr)
    region = region_def("single_block")

    assembly_format = (
        "attr-dict `dimension_map` `=` $dimension_map"
        " `unique_indices` `(` $unique_indices `)`"
        " `ins` `(` $updates `,` $indices (`,` $mask^)? `:` type($updates) `,` type($indices)"
        " (`,` type($mask)^)? `)`"
        " `outs` `(` $original `:` type($original) `)`"
        " $region (`->` type($results_)^)?"
    )

    INPUTS: ClassVar[tuple[str, ...]] = ("updates", "indices", "mask")
    OUTPUTS: ClassVar[tuple[str, ...]] = ("original",)

    def _slices(self) -> tuple[SSAValue, SSAValue]:
        return self.updates, self.original


@irdl_op_definition
class GatherOp(IndexedSlicesOp):
    """Read the slices of `source` at the coordinates `indices` give into `output` (the
    inverse of `scatter`); `mask` leaves output slices as they were."""

    name = "iree_linalg_ext.gather"

    source = operand_def(_SHAPED)
    indices = operand_def(_SHAPED)
    mask = opt_operand_def(_SHAPED)
    output = operand_def(_SHAPED)
    dimension_map = prop_def(DenseArrayBase.constr(i64))
    results_ = var_result_def(AnyTensorTypeConstr)

    assembly_format = (
        "attr-dict `dimension_map` `=` $dimension_map"
        " `ins` `(` $source `,` $indices (`,` $mask^)? `:` type($source) `,` type($indices)"
        " (`,` type($mask)^)? `)`"
        " `outs` `(` $output `:` type($output) `)`"
        " (`->` type($results_)^)?"
    )

    INPUTS: ClassVar[tuple[str, ...]] = ("source", "indices", "mask")
    OUTPUTS: ClassVar[tuple[str, ...]] = ("output",)

    def _slices(self) -> tuple[SSAValue, SSAValue]:
        return self.output, self.source


def _verify_slices(
    op: IndexedSlicesOp, batched: SSAValue, full: SSAValue, depth: int, batch_rank: int
) -> None:
    """`batched` is the batch dims then a slice of `full`'s trailing dims."""
    dims = op.dimension_map.get_values()
    full_shape, batched_shape = _shape(full), _shape(batched)
    if sorted(dims) != sorted(set(dims)) or any(not 0 <= d < len(full_shape) for d in dims):
        raise VerifyException(f"'{op.name}' dimension_map must name distinct dims of the tensor")
    if _shape(op.indices)[:batch_rank] != batched_shape[:batch_rank]:
        raise VerifyException(f"'{op.name}' indices and slices must share the batch dims")
    slice_shape = batched_shape[batch_rank:]
    if len(slice_shape) > len(full_shape) or len(full_shape) - len(slice_shape) > depth:
        raise VerifyException(f"'{op.name}' slice rank does not fit the indexed tensor")
    trailing = full_shape[len(full_shape) - len(slice_shape) :]
    if any(s > f for s, f in zip(slice_shape, trailing, strict=True)):
        raise VerifyException(f"'{op.name}' slices must fit in the indexed tensor")


@irdl_op_definition
class ScanOp(LinalgExtOp):
    """Prefix combination along `dimension` (inclusive or exclusive); `accumulator` holds
    the initial value and receives the last one."""

    name = "iree_linalg_ext.scan"

    input = operand_def(_SHAPED)
    output = operand_def(_SHAPED)
    accumulator = operand_def(_SHAPED)
    dimension = prop_def(IntegerAttr[I64])
    inclusive = prop_def(BoolAttr)
    results_ = var_result_def(AnyTensorTypeConstr)
    region = region_def("single_block")

    assembly_format = (
        "attr-dict `dimension` `(` $dimension `)` `inclusive` `(` $inclusive `)`"
        " `ins` `(` $input `:` type($input) `)`"
        " `outs` `(` $output `,` $accumulator `:` type($output) `,` type($accumulator) `)`"
        " $region (`->` type($results_)^)?"
    )

    INPUTS: ClassVar[tuple[str, ...]] = ("input",)
    OUTPUTS: ClassVar[tuple[str, ...]] = ("output", "accumulator")

    def verify_(self) -> None:
        self._verify_results()
        shape = _shape(self.input)
        self._dimension_in_range(len(shape))
        dimension = self.dimension.value.data
        if _shape(self.output) != shape:
            raise VerifyException(f"'{self.name}' output must have the input's shape")
        reduced = tuple(s for d, s in enumerate(shape) if d != dimension)
        if _shape(self.accumulator) != reduced:
            raise VerifyException(
                f"'{self.name}' accumulator must have the input's shape without dimension "
                f"{dimension}"
            )


class AttentionLikeOp(LinalgExtOp):
    """What `attention` and `online_attention` share: operands addressed by indexing maps
    over one iteration space (query, key, value, scale, mask?, then the outs)."""

    OUT_ROLES: ClassVar[tuple[str, ...]] = ()

    def maps(self) -> dict[str, AffineMap]:
        """Each operand's indexing map by role (`mask` only when present)."""
        roles = ["query", "key", "value", "scale"] + (["mask"] if self.mask else [])
        roles += list(self.OUT_ROLES)
        return {r: m.data for r, m in zip(roles, self.indexing_maps.data, strict=True)}

    def loop_ranges(self) -> list[int]:
        """The extent of each dim of the iteration space, read off the operand shapes."""
        maps = self.maps()
        ranges = [-1] * maps["query"].num_dims
        for role, amap in maps.items():
            if role == "scale":
                continue
            for size, expr in zip(_shape(getattr(self, role)), amap.results, strict=True):
                if isinstance(expr, AffineDimExpr):
                    ranges[expr.position] = size
        return ranges

    def verify_(self) -> None:
        self._verify_results()
        count = 4 + (self.mask is not None) + len(self.OUT_ROLES)
        if len(self.indexing_maps.data) != count:
            raise VerifyException(f"'{self.name}' needs {count} indexing maps")
        maps = self.maps()
        if len({m.num_dims for m in maps.values()}) != 1:
            raise VerifyException(f"'{self.name}' indexing maps must share one iteration space")
        for role, amap in maps.items():
            rank = 0 if role == "scale" else len(_shape(getattr(self, role)))
            if len(amap.results) != rank:
                raise VerifyException(f"'{self.name}' {role} map must have {rank} results")


def _reads_angle_properties(cls: type[AttentionLikeOp]) -> type[AttentionLikeOp]:
    """Also read the properties as IREE 3.13 prints them before the declarative format
    (`attention <indexing_maps = [...]> ins(...)`, or `<{...}>`); printing is unchanged."""
    with_format = cls.parse

    def parse(op_class: type[AttentionLikeOp], parser: Parser) -> AttentionLikeOp:
        props: dict[str, Attribute] = {}
        if parser.parse_optional_punctuation("<") is not None:
            braced = parser.parse_optional_punctuation("{") is not None
            entries = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser._parse_attribute_entry
            )
            props = dict(entries)
            if braced:
                parser.parse_punctuation("}")
            parser.parse_punctuation(">")
        op = with_format.__func__(op_class, parser)
        op.properties.update(props)
        return op

    cls.parse = classmethod(parse)
    return cls


_ATTENTION_INS = (
    " `ins` `(` $query `,` $key `,` $value `,` $scale (`,` $mask^)? `:` type($query) `,`"
    " type($key) `,` type($value) `,` type($scale) (`,` type($mask)^)? `)`"
)


@_reads_angle_properties
@irdl_op_definition
class AttentionOp(AttentionLikeOp):
    """Scaled dot-product attention, `softmax(Q @ K^T * scale + mask) @ V`, over the
    iteration space its `indexing_maps` give (query, key, value, scale, mask?, output). The
    region rewrites each score (after scaling, before the mask); a boolean mask keeps true
    entries, a float mask is added. IREE computes it as an online softmax in base 2."""

    name = "iree_linalg_ext.attention"

    query = operand_def(_SHAPED)
    key = operand_def(_SHAPED)
    value = operand_def(_SHAPED)
    scale = operand_def(AnyFloat)
    mask = opt_operand_def(_SHAPED)
    output = operand_def(_SHAPED)
    indexing_maps = prop_def(ArrayAttr[AffineMapAttr])
    decomposition_config = opt_prop_def(DictionaryAttr)
    results_ = var_result_def(AnyTensorTypeConstr)
    region = region_def("single_block")

    irdl_options = (ParsePropInAttrDict(),)

    assembly_format = (
        "attr-dict" + _ATTENTION_INS + " `outs` `(` $output `:` type($output) `)`"
        " $region (`->` type($results_)^)?"
    )

    INPUTS: ClassVar[tuple[str, ...]] = ("query", "key", "value", "scale", "mask")
    OUTPUTS: ClassVar[tuple[str, ...]] = ("output",)
    OUT_ROLES: ClassVar[tuple[str, ...]] = ("output",)


@_reads_angle_properties
@irdl_op_definition
class OnlineAttentionOp(AttentionLikeOp):
    """One step of attention's online softmax: the outs `output` (an unnormalised
    accumulator), `max` and `sum` (per row, in base 2) are updated with this key block;
    dividing `output` by `sum` afterwards gives attention's result."""

    name = "iree_linalg_ext.online_attention"

    query = operand_def(_SHAPED)
    key = operand_def(_SHAPED)
    value = operand_def(_SHAPED)
    scale = operand_def(AnyFloat)
    mask = opt_operand_def(_SHAPED)
    output = operand_def(_SHAPED)
    max = operand_def(_SHAPED)
    sum = operand_def(_SHAPED)
    indexing_maps = prop_def(ArrayAttr[AffineMapAttr])
    decomposition_config = opt_prop_def(DictionaryAttr)
    results_ = var_result_def(AnyTensorTypeConstr)
    region = region_def("single_block")

    irdl_options = (ParsePropInAttrDict(),)

    assembly_format = (
        "attr-dict" + _ATTENTION_INS + " `outs` `(` $output `,` $max `,` $sum `:`"
        " type($output) `,` type($max) `,` type($sum) `)`"
        " $region (`->` type($results_)^)?"
    )

    INPUTS: ClassVar[tuple[str, ...]] = ("query", "key", "value", "scale", "mask")
    OUTPUTS: ClassVar[tuple[str, ...]] = ("output", "max", "sum")
    OUT_ROLES: ClassVar[tuple[str, ...]] = ("output", "max", "sum")


@irdl_op_definition
class MapLoadOp(LinalgExtOp):
    """`output[i] = source[f(i)]`, where the region maps an output index to a source index
    and a padding value, written where that index is out of the source's bounds."""

    name = "iree_linalg_ext.map_load"

    source = operand_def(_SHAPED)
    output = operand_def(_SHAPED)
    results_ = var_result_def(AnyTensorTypeConstr)
    transformation_region = region_def("single_block")

    assembly_format = (
        "attr-dict $source `into` $output $transformation_region"
        " `:` type($source) `into` type($output) (`->` type($results_)^)?"
    )

    INPUTS: ClassVar[tuple[str, ...]] = ("source",)
    OUTPUTS: ClassVar[tuple[str, ...]] = ("output",)

    def verify_(self) -> None:
        self._verify_results()
        _verify_map_region(self, len(_shape(self.output)), len(_shape(self.source)))


@irdl_op_definition
class MapStoreOp(LinalgExtOp):
    """`output[f(i)] = input[i]` where the region's mask is true: the region maps an input
    index to an output index and a mask."""

    name = "iree_linalg_ext.map_store"

    input = operand_def(_SHAPED)
    output = operand_def(_SHAPED)
    results_ = var_result_def(AnyTensorTypeConstr)
    transformation_region = region_def("single_block")

    assembly_format = (
        "attr-dict $input `into` $output $transformation_region"
        " `:` type($input) `into` type($output) (`->` type($results_)^)?"
    )

    INPUTS: ClassVar[tuple[str, ...]] = ("input",)
    OUTPUTS: ClassVar[tuple[str, ...]] = ("output",)

    def verify_(self) -> None:
        self._verify_results()
        _verify_map_region(self, len(_shape(self.input)), len(_shape(self.output)))


def _verify_map_region(op: MapLoadOp | MapStoreOp, arguments: int, indices: int) -> None:
    """One index argument per dim iterated; yields one index per dim addressed, then one
    more value (the padding or the mask)."""
    block = op.transformation_region.block
    if len(block.args) != arguments or any(a.type != IndexType() for a in block.args):
        raise VerifyException(f"'{op.name}' region takes {arguments} index arguments")
    terminator = block.last_op
    if not isinstance(terminator, YieldOp) or len(terminator.values) != indices + 1:
        raise VerifyException(f"'{op.name}' region yields {indices} indices and one value")


class WinogradTransformOp(LinalgExtOp):
    """The Winograd F(6x6, 3x3) transforms of IREE's conv-to-Winograd rewrite: 8x8 tiles of
    an image (N, H, W, C) or (N, C, H, W) and their transformed form (8, 8, N, H', W', C)."""

    input = operand_def(_SHAPED)
    output = operand_def(_SHAPED)
    output_tile_size = prop_def(IntegerAttr[I64])
    kernel_size = prop_def(IntegerAttr[I64])
    image_dimensions = prop_def(DenseArrayBase.constr(i64))
    results_ = var_result_def(AnyTensorTypeConstr)

    assembly_format = (
        "attr-dict `output_tile_size` `(` $output_tile_size `)`"
        " `kernel_size` `(` $kernel_size `)` `image_dimensions` `(` $image_dimensions `)`"
        " `ins` `(` $input `:` type($input) `)` `outs` `(` $output `:` type($output) `)`"
        " (`->` type($results_)^)?"
    )

    INPUTS: ClassVar[tuple[str, ...]] = ("input",)
    OUTPUTS: ClassVar[tuple[str, ...]] = ("output",)

    def image(self) -> SSAValue:
        raise NotImplementedError

    def tiles(self) -> SSAValue:
        raise NotImplementedError

    def verify_(self) -> None:
        self._verify_results()
        dims = list(self.image_dimensions.get_values())
        if dims not in ([1, 2], [2, 3]) or len(_shape(self.image())) != 4:
            raise VerifyException(
                f"'{self.name}' takes a 4-D NHWC or NCHW image (image_dimensions [1, 2] or [2, 3])"
            )
        if self.image().type.get_element_type() != self.tiles().type.get_element_type():
            raise VerifyException(f"'{self.name}' input and output element types must match")
        if _shape(self.tiles()) != self.expected_tiles_shape():
            raise VerifyException(f"'{self.name}' incompatible output shape")

    def expected_tiles_shape(self) -> tuple[int, ...]:
        """(tile, tile, N, H', W', C) with H' = ceil((H - kernel + 1) / output tile) for the
        input transform and H = H' * output tile for the output transform (IREE's rule)."""
        image = _shape(self.image())
        first, second = self.image_dimensions.get_values()
        channel = 3 if first == 1 else 1
        output_tile, kernel = self.output_tile_size.value.data, self.kernel_size.value.data
        tile = output_tile + kernel - 1
        if isinstance(self, WinogradInputTransformOp):
            count = [-(-(image[d] - kernel + 1) // output_tile) for d in (first, second)]
        else:
            if image[first] % output_tile or image[second] % output_tile:
                return ()
            count = [image[d] // output_tile for d in (first, second)]
        return (tile, tile, image[0], count[0], count[1], image[channel])


@irdl_op_definition
class WinogradInputTransformOp(WinogradTransformOp):
    """`B^T d B` for every 8x8 input tile `d` (tiles step by the output tile size, zero
    padded past the image)."""

    name = "iree_linalg_ext.winograd.input_transform"

    def image(self) -> SSAValue:
        return self.input

    def tiles(self) -> SSAValue:
        return self.output


@irdl_op_definition
class WinogradOutputTransformOp(WinogradTransformOp):
    """`A^T m A` for every transformed 8x8 tile `m`: the 6x6 output tile it stands for,
    written where it lies inside the output image."""

    name = "iree_linalg_ext.winograd.output_transform"

    def image(self) -> SSAValue:
        return self.output

    def tiles(self) -> SSAValue:
        return self.input


LINALG_EXT_OPS = (
    FftOp,
    WinogradInputTransformOp,
    WinogradOutputTransformOp,
    MapLoadOp,
    MapStoreOp,
    AttentionOp,
    OnlineAttentionOp,
    ArgCompareOp,
    SortOp,
    TopkOp,
    TopkV2Op,
    ScatterOp,
    GatherOp,
    ScanOp,
)
"""The ops codegen lowers (each has its own dispatch, as in IREE)."""


def is_linalg_ext(op: Operation | None) -> bool:
    return isinstance(op, LinalgExtOp)


IREELinalgExt = Dialect("iree_linalg_ext", [*LINALG_EXT_OPS, *QUANT_OPS, YieldOp], [])
