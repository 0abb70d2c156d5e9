"""`iree_linalg_ext.winograd.input_transform` / `output_transform` on buffers -> loops.

Part of `LinalgExtToLoopsPass`. IREE decomposes these ops (`DecomposeWinograd.cpp`) into
small matmuls with the F(6x6, 3x3) matrices of `LinalgExt/Utils/WinogradConstants.h`; the
matrices below are those numbers (facts of the algorithm). Per tile:

    input:  tiles[:, :, n, th, tw, c] = B^T d B,  d = image[n, 6 th + i, 6 tw + j, c]
            (8x8, zero past the image's edge)
    output: image[n, 6 th + i, 6 tw + j, f] = (A^T m A)[i, j],  m = tiles[:, :, n, th, tw, f]
            (6x6, only where it lies inside the image)

Each product is two loop nests through an 8x8 scratch buffer; the matrices are constant
buffers. Out-of-image reads load a clamped index and select 0, so nothing reads out of bounds.
"""

from __future__ import annotations

from xdsl.dialects import arith, bufferization, memref
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    Float32Type,
    FloatAttr,
    MemRefType,
    TensorType,
    UnitAttr,
    f32,
)
from xdsl.ir import SSAValue

from ireelab.compiler.codegen.loop_builder import Index, LoopBuilder, close, finish_nest, reduce
from ireelab.diagnostics import CompileError
from ireelab.dialects import iree_linalg_ext as ext

_BT = (
    (1, 0, -21 / 4, 0, 21 / 4, 0, -1, 0),
    (0, 1, 1, -17 / 4, -17 / 4, 1, 1, 0),
    (0, -1, 1, 17 / 4, -17 / 4, -1, 1, 0),
    (0, 1 / 2, 1 / 4, -5 / 2, -5 / 4, 2, 1, 0),
    (0, -1 / 2, 1 / 4, 5 / 2, -5 / 4, -2, 1, 0),
    (0, 2, 4, -5 / 2, -5, 1 / 2, 1, 0),
    (0, -2, 4, 5 / 2, -5, -1 / 2, 1, 0),
    (0, -1, 0, 21 / 4, 0, -21 / 4, 0, 1),
)
"""B^T of F(6x6, 3x3), 8x8 (B is its transpose)."""

_AT = (
    (1, 1, 1, 1, 1, 1, 1, 0),
    (0, 1, -1, 2, -2, 1 / 2, -1 / 2, 0),
    (0, 1, 1, 4, 4, 1 / 4, 1 / 4, 0),
    (0, 1, -1, 8, -8, 1 / 8, -1 / 8, 0),
    (0, 1, 1, 16, 16, 1 / 16, 1 / 16, 0),
    (0, 1, -1, 32, -32, 1 / 32, -1 / 32, 1),
)
"""A^T of F(6x6, 3x3), 6x8 (A is its transpose)."""


def _matrix(builder: LoopBuilder, rows: tuple[tuple[float, ...], ...]) -> SSAValue:
    """A constant f32 matrix as a read-only buffer (`bufferization.to_buffer` of a constant)."""
    shape = [len(rows), len(rows[0])]
    values = [float(v) for row in rows for v in row]
    dense = DenseIntOrFPElementsAttr.from_list(TensorType(f32, shape), values)
    constant = builder.insert(arith.ConstantOp(dense))
    to_buffer = bufferization.ToBufferOp(
        operands=[constant],
        result_types=[MemRefType(f32, shape)],
        properties={"read_only": UnitAttr()},
    )
    return builder.insert(to_buffer)


def _image_index(op: ext.WinogradTransformOp, n: Index, h: Index, w: Index, c: Index):
    """An image element's indices in the op's layout (NHWC or NCHW)."""
    if list(op.image_dimensions.get_values()) == [1, 2]:
        return [n, h, w, c]
    return [n, c, h, w]


def _image_hw(op: ext.WinogradTransformOp) -> tuple[int, int]:
    shape = op.image().type.get_shape()
    first, second = op.image_dimensions.get_values()
    return shape[first], shape[second]


def _product(builder: LoopBuilder, extents: tuple[int, int], element):
    """A nest over `extents` computing `sum_k element(b, i, j, k)` for k < 8; returns the
    counters, the innermost builder and the sum (the caller stores it, then finishes)."""
    (i, j), inner = builder.nest(extents)

    def step(counters, b: LoopBuilder, partial):
        (k,) = counters
        return [b.insert(arith.AddfOp(partial[0], element(b, i, j, k)))]

    zero = inner.insert(arith.ConstantOp(FloatAttr(0.0, f32)))
    (total,) = reduce(inner, [8], [zero], step)
    return (i, j), inner, total


