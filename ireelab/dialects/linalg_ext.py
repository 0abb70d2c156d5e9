"""The `linalg` dialect as ireelab parses it: xDSL's linalg plus the named ops xDSL lacks.

MLIR's linalg (which IREE takes as input) has many named structured ops that xDSL 0.75 does not
define: `batch_matmul`, `matvec`, `vecmat`, `dot`, `batch_matvec`, `mmt4d`,
`depthwise_conv_2d_nhwc_hwc`, `depthwise_conv_2d_nchw_chw`, 1-D and 3-D convolutions
(`linalg_conv_nd`), the pooling ops of every layout (`linalg_pooling`), `map`, and most elementwise ops (`div`,
`abs`, `negf`, `tanh`, ...), and `linalg.elementwise <kind>` (`linalg_elementwise`), the form
of those that IREE 3.13 parses. Each is defined here with its semantics - indexing maps, iterator
types and the scalar body (its "hidden region") - so generalisation, fusion and codegen treat
it like any linalg op. `linalg.matmul` is redefined so the `indexing_maps = [...]` form IREE
prints (a matmul with a transposed operand) parses and prints back unchanged, and
`linalg.pooling_nchw_max` so its body reads the accumulator, not the window operand.
`linalg.generic` is replaced by `linalg_generic.GenericOp` (a subclass of xDSL's) that parses
MLIR's `-> (t1, t2)` result list of a multi-result generic.

xDSL registers one `linalg` dialect; a second dialect of the same name cannot be loaded beside
it, so this module rebuilds `Linalg` from xDSL's ops and ireelab's additions.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import ClassVar

from xdsl.builder import Builder
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    ShapedType,
)
from xdsl.dialects.linalg import Linalg as _XLinalg
from xdsl.dialects.linalg.abstract_ops import (
    ConvOperation,
    ElementwiseOperation,
    NamedOperation,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import Attribute, BlockArgument, Dialect, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    var_operand_def,
    var_result_def,
)
from xdsl.irdl.operations import IRDLOperation
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ireelab.dialects.linalg_conv_nd import CONV_ND_OPS
from ireelab.dialects.linalg_conv_q import Conv2DNchwFchwQOp
from ireelab.dialects.linalg_elementwise import ElementwiseKindAttr, ElementwiseOp
from ireelab.dialects.linalg_generic import GenericOp
from ireelab.dialects.linalg_helpers import (
    ScalarFn,
    cast_scalar,
    float_or_int,
    is_float,
    parse_operand_group,
    reciprocal,
    square,
)
from ireelab.dialects.linalg_pack import PackOp, UnPackOp
from ireelab.dialects.linalg_pooling import POOLING_OPS, PoolingNchwMaxOp, window_exprs
from ireelab.dialects.linalg_softmax import SoftmaxOp
from ireelab.dialects.linalg_transpose import TransposeOp


def _mul_add(a: SSAValue, b: SSAValue, acc: SSAValue) -> SSAValue:
    a, b = cast_scalar(a, acc.type), cast_scalar(b, acc.type)
    if is_float(acc.type):
        return arith.AddfOp(acc, arith.MulfOp(a, b)).result
    return arith.AddiOp(acc, arith.MuliOp(a, b)).result


def _contraction_region(arg_types: Sequence[Attribute]) -> Region:
    """`acc + cast(a) * cast(b)`: the body of every named contraction."""

    @Builder.implicit_region(arg_types)
    def body(args: tuple[BlockArgument, ...]) -> None:
        YieldOp(_mul_add(args[0], args[1], args[2]))

    return body


def _dims(letters: str, loops: str) -> tuple[AffineExpr, ...]:
    return tuple(AffineDimExpr(loops.index(ch)) for ch in letters)


# ---- contractions: batch_matmul, matvec, vecmat, dot, batch_matvec ----------------------


class _ContractionOp(NamedOperation):
    """A named contraction given by loop letters, e.g. batch_matmul = `bmnk: bmk, bkn -> bmn`."""

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True
    LOOPS: ClassVar[str]
    OPERANDS: ClassVar[tuple[str, str, str]]

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue] = (),
        res: Sequence[Attribute] | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        result_types = res if res is not None else [o.type for o in outputs]
        super().__init__(
            ins=inputs,
            outs=outputs,
            result_types=result_types,
            attributes=attributes,
            hidden_region=self.get_hidden_region(inputs, outputs),
        )

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        return _contraction_region(cls.body_arg_types((*inputs, *outputs)))

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return tuple(m.data for m in _contraction_maps(self.LOOPS, self.OPERANDS).data)

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        # The op's own maps (matmul's property) or its letters' maps, made once per letters:
        # passes ask for the maps and loops of every structured op again and again.
        maps = self.properties.get("indexing_maps")
        if isinstance(maps, ArrayAttr):
            return maps
        return _contraction_maps(self.LOOPS, self.OPERANDS)

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return _contraction_iterators(self.LOOPS, self.OPERANDS[2])


@cache
def _contraction_maps(loops: str, operands: tuple[str, str, str]) -> ArrayAttr[AffineMapAttr]:
    return ArrayAttr(AffineMapAttr(AffineMap(len(loops), 0, _dims(o, loops))) for o in operands)


@cache
def _contraction_iterators(loops: str, out: str) -> ArrayAttr[IteratorTypeAttr]:
    return ArrayAttr(
        IteratorTypeAttr.parallel() if ch in out else IteratorTypeAttr.reduction() for ch in loops
    )


@irdl_op_definition
class MatvecOp(_ContractionOp):
    """`y[m] += A[m,k] * x[k]`."""

    name = "linalg.matvec"
    LOOPS: ClassVar[str] = "mk"
    OPERANDS: ClassVar[tuple[str, str, str]] = ("mk", "k", "m")


@irdl_op_definition
class VecmatOp(_ContractionOp):
    """`y[n] += x[k] * A[k,n]`."""

    name = "linalg.vecmat"
    LOOPS: ClassVar[str] = "nk"
    OPERANDS: ClassVar[tuple[str, str, str]] = ("k", "kn", "n")


@irdl_op_definition
class BatchMatvecOp(_ContractionOp):
    """`y[b,m] += A[b,m,k] * x[b,k]`."""

    name = "linalg.batch_matvec"
    LOOPS: ClassVar[str] = "bmk"
    OPERANDS: ClassVar[tuple[str, str, str]] = ("bmk", "bk", "bm")


@irdl_op_definition
class DotOp(_ContractionOp):
    """`c[] += a[k] * b[k]` (the init is a 0-d tensor)."""

    name = "linalg.dot"
    LOOPS: ClassVar[str] = "k"
    OPERANDS: ClassVar[tuple[str, str, str]] = ("k", "k", "")


@irdl_op_definition
class Mmt4DOp(_ContractionOp):
    """`C[M,N,m,n] += A[M,K,m,k] * B[N,K,n,k]`: a matmul on tiled operands (the `linalg.pack`ed
    layouts of data tiling), the rhs transposed so both operands are read along k."""

    name = "linalg.mmt4d"
    LOOPS: ClassVar[str] = "MNKmnk"
    OPERANDS: ClassVar[tuple[str, str, str]] = ("MKmk", "NKnk", "MNmn")


_MATMUL_MAPS = ArrayAttr(
    AffineMapAttr(AffineMap(3, 0, _dims(o, "mnk"))) for o in ("mk", "kn", "mn")
)
_BATCH_MATMUL_MAPS = ArrayAttr(
    AffineMapAttr(AffineMap(4, 0, _dims(o, "bmnk"))) for o in ("bmk", "bkn", "bmn")
)


def _parse_with_maps(cls, parser: Parser):
    """MLIR's `indexing_maps = [...]` before the operands, then the named op's own syntax."""
    maps = None
    if parser.parse_optional_keyword("indexing_maps"):
        parser.parse_punctuation("=")
        maps = parser.parse_attribute()
    op = super(cls, cls).parse.__func__(cls, parser)
    if maps is not None:
        op.indexing_maps = maps
    return op


def _print_with_maps(op, cls, printer: Printer, default: ArrayAttr) -> None:
    if op.indexing_maps != default:
        printer.print_string(" indexing_maps = ")
        printer.print_attribute(op.indexing_maps)
    saved = op.properties.pop("indexing_maps", None)
    try:
        super(cls, op).print(printer)
    finally:
        if saved is not None:
            op.properties["indexing_maps"] = saved


@irdl_op_definition
class MatmulOp(_ContractionOp):
    """`C[m,n] += A[m,k] * B[k,n]`; with `indexing_maps = [...]` (MLIR's syntax, printed only
    when not the default) it reads a transposed or broadcast operand, as IREE writes a matmul
    that absorbed a transpose."""

    name = "linalg.matmul"
    LOOPS: ClassVar[str] = "mnk"
    OPERANDS: ClassVar[tuple[str, str, str]] = ("mk", "kn", "mn")

    indexing_maps = prop_def(ArrayAttr[AffineMapAttr], default_value=_MATMUL_MAPS)

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return tuple(m.data for m in self.indexing_maps.data)

    @classmethod
    def parse(cls, parser: Parser):
        return _parse_with_maps(MatmulOp, parser)

    def print(self, printer: Printer):
        _print_with_maps(self, MatmulOp, printer, _MATMUL_MAPS)


@irdl_op_definition
class BatchMatmulOp(_ContractionOp):
    """`C[b,m,n] += A[b,m,k] * B[b,k,n]`; `indexing_maps = [...]` as for `linalg.matmul`
    (IREE's tests write a batch matmul with a transposed B so)."""

    name = "linalg.batch_matmul"
    LOOPS: ClassVar[str] = "bmnk"
    OPERANDS: ClassVar[tuple[str, str, str]] = ("bmk", "bkn", "bmn")

    indexing_maps = prop_def(ArrayAttr[AffineMapAttr], default_value=_BATCH_MATMUL_MAPS)

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return tuple(m.data for m in self.indexing_maps.data)

    @classmethod
    def parse(cls, parser: Parser):
        return _parse_with_maps(BatchMatmulOp, parser)

    def print(self, printer: Printer):
        _print_with_maps(self, BatchMatmulOp, printer, _BATCH_MATMUL_MAPS)


# ---- convolution and pooling with the layouts xDSL lacks ---------------------------------


class _DepthwiseConvOp(ConvOperation):
    """MLIR's depthwise bodies `O += cast(I) * cast(K)`: an f16 image and filter accumulate in
    f32 through `arith.extf` (xDSL's convolution body extends integers only)."""

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        return _contraction_region(cls.body_arg_types((*inputs, *outputs)))


@irdl_op_definition
class DepthwiseConv2DNhwcHwcOp(_DepthwiseConvOp):
    """`O[n,oh,ow,c] += I[n, oh*s+kh*d, ow*s+kw*d, c] * K[kh,kw,c]`."""

    name = "linalg.depthwise_conv_2d_nhwc_hwc"

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, oh, ow, c, kh, kw = (AffineDimExpr(i) for i in range(6))
        h, w = window_exprs(self, (oh, ow), (kh, kw))
        return (
            AffineMap(6, 0, (n, h, w, c)),
            AffineMap(6, 0, (kh, kw, c)),
            AffineMap(6, 0, (n, oh, ow, c)),
        )

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return ArrayAttr([IteratorTypeAttr.parallel()] * 4 + [IteratorTypeAttr.reduction()] * 2)


@irdl_op_definition
class DepthwiseConv2DNchwChwOp(_DepthwiseConvOp):
    """`O[n,c,oh,ow] += I[n, c, oh*s+kh*d, ow*s+kw*d] * K[c,kh,kw]` (ONNX's grouped Conv with
    one filter per channel, as torch-mlir imports it)."""

    name = "linalg.depthwise_conv_2d_nchw_chw"

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, oh, ow, c, kh, kw = (AffineDimExpr(i) for i in range(6))
        h, w = window_exprs(self, (oh, ow), (kh, kw))
        return (
            AffineMap(6, 0, (n, c, h, w)),
            AffineMap(6, 0, (c, kh, kw)),
            AffineMap(6, 0, (n, c, oh, ow)),
        )

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return ArrayAttr([IteratorTypeAttr.parallel()] * 4 + [IteratorTypeAttr.reduction()] * 2)


# ---- elementwise named ops ---------------------------------------------------------------


class _ElementwiseOp(ElementwiseOperation):
    """A named elementwise op: identity maps, all-parallel loops, `BODY` on the inputs."""

    BODY: ClassVar[ScalarFn]

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue] = (),
        res: Sequence[Attribute] | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        result_types = res if res is not None else [o.type for o in outputs]
        super().__init__(
            ins=inputs,
            outs=outputs,
            result_types=result_types,
            attributes=attributes,
            hidden_region=self.get_hidden_region(inputs, outputs),
        )

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        arg_types = cls.body_arg_types((*inputs, *outputs))
        n_in = len(inputs)

        @Builder.implicit_region(arg_types)
        def body(args: tuple[BlockArgument, ...]) -> None:
            out_type = args[-1].type
            operands = [cast_scalar(a, out_type) for a in args[:n_in]]
            YieldOp(cls.BODY(operands))

        return body


