"""Numpy eager: run an input program op by op with numpy, one materialised array per op.

This is the reference semantics the compiler is checked against (tests compare ireelab's and
the real IREE's results with it) and the "numpy eager" baseline of the benchmarks: it is what a
user would get by writing the program in numpy, with no fusion.

Structured linalg ops (generic and every named op, which all carry indexing maps and a scalar
body) run through one evaluator: contractions become `np.einsum` (BLAS where numpy can), bodies
of the form `out = combine(out, f(ins))` become `f` over the iteration space and a ufunc
reduction, anything else folds sequentially over its reduction points. Windowed accesses
(`d1 + d4` in convolutions and pooling) loop over the small window dimensions.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence

import numpy as np
from xdsl.dialects import func, tensor
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    ShapedType,
)
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.ops import (
    BroadcastOp,
    IndexOp,
    ReduceOp,
    TransposeOp,
    YieldOp,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineDimExpr

from ireelab.dialects import util
from ireelab.dialects.linalg_ext import MapOp


class EagerError(Exception):
    """The program uses something numpy eager does not know how to run."""


def numpy_dtype(t: Attribute) -> np.dtype:
    """The numpy dtype of an MLIR element type."""
    if isinstance(t, ShapedType):
        t = t.get_element_type()
    if isinstance(t, IndexType):
        return np.dtype(np.int64)
    if isinstance(t, IntegerType):
        width = t.width.data
        return np.dtype(np.bool_) if width == 1 else np.dtype(f"int{width}")
    names = {"f16": np.float16, "f32": np.float32, "f64": np.float64, "bf16": None}
    dtype = names.get(str(t))
    if dtype is None:
        raise EagerError(f"element type {t} has no numpy equivalent")
    return np.dtype(dtype)


# ---- scalar / elementwise semantics of arith and math ------------------------------------


# Integers are signless in MLIR: the op says how to read the bits. numpy's signed dtypes give
# the signed reading; unsigned ops read the same bits through the unsigned dtype of that width,
# and an i1 (numpy bool) reads as 0 / 1 unsigned and 0 / -1 signed. Results wrap to the width.


def _unsigned(x) -> np.ndarray:
    x = np.asarray(x)
    if x.dtype == np.bool_:
        return x.astype(np.uint8)
    if x.dtype.kind != "i":
        return x
    return x.view(np.dtype(f"uint{x.dtype.itemsize * 8}"))


def _signed(x) -> np.ndarray:
    x = np.asarray(x)
    return -x.astype(np.int8) if x.dtype == np.bool_ else x


def _wrap_to(value, dtype: np.dtype) -> np.ndarray:
    """`value` as `dtype`, keeping the low bits (an i1 keeps its lowest)."""
    value = np.asarray(value)
    if dtype == np.bool_:
        return (value.astype(np.int64) & 1).astype(np.bool_)
    if value.dtype.kind in "iub" and dtype.kind in "iu":
        return value.astype(dtype.newbyteorder("="), casting="unsafe")
    return value.astype(dtype)


def _integer(f: Callable, reading: Callable = _signed) -> Callable:
    """An integer op computed on a reading of its operands, wrapped back to their type."""

    def run(a, b):
        dtype = np.asarray(a).dtype
        if dtype.kind not in "iub":
            return f(a, b)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return _wrap_to(f(reading(a), reading(b)), dtype)

    return run


def _pick(compare: Callable, reading: Callable) -> Callable:
    """`maxsi` / `minui` ...: the operand that wins `compare` on the given reading."""
    return lambda a, b: np.where(compare(reading(a), reading(b)), a, b)


def _floor_div(a, b):
    return np.floor_divide(a, b)


def _trunc_div(a, b):
    """Division rounding toward zero (`divsi`), without abs() of the minimum integer."""
    q = np.floor_divide(a, b)
    return q + ((q < 0) & (q * b != a))


def _ceil_div(a, b):
    q = np.floor_divide(a, b)
    return q + (q * b != a)


def _trunc_rem(a, b):
    return a - b * _trunc_div(a, b)


_CMPF = {
    "oeq": np.equal, "ueq": np.equal, "ogt": np.greater, "ugt": np.greater,
    "oge": np.greater_equal, "uge": np.greater_equal, "olt": np.less, "ult": np.less,
    "ole": np.less_equal, "ule": np.less_equal, "one": np.not_equal, "une": np.not_equal,
}  # fmt: skip
_CMPI = {
    "eq": np.equal, "ne": np.not_equal, "slt": np.less, "sle": np.less_equal,
    "sgt": np.greater, "sge": np.greater_equal, "ult": np.less, "ule": np.less_equal,
    "ugt": np.greater, "uge": np.greater_equal,
}  # fmt: skip
_CMPI_READING = {"ult": _unsigned, "ule": _unsigned, "ugt": _unsigned, "uge": _unsigned}

_BINARY: dict[str, Callable] = {
    "arith.addf": np.add, "arith.addi": _integer(np.add), "arith.subf": np.subtract,
    "arith.subi": _integer(np.subtract), "arith.mulf": np.multiply,
    "arith.muli": _integer(np.multiply), "arith.divf": np.divide,
    "arith.divsi": _integer(_trunc_div), "arith.divui": _integer(_floor_div, _unsigned),
    "arith.remf": np.fmod, "arith.remsi": _integer(_trunc_rem),
    "arith.remui": _integer(np.remainder, _unsigned), "arith.maximumf": np.maximum,
    "arith.minimumf": np.minimum, "arith.maxnumf": np.fmax, "arith.minnumf": np.fmin,
    "arith.maxsi": _pick(np.greater, _signed), "arith.minsi": _pick(np.less, _signed),
    "arith.maxui": _pick(np.greater, _unsigned), "arith.minui": _pick(np.less, _unsigned),
    "arith.andi": np.bitwise_and, "arith.ori": np.bitwise_or, "arith.xori": np.bitwise_xor,
    "arith.shli": _integer(np.left_shift), "arith.shrsi": _integer(np.right_shift),
    "arith.shrui": _integer(np.right_shift, _unsigned), "math.powf": np.power,
    "math.atan2": np.arctan2, "math.copysign": np.copysign,
    "arith.floordivsi": _integer(_floor_div), "arith.ceildivsi": _integer(_ceil_div),
    "arith.ceildivui": _integer(_ceil_div, _unsigned),
}  # fmt: skip


def _erf(x):
    from scipy.special import erf

    return erf(x).astype(np.asarray(x).dtype)


_UNARY: dict[str, Callable] = {
    "arith.negf": np.negative, "math.exp": np.exp, "math.exp2": np.exp2,
    "math.expm1": np.expm1, "math.log": np.log, "math.log2": np.log2, "math.log10": np.log10,
    "math.log1p": np.log1p, "math.tanh": np.tanh, "math.sqrt": np.sqrt,
    "math.rsqrt": lambda x: 1 / np.sqrt(x), "math.absf": np.abs,
    "math.absi": lambda x: _wrap_to(np.abs(_signed(x)), np.asarray(x).dtype),
    "math.sin": np.sin, "math.cos": np.cos, "math.tan": np.tan, "math.atan": np.arctan,
    "math.floor": np.floor, "math.ceil": np.ceil, "math.round": np.round,
    "math.roundeven": np.rint, "math.trunc": np.trunc, "math.erf": _erf,
    "math.sinh": np.sinh, "math.cosh": np.cosh, "math.asin": np.arcsin, "math.acos": np.arccos,
}  # fmt: skip

_CASTS = {
    "arith.extf", "arith.truncf", "arith.sitofp", "arith.uitofp", "arith.fptosi", "arith.fptoui",
    "arith.extsi", "arith.extui", "arith.trunci", "arith.index_cast", "arith.index_castui",
}  # fmt: skip

_REDUCERS: dict[str, np.ufunc] = {
    "arith.addf": np.add, "arith.addi": np.add, "arith.mulf": np.multiply,
    "arith.muli": np.multiply, "arith.maximumf": np.maximum, "arith.minimumf": np.minimum,
    "arith.maxnumf": np.fmax, "arith.minnumf": np.fmin, "arith.maxsi": np.maximum,
    "arith.minsi": np.minimum, "arith.ori": np.bitwise_or, "arith.andi": np.bitwise_and,
}  # fmt: skip


def _constant(attr: Attribute, result_type: Attribute):
    dtype = numpy_dtype(result_type)
    if isinstance(attr, DenseIntOrFPElementsAttr):
        shape = result_type.get_shape()
        values = [v for v in attr.get_values()]
        data = np.array(values, dtype=dtype)
        return np.broadcast_to(data, shape).copy() if data.size == 1 else data.reshape(shape)
    if isinstance(attr, FloatAttr | IntegerAttr):
        value = attr.value.data
        if isinstance(result_type, ShapedType):
            return np.full(result_type.get_shape(), value, dtype=dtype)
        return dtype.type(value)
    raise EagerError(f"constant {attr} is not supported")


def elementwise(op: Operation, args: list) -> object | None:
    """The numpy value of an arith/math op on numpy operands, or None if it is not one."""
    name = op.name
    if name in _BINARY:
        return _BINARY[name](args[0], args[1])
    if name in _UNARY:
        return _UNARY[name](args[0])
    if name in _CASTS:
        return _cast(name, np.asarray(args[0]), numpy_dtype(op.results[0].type))
    if name == "arith.bitcast":
        return np.asarray(args[0]).view(numpy_dtype(op.results[0].type))
    if name == "arith.cmpf":
        return _cmp(_CMPF, op, args)
    if name == "arith.cmpi":
        return _cmp(_CMPI, op, args)
    if name == "arith.select":
        return np.where(args[0], args[1], args[2])
    if name == "math.fma":
        return args[0] * args[1] + args[2]
    if name == "arith.constant":
        return _constant(op.value, op.results[0].type)
    return None


def _cast(name: str, x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    if name in ("arith.extui", "arith.uitofp", "arith.index_castui"):
        return _unsigned(x).astype(dtype)
    if name in ("arith.extsi", "arith.sitofp", "arith.index_cast"):
        return _signed(x).astype(dtype)
    if name == "arith.trunci":
        return _wrap_to(x, dtype)
    with np.errstate(invalid="ignore", over="ignore"):
        return x.astype(dtype)


def _cmp(table: dict, op: Operation, args: list):
    names = list(table) if table is _CMPI else _CMPF_ORDER
    index = op.predicate.value.data
    pred = names[index]
    if pred == "true":
        return np.ones(np.broadcast(*args).shape, bool)
    if pred == "false":
        return np.zeros(np.broadcast(*args).shape, bool)
    if pred in ("ord", "uno"):
        ordered = ~(np.isnan(args[0]) | np.isnan(args[1]))
        return ordered if pred == "ord" else ~ordered
    if table is _CMPI:
        reading = _CMPI_READING.get(pred, _signed)
        return table[pred](reading(args[0]), reading(args[1]))
    # numpy's comparisons are false on NaN: right for the ordered predicates except `one`
    unordered = np.isnan(args[0]) | np.isnan(args[1])
    with np.errstate(invalid="ignore"):
        holds = table[pred](args[0], args[1])
    if pred == "one":
        return holds & ~unordered
    return holds | unordered if pred.startswith("u") else holds


_CMPF_ORDER = [
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
    "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true",
]  # fmt: skip
_CMPI_ORDER = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
_CMPI = {k: _CMPI[k] for k in _CMPI_ORDER}


# ---- structured ops ------------------------------------------------------------------------


_CAPTURED: dict[SSAValue, object] = {}
"""Values a linalg body uses from outside it (set by `run_function` per op)."""


def _eval_body(block: Block, args: Sequence, index_of: Callable[[int], object]) -> list:
    env: dict[SSAValue, object] = dict(_CAPTURED)
    env.update(zip(block.args, args, strict=True))
    for op in block.ops:
        if isinstance(op, YieldOp):
            return [env[v] for v in op.operands]
        if isinstance(op, IndexOp):
            env[op.results[0]] = index_of(op.dim.value.data)
            continue
        value = elementwise(op, [env[v] for v in op.operands])
        if value is None:
            raise EagerError(f"'{op.name}' in a linalg body is not supported")
        env[op.results[0]] = value
    raise EagerError("linalg body without linalg.yield")


def _dims_of(expr) -> list[int]:
    if isinstance(expr, AffineDimExpr):
        return [expr.position]
    if isinstance(expr, AffineBinaryOpExpr):
        return _dims_of(expr.lhs) + _dims_of(expr.rhs)
    return []


def _eval_expr(expr, dims: dict[int, object]):
    if isinstance(expr, AffineDimExpr):
        return dims[expr.position]
    if isinstance(expr, AffineConstantExpr):
        return expr.value
    if isinstance(expr, AffineBinaryOpExpr):
        lhs, rhs = _eval_expr(expr.lhs, dims), _eval_expr(expr.rhs, dims)
        kind = expr.kind
        if kind == AffineBinaryOpKind.Add:
            return lhs + rhs
        if kind == AffineBinaryOpKind.Mul:
            return lhs * rhs
        if kind == AffineBinaryOpKind.Mod:
            return lhs % rhs
        if kind == AffineBinaryOpKind.FloorDiv:
            return lhs // rhs
        return -(-lhs // rhs)
    raise EagerError(f"affine expression {expr} is not supported")


class _Space:
    """The iteration space left after fixing the looped (window) dimensions."""

    def __init__(self, ranges: Sequence[int], free: Sequence[int]):
        self.ranges = ranges
        self.free = list(free)
        self.shape = tuple(ranges[d] for d in self.free)

    def grid(self, d: int):
        """Index values of loop `d` shaped to broadcast over the free dims."""
        shape = [1] * len(self.free)
        shape[self.free.index(d)] = self.ranges[d]
        return np.arange(self.ranges[d]).reshape(shape)

    def view(self, array: np.ndarray, amap, fixed: dict[int, int]):
        """`array` read through `amap`, laid out over the free dims (broadcastable)."""
        results = amap.results
        if array.ndim == 0 or not results:
            return array
        plain = all(isinstance(e, AffineDimExpr) and e.position not in fixed for e in results)
        if plain:
            order = [e.position for e in results]
            perm = sorted(range(len(order)), key=lambda i: self.free.index(order[i]))
            viewed = array.transpose(perm)
            shape = [1] * len(self.free)
            for i in perm:
                shape[self.free.index(order[i])] = array.shape[i]
            return viewed.reshape(shape)
        dims = {d: self.grid(d) for d in self.free} | fixed
        index = tuple(np.asarray(_eval_expr(e, dims)) for e in results)
        return array[index]


def _reduction_form(block: Block, n_inputs: int) -> tuple[str, SSAValue] | None:
    """`(combiner, x)` when the body yields `combine(out, x)` with x independent of out."""
    if len(block.args) != n_inputs + 1:
        return None
    yield_op = block.last_op
    out_arg = block.args[-1]
    if not isinstance(yield_op, YieldOp) or len(yield_op.operands) != 1:
        return None
    combine = yield_op.operands[0].owner
    if not isinstance(combine, Operation) or combine.name not in _REDUCERS:
        return None
    lhs, rhs = combine.operands
    x = rhs if lhs == out_arg else lhs if rhs == out_arg else None
    if x is None or _depends_on(x, out_arg):
        return None
    return combine.name, x


def _depends_on(value: SSAValue, target: SSAValue) -> bool:
    if value == target:
        return True
    owner = value.owner
    return isinstance(owner, Operation) and any(_depends_on(v, target) for v in owner.operands)


def _contraction(block: Block, n_inputs: int) -> bool:
    """Body is `out + a * b` over the two inputs (the contraction interface's test)."""
    form = _reduction_form(block, n_inputs)
    if form is None or n_inputs != 2 or form[0] not in ("arith.addf", "arith.addi"):
        return False
    mul = form[1].owner
    if not isinstance(mul, Operation) or mul.name not in ("arith.mulf", "arith.muli"):
        return False
    return set(mul.operands) == set(block.args[:2])


def _loop_ranges(static: Sequence[int], maps, arrays: list) -> list[int]:
    """The loop ranges: the op's static ones, and a `?` one read from the first array an
    indexing map sends that loop to directly (the sizes of this call)."""
    ranges = list(static)
    for d, extent in enumerate(ranges):
        if extent >= 0:
            continue
        for amap, array in zip(maps, arrays, strict=True):
            positions = [e.position if isinstance(e, AffineDimExpr) else None for e in amap.results]
            if d in positions:
                ranges[d] = np.shape(array)[positions.index(d)]
                break
    return ranges


def run_structured(op: LinalgStructuredOperation, ins: list, outs: list) -> list[np.ndarray]:
    maps = [m.data for m in op.get_indexing_maps().data]
    iterators = [str(t.data) for t in op.get_iterator_types().data]
    ranges = _loop_ranges(op.get_static_loop_ranges(), maps, [*ins, *outs])
    n = len(ins)
    block = op.body.block
    reductions = [d for d, t in enumerate(iterators) if t == "reduction"]
    looped = _window_dims(maps, reductions, ranges)
    space = _Space(ranges, [d for d in range(len(ranges)) if d not in looped])
    results = [np.array(o, copy=True) for o in outs]
    out_maps = maps[n:]
    red_free = [space.free.index(d) for d in reductions if d not in looped]
    for point in itertools.product(*(range(ranges[d]) for d in looped)):
        fixed = dict(zip(looped, point, strict=True))
        views = [space.view(a, m, fixed) for a, m in zip(ins, maps[:n], strict=True)]
        results = _accumulate(op, block, space, views, results, out_maps, red_free, fixed)
    return results


def _window_dims(maps, reductions: list[int], ranges) -> list[int]:
    """Reduction dims inside compound expressions (`d1 + d4`), to loop over one by one."""
    window: set[int] = set()
    for amap in maps:
        for expr in amap.results:
            dims = _dims_of(expr)
            if len(dims) > 1:
                window.update(d for d in dims if d in reductions)
    looped = sorted(window)
    if math.prod(ranges[d] for d in looped) > 65536:
        return []  # gather over the whole space instead
    return looped


def _to_output(value: np.ndarray, space: _Space, amap, shape) -> np.ndarray:
    """Transpose a value over the parallel free dims into the output's layout."""
    axes = [space.free.index(e.position) for e in amap.results]
    full = np.broadcast_to(value, space.shape) if np.ndim(value) else np.full(space.shape, value)
    keep = sorted(axes)
    others = tuple(i for i in range(len(space.free)) if i not in keep)
    squeezed = full[tuple(0 if i in others else slice(None) for i in range(full.ndim))]
    perm = [keep.index(a) for a in axes]
    return np.transpose(squeezed, perm).reshape(shape)


def _accumulate(op, block, space, views, results, out_maps, red_free, fixed):
    n = len(views)
    if _contraction(block, n) and all(np.ndim(v) == len(space.shape) for v in views):
        (a, sa), (b, sb) = (_einsum_operand(v, space) for v in views)
        spec_out = "".join(_LETTERS[space.free.index(e.position)] for e in out_maps[0].results)
        product = np.einsum(f"{sa},{sb}->{spec_out}", a, b, optimize=True)
        return [(results[0] + product).astype(results[0].dtype)]
    form = _reduction_form(block, n) if len(out_maps) == 1 else None
    if red_free and form is not None:
        combiner, x = form
        value = _eval_value(block, x, views, space, results)
        full = np.broadcast_to(value, space.shape)
        reduced = _REDUCERS[combiner].reduce(full, axis=tuple(red_free), keepdims=True)
        current = _over_space(results[0], space, out_maps[0])
        combined = _REDUCERS[combiner](current, reduced)
        return [_to_output(combined, space, out_maps[0], results[0].shape).astype(results[0].dtype)]
    if red_free:
        return _fold(block, space, views, results, out_maps, red_free)
    outs = [_over_space(r, space, m) for r, m in zip(results, out_maps, strict=True)]
    values = _eval_body(block, [*views, *outs], space.grid)
    return [
        _to_output(np.asarray(v), space, m, r.shape).astype(r.dtype)
        for v, m, r in zip(values, out_maps, results, strict=True)
    ]


_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _einsum_operand(view: np.ndarray, space: _Space) -> tuple[np.ndarray, str]:
    """Drop the broadcast axes of a view; name the rest by their loop dims for einsum."""
    keep = [k for k in range(view.ndim) if view.shape[k] != 1 or space.shape[k] == 1]
    return view.reshape([view.shape[k] for k in keep]), "".join(_LETTERS[k] for k in keep)


def _over_space(result: np.ndarray, space: _Space, amap) -> np.ndarray:
    """An output array laid out over the free dims (size 1 along dims it does not use)."""
    return space.view(result, amap, {})


def _eval_value(block: Block, target: SSAValue, views, space, results):
    env: dict[SSAValue, object] = dict(_CAPTURED)
    env.update(zip(block.args, [*views, None], strict=False))
    for op in block.ops:
        if isinstance(op, YieldOp):
            break
        if isinstance(op, IndexOp):
            env[op.results[0]] = space.grid(op.dim.value.data)
        elif all(v in env and env[v] is not None for v in op.operands):
            env[op.results[0]] = elementwise(op, [env[v] for v in op.operands])
        if target in env and env[target] is not None:
            return env[target]
    return env[target]


def _fold(block, space, views, results, out_maps, red_free):
    """General reductions: walk the reduction points in order, vectorised over the rest."""
    red_sizes = [space.shape[i] for i in red_free]
    outs = [_over_space(r, space, m).copy() for r, m in zip(results, out_maps, strict=True)]
    outs = [np.broadcast_to(o, _keep_shape(space, red_free)).copy() for o in outs]
    for point in itertools.product(*(range(s) for s in red_sizes)):
        sel = [slice(None)] * len(space.shape)
        for axis, i in zip(red_free, point, strict=True):
            sel[axis] = slice(i, i + 1)
        args = [v[tuple(s if v.shape[k] != 1 else slice(None) for k, s in enumerate(sel))]
                for v in views]  # fmt: skip

        def index_of(d, point=point):
            grid = space.grid(d)
            axis = space.free.index(d)
            if axis in red_free:
                return np.full_like(
                    grid[tuple(slice(0, 1) for _ in grid.shape)], point[red_free.index(axis)]
                )
            return grid

        outs = [np.asarray(v) for v in _eval_body(block, [*args, *outs], index_of)]
    return [
        _to_output(o, space, m, r.shape).astype(r.dtype)
        for o, m, r in zip(outs, out_maps, results, strict=True)
    ]


def _keep_shape(space: _Space, red_free: list[int]) -> tuple[int, ...]:
    return tuple(1 if i in red_free else s for i, s in enumerate(space.shape))


# ---- the program ---------------------------------------------------------------------------


def _static_slices(op) -> tuple[slice, ...]:
    offsets = op.static_offsets.get_values()
    sizes = op.static_sizes.get_values()
    strides = op.static_strides.get_values()
    if any(v < -(2**62) for v in (*offsets, *sizes, *strides)):
        raise EagerError(f"'{op.name}' with dynamic offsets, sizes or strides is not supported")
    return tuple(
        slice(o, o + (s - 1) * t + 1, t) for o, s, t in zip(offsets, sizes, strides, strict=True)
    )


def _run_op(op: Operation, args: list, module: ModuleOp) -> list:
    value = elementwise(op, args)
    if value is not None:
        return [value]
    if isinstance(op, MapOp):
        return run_structured(op, args[:-1], args[-1:])
    if isinstance(op, LinalgStructuredOperation) and not isinstance(op, TransposeOp):
        n = len(op.inputs)
        return run_structured(op, args[:n], args[n:])
    if isinstance(op, TransposeOp):
        return [np.transpose(args[0], op.permutation.get_values()).copy()]
    if isinstance(op, BroadcastOp):
        out_shape = op.init.type.get_shape()
        expanded = np.expand_dims(args[0], tuple(op.dimensions.get_values()))
        return [np.broadcast_to(expanded, out_shape).astype(args[1].dtype)]
    if isinstance(op, ReduceOp):
        return [_reduce(op, args[0], args[1])]
    return _run_tensor_op(op, args, module)


def _reduce(op: ReduceOp, x: np.ndarray, init: np.ndarray) -> np.ndarray:
    block = op.region.block
    combine = block.last_op.operands[0].owner
    if not isinstance(combine, Operation) or combine.name not in _REDUCERS:
        raise EagerError("linalg.reduce with a non-elementary combiner is not supported")
    ufunc = _REDUCERS[combine.name]
    return ufunc(init, ufunc.reduce(x, axis=tuple(op.dimensions.get_values()))).astype(init.dtype)


def _run_tensor_op(op: Operation, args: list, module: ModuleOp) -> list:
    result_type = op.results[0].type if op.results else None
    if isinstance(op, tensor.EmptyOp):
        return [np.zeros(result_type.get_shape(), numpy_dtype(result_type))]
    if isinstance(op, tensor.ExtractSliceOp):
        return [args[0][_static_slices(op)].reshape(result_type.get_shape()).copy()]
    if isinstance(op, tensor.InsertSliceOp):
        dest = args[1].copy()
        region = dest[_static_slices(op)]
        region[...] = args[0].reshape(region.shape)
        return [dest]
    if isinstance(op, tensor.CollapseShapeOp | tensor.ExpandShapeOp | tensor.ReshapeOp):
        return [np.reshape(args[0], result_type.get_shape()).copy()]
    if isinstance(op, tensor.ExtractOp):
        return [args[0][tuple(int(i) for i in args[1:])]]
    if isinstance(op, tensor.SplatOp):
        return [np.full(result_type.get_shape(), args[0], numpy_dtype(result_type))]
    if isinstance(op, tensor.PadOp):
        return [_pad(op, args)]
    if op.name == "tensor.concat":
        return [np.concatenate(args, axis=op.dim.value.data)]
    if op.name == "tensor.from_elements":
        return [np.array(args, numpy_dtype(result_type)).reshape(result_type.get_shape())]
    if op.name == "tensor.cast":
        return [args[0]]
    if isinstance(op, func.CallOp | util.CallOp):
        return list(run_function(module, op.callee.root_reference.data, *args))
    raise EagerError(f"'{op.name}' is not supported by numpy eager")


def _pad(op, args) -> np.ndarray:
    low = op.static_low.get_values()
    high = op.static_high.get_values()
    yielded = op.region.block.last_op.operands[0]
    if yielded.owner is op.region.block or not isinstance(yielded.owner, Operation):
        raise EagerError("tensor.pad with a non-constant padding value is not supported")
    outer = {v: a for v, a in zip(op.operands[1:], args[1:], strict=False)}
    pad_value = outer.get(yielded) if yielded in outer else elementwise(yielded.owner, [])
    return np.pad(args[0], list(zip(low, high, strict=True)), constant_values=pad_value)


def _functions(module: ModuleOp) -> dict[str, Operation]:
    return {
        f.sym_name.data: f
        for f in module.body.block.ops
        if isinstance(f, func.FuncOp | util.FuncOp)
    }


def run_function(module: ModuleOp, name: str, *args) -> tuple:
    """Run function `name` of an input-phase `module` on numpy arguments."""
    functions = _functions(module)
    if name not in functions:
        raise EagerError(f"no function '@{name}' in the program")
    f = functions[name]
    block = f.body.block
    env: dict[SSAValue, object] = {}
    for arg, value in zip(block.args, args, strict=True):
        env[arg] = (
            np.asarray(value, dtype=numpy_dtype(arg.type))
            if isinstance(arg.type, ShapedType)
            else value
        )
    for op in block.ops:
        operands = [env[v] for v in op.operands]
        if op.name in ("func.return", "util.return"):
            return tuple(operands)
        _CAPTURED.clear()
        _CAPTURED.update(_captured(op, env))
        values = _run_op(op, operands, module)
        env.update(zip(op.results, values, strict=True))
    raise EagerError(f"function '@{name}' does not return")


def _captured(op: Operation, env: dict) -> dict:
    """Values defined outside `op` that its regions use."""
    if not op.regions:
        return {}
    return {v: env[v] for inner in op.walk() for v in inner.operands if v in env}


def evaluate(source: str, name: str | None = None, *args) -> tuple:
    """Parse `source` and run function `name` (default: the first public one) on `args`."""
    from ireelab.compiler.source import parse_source

    module = parse_source(source, "<eager>")
    if name is None:
        name = next(iter(_functions(module)))
    return run_function(module, name, *args)