def _into_scratch(builder: LoopBuilder, extents: tuple[int, int], element, scratch) -> None:
    (i, j), inner, total = _product(builder, extents, element)
    inner.store(total, scratch, [i, j])
    finish_nest([i, j])


def _mul(b: LoopBuilder, x: SSAValue, y: SSAValue) -> SSAValue:
    return b.insert(arith.MulfOp(x, y))


def _check(op: ext.WinogradTransformOp) -> None:
    if op.output_tile_size.value.data != 6 or op.kernel_size.value.data != 3:
        raise CompileError.at(op, f"'{op.name}' supports F(6x6, 3x3) only", stage="codegen")
    element = op.image().type.get_element_type()
    if not isinstance(element, Float32Type):
        raise CompileError.at(
            op, f"'{op.name}' on {element} is not supported (f32 only)", stage="codegen"
        )


def lower_input_transform(op: ext.WinogradInputTransformOp, builder: LoopBuilder) -> None:
    _check(op)
    bt = _matrix(builder, _BT)
    scratch = builder.insert(memref.AllocaOp.get(f32, shape=[8, 8]))
    height, width = _image_hw(op)
    tiles = op.output.type.get_shape()
    (n, th, tw, c), tile = builder.nest(tiles[2:])
    top, left = tile.mul(th, 6), tile.mul(tw, 6)

    def padded(b: LoopBuilder, row: Index, column: Index) -> SSAValue:
        """The image element at (row, column) of the tile, 0 past the edge."""
        h, w = b.value(b.add(top, row)), b.value(b.add(left, column))
        inside_h = b.insert(arith.CmpiOp(h, b.value(height), "slt"))
        inside_w = b.insert(arith.CmpiOp(w, b.value(width), "slt"))
        clamped_h = b.insert(arith.MinSIOp(h, b.value(height - 1)))
        clamped_w = b.insert(arith.MinSIOp(w, b.value(width - 1)))
        value = b.load(op.input, _image_index(op, n, clamped_h, clamped_w, c))
        zero = b.insert(arith.ConstantOp(FloatAttr(0.0, f32)))
        return b.select(b.insert(arith.AndIOp(inside_h, inside_w)), value, zero)

    # scratch = B^T d, then tiles[i, j] = (scratch B)[i, j] = sum_k scratch[i, k] BT[j, k]
    _into_scratch(
        tile, (8, 8), lambda b, i, j, k: _mul(b, b.load(bt, [i, k]), padded(b, k, j)), scratch
    )
    (i, j), inner, total = _product(
        tile, (8, 8), lambda b, i, j, k: _mul(b, b.load(scratch, [i, k]), b.load(bt, [j, k]))
    )
    inner.store(total, op.output, [i, j, n, th, tw, c])
    finish_nest([i, j])
    finish_nest([n, th, tw, c])


def lower_output_transform(op: ext.WinogradOutputTransformOp, builder: LoopBuilder) -> None:
    _check(op)
    at = _matrix(builder, _AT)
    scratch = builder.insert(memref.AllocaOp.get(f32, shape=[6, 8]))
    height, width = _image_hw(op)
    tiles = op.input.type.get_shape()
    (n, th, tw, f), tile = builder.nest(tiles[2:])
    # scratch = A^T m (6x8), then image tile = (scratch A)[i, j] = sum_k scratch[i, k] AT[j, k]
    _into_scratch(
        tile,
        (6, 8),
        lambda b, i, j, k: _mul(b, b.load(at, [i, k]), b.load(op.input, [k, j, n, th, tw, f])),
        scratch,
    )
    (i, j), inner, total = _product(
        tile, (6, 6), lambda b, i, j, k: _mul(b, b.load(scratch, [i, k]), b.load(at, [j, k]))
    )
    h = inner.value(inner.add(inner.mul(th, 6), i))
    w = inner.value(inner.add(inner.mul(tw, 6), j))
    inside = inner.insert(
        arith.AndIOp(
            inner.insert(arith.CmpiOp(h, inner.value(height), "slt")),
            inner.insert(arith.CmpiOp(w, inner.value(width), "slt")),
        )
    )
    guarded = inner.guarded(inside)
    guarded.store(total, op.output, _image_index(op, n, h, w, f))
    close(guarded)
    finish_nest([i, j])
    finish_nest([n, th, tw, f])