def _elementwise(op_name: str, body: ScalarFn, doc: str) -> type[_ElementwiseOp]:
    cls = type(
        "".join(p.capitalize() for p in op_name.split("_")) + "Op",
        (_ElementwiseOp,),
        {
            "name": f"linalg.{op_name}",
            "BODY": staticmethod(body),
            "__doc__": doc,
            "__annotations__": {"BODY": ClassVar[ScalarFn]},
        },
    )
    return irdl_op_definition(cls)


DivOp = _elementwise("div", float_or_int(arith.DivfOp, arith.DivSIOp), "`O = A / B`.")
DivUnsignedOp = _elementwise(
    "div_unsigned", float_or_int(arith.DivUIOp, arith.DivUIOp), "`O = A /u B`."
)
AbsOp = _elementwise("abs", float_or_int(math.AbsFOp, math.AbsIOp), "`O = |A|`.")
CeilOp = _elementwise("ceil", float_or_int(math.CeilOp, None), "`O = ceil(A)`.")
FloorOp = _elementwise("floor", float_or_int(math.FloorOp, None), "`O = floor(A)`.")
NegFOp = _elementwise("negf", float_or_int(arith.NegfOp, None), "`O = -A`.")
RoundOp = _elementwise("round", float_or_int(math.RoundOp, None), "`O = round(A)`.")
RsqrtOp = _elementwise("rsqrt", float_or_int(math.RsqrtOp, None), "`O = 1/sqrt(A)`.")
TanhOp = _elementwise("tanh", float_or_int(math.TanhOp, None), "`O = tanh(A)`.")
ErfOp = _elementwise("erf", float_or_int(math.ErfOp, None), "`O = erf(A)`.")
PowFOp = _elementwise("powf", float_or_int(math.PowFOp, None), "`O = A ** B`.")
ReciprocalOp = _elementwise("reciprocal", reciprocal, "`O = 1 / A`.")
SquareOp = _elementwise("square", square, "`O = A * A`.")


# ---- linalg.map --------------------------------------------------------------------------


@irdl_op_definition
class MapOp(IRDLOperation):
    """`linalg.map`: an elementwise op whose body is written out (or named by one op).

    The body takes one argument per input and, last, the init's element (MLIR's current form,
    the only one IREE 3.13 parses); the short form `{ arith.addf }` names an op applied to the
    inputs. xDSL 0.75 has no `linalg.map`."""

    name = "linalg.map"

    inputs = var_operand_def()
    init = operand_def()
    res = var_result_def()
    mapper = region_def("single_block")
    doc = opt_prop_def(Attribute)

    def __init__(self, inputs: Sequence[SSAValue], init: SSAValue, mapper: Region):
        super().__init__(operands=[inputs, init], result_types=[[init.type]], regions=[mapper])

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        rank = len(self.init.type.get_shape())
        return ArrayAttr([AffineMapAttr(AffineMap.identity(rank))] * (len(self.inputs) + 1))

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        rank = len(self.init.type.get_shape())
        return ArrayAttr([IteratorTypeAttr.parallel()] * rank)

    def get_static_loop_ranges(self) -> tuple[int, ...]:
        return tuple(self.init.type.get_shape())

    @property
    def body(self) -> Region:
        """The mapper, under the name every structured op's body has (eager evaluation)."""
        return self.mapper

    def verify_(self) -> None:
        init_type = self.init.type
        if not isinstance(init_type, ShapedType):
            raise VerifyException("linalg.map: init must be a shaped value")
        for value in self.inputs:
            if (
                not isinstance(value.type, ShapedType)
                or value.type.get_shape() != init_type.get_shape()
            ):
                raise VerifyException("linalg.map: inputs must have the init's shape")
        if len(self.mapper.block.args) != len(self.inputs) + 1:
            raise VerifyException(
                "linalg.map: the body takes one argument per input and a last one for the init"
            )

    @classmethod
    def parse(cls, parser: Parser) -> MapOp:
        short_name = None
        if parser.parse_optional_punctuation("{"):
            short_name = parser.parse_identifier()
            parser.parse_punctuation("}")
        ins = parse_operand_group(parser, "ins")
        (init,) = parse_operand_group(parser, "outs")
        if short_name is not None:
            region = _short_form_region(parser, short_name, ins, init)
        else:
            pos = parser.pos
            args = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_argument)
            if len(args) != len(ins) + 1:
                parser.raise_error(
                    f"linalg.map: the body takes {len(ins) + 1} arguments, one per input and "
                    "a last one for the init's element (MLIR's current form)",
                    pos,
                    parser.pos,
                )
            region = parser.parse_region(args)
        return cls(ins, init, region)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ins(")
        printer.print_list(self.inputs, printer.print_ssa_value)
        printer.print_string(" : ")
        printer.print_list(self.inputs.types, printer.print_attribute)
        printer.print_string(") outs(")
        printer.print_ssa_value(self.init)
        printer.print_string(" : ")
        printer.print_attribute(self.init.type)
        printer.print_string(")\n")
        with printer.in_parens():
            printer.print_list(self.mapper.block.args, printer.print_block_argument)
        printer.print_string(" ")
        printer.print_region(self.mapper, print_entry_block_args=False)


def _short_form_region(
    parser: Parser, op_name: str, ins: Sequence[SSAValue], init: SSAValue
) -> Region:
    op_def = parser.ctx.get_optional_op(op_name)
    if op_def is None:
        parser.raise_error(f"linalg.map: unknown op '{op_name}'")
    element_types = [v.type.get_element_type() for v in ins]
    out_type = init.type.get_element_type()

    @Builder.implicit_region([*element_types, out_type])
    def body(args: tuple[BlockArgument, ...]) -> None:
        scalar = op_def.create(operands=list(args[:-1]), result_types=[out_type])
        YieldOp(scalar.results[0])

    return body


EXTRA_OPS: list = [
    BatchMatmulOp,
    MatvecOp,
    VecmatOp,
    BatchMatvecOp,
    DotOp,
    Mmt4DOp,
    DepthwiseConv2DNhwcHwcOp,
    DepthwiseConv2DNchwChwOp,
    *POOLING_OPS,
    *CONV_ND_OPS,
    Conv2DNchwFchwQOp,
    DivOp,
    DivUnsignedOp,
    AbsOp,
    CeilOp,
    FloorOp,
    NegFOp,
    RoundOp,
    RsqrtOp,
    TanhOp,
    ErfOp,
    PowFOp,
    ReciprocalOp,
    SquareOp,
    MapOp,
    ElementwiseOp,
    PackOp,
    UnPackOp,
    SoftmaxOp,
]
"""Named ops xDSL 0.75 lacks, defined here."""

REPLACED_OPS: list = [GenericOp, MatmulOp, PoolingNchwMaxOp, TransposeOp]
"""xDSL ops ireelab redefines (same name, MLIR's syntax or semantics)."""

_replaced = {op.name for op in REPLACED_OPS}

Linalg = Dialect(
    "linalg",
    [
        *(op for op in _XLinalg.operations if op.name not in _replaced),
        *REPLACED_OPS,
        *EXTRA_OPS,
    ],
    [*_XLinalg.attributes, ElementwiseKindAttr],
)
