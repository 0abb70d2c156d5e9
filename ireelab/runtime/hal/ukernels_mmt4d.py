"""The f32 mmt4d micro-kernel: register-blocked tiles written as LLVM vector IR.

Mirrors IREE's `iree_uk_mmt4d` tile functions (`runtime/src/iree/builtins/ukernel/arch/x86_64/`,
one per tile shape and ISA): for one `M0 x N0` output tile, the `M0` accumulator
rows live in vector registers across the whole K loop, and each step broadcasts one lhs
element per row and multiply-adds it with one `N0`-wide rhs row (K0 = 1). numba cannot express
registers that live across a loop (its local arrays are heap memory LLVM does not promote: a
plain-loop version ran at 3.5 GFLOP/s here), so the tile loop is built with llvmlite as a
numba intrinsic (`_tile_16x16`, ...): `M0` `<N0 x float>` phis, `llvm.fma` with a splat of the
lhs element, and a prefetch of the rows `PREFETCH_STEPS` ahead. On AVX-512 the 16x16 tile
compiles to 16 `vfmadd231ps zmm, zmm, [mem]{1to16}` per K step.

`_uk_mmt4d_f32_tiles` runs a workgroup's tiles (`out[M1t, N1t, M0, N0]`) in the cache-blocked
order of a GEMM (GotoBLAS / IREE's mmt4d tiling at the cache levels): K in blocks of `KC`, a
block of `N1` tiles whose rhs panel stays in L2, every `M1` row of tiles against it. Measured
single-threaded on 1024^3 (GFLOP/s, medians of interleaved runs on the loaded machine): full K
per tile 54, K blocks of 256 with 16-tile rhs panels 90 (best run 137), OpenBLAS's sgemm 144
(best 145); on one 128 x 256 workgroup tile (8 x 16 tiles, K = 1024) 133.
"""

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

import ireelab.runtime.hal.ukernel_cache  # noqa: F401 (before the first cached kernel)

KC = 256
"""K steps per block: a 16 x 256 f32 lhs panel (16 KiB) stays in L1."""
RHS_PANEL_BYTES = 262144
"""Bytes of rhs tiles reused across the lhs rows of tiles (stays in L2)."""
PREFETCH_STEPS = 16
"""K steps ahead that each step prefetches the lhs and rhs rows of (1 KiB ahead for 16 x 16
tiles): on one 128 x 256 workgroup tile, K = 1024, median 104 -> 126 GFLOP/s (best 120 -> 150)
in interleaved runs."""
TILES = ((16, 16), (8, 8), (8, 4))
"""(M0, N0) of the tiles `MaterializeHomogeneousEncodingsPass` picks for f32 (AVX-512, AVX,
other targets); each has its own intrinsic."""


def _tile_codegen(m0: int, n0: int):
    """LLVM IR of `c (+)= a^T b` on one tile: a (K x M0), b (K x N0), c (M0 x N0), all
    row-major and contiguous, given as addresses; `accumulate` 0 overwrites c."""

    def codegen(context, builder, signature, args):
        a_addr, b_addr, c_addr, k_count, accumulate = args
        index = k_count.type
        f32 = ir.FloatType()
        vector = ir.VectorType(f32, n0)
        name = f"llvm.fma.v{n0}f32"
        fma = builder.module.globals.get(name) or ir.Function(
            builder.module, ir.FunctionType(vector, [vector] * 3), name
        )
        byte = ir.IntType(8)
        prefetch = builder.module.globals.get("llvm.prefetch.p0") or ir.Function(
            builder.module,
            ir.FunctionType(ir.VoidType(), [byte.as_pointer(), *[ir.IntType(32)] * 3]),
            "llvm.prefetch.p0",
        )
        # read, highest locality, data cache (a hint: never faults, also past the end)
        prefetch_args = [ir.Constant(ir.IntType(32), v) for v in (0, 3, 1)]
        a_ptr = builder.inttoptr(a_addr, f32.as_pointer())
        b_ptr = builder.inttoptr(b_addr, f32.as_pointer())
        c_ptr = builder.inttoptr(c_addr, f32.as_pointer())

        def row(i: int):
            offset = ir.Constant(index, i * n0)
            return builder.bitcast(builder.gep(c_ptr, [offset]), vector.as_pointer())

        zero = ir.Constant(vector, [0.0] * n0)
        keep = builder.icmp_signed("!=", accumulate, ir.Constant(accumulate.type, 0))
        initial = [builder.select(keep, builder.load(row(i), align=4), zero) for i in range(m0)]
        entry = builder.block
        head = builder.append_basic_block("uk_mmt4d_k")
        body = builder.append_basic_block("uk_mmt4d_step")
        done = builder.append_basic_block("uk_mmt4d_done")
        builder.branch(head)

        builder.position_at_end(head)
        k = builder.phi(index)
        k.add_incoming(ir.Constant(index, 0), entry)
        accumulators = []
        for value in initial:
            phi = builder.phi(vector)
            phi.add_incoming(value, entry)
            accumulators.append(phi)
        builder.cbranch(builder.icmp_signed("<", k, k_count), body, done)

        builder.position_at_end(body)
        ahead = builder.add(k, ir.Constant(index, PREFETCH_STEPS))
        for base, width in ((a_ptr, m0), (b_ptr, n0)):
            target = builder.gep(base, [builder.mul(ahead, ir.Constant(index, width))])
            builder.call(prefetch, [builder.bitcast(target, byte.as_pointer()), *prefetch_args])
        b_row = builder.gep(b_ptr, [builder.mul(k, ir.Constant(index, n0))])
        b_vector = builder.load(builder.bitcast(b_row, vector.as_pointer()), align=4)
        a_row = builder.mul(k, ir.Constant(index, m0))
        undefined = ir.Constant(vector, ir.Undefined)
        lane0 = ir.Constant(ir.IntType(32), 0)
        splat_mask = ir.Constant(ir.VectorType(ir.IntType(32), n0), [0] * n0)
        updated = []
        for i, phi in enumerate(accumulators):
            a_i = builder.load(builder.gep(a_ptr, [builder.add(a_row, ir.Constant(index, i))]))
            lanes = builder.insert_element(undefined, a_i, lane0)
            splat = builder.shuffle_vector(lanes, undefined, splat_mask)
            updated.append(builder.call(fma, [splat, b_vector, phi]))
        k.add_incoming(builder.add(k, ir.Constant(index, 1)), builder.block)
        for phi, value in zip(accumulators, updated, strict=True):
            phi.add_incoming(value, builder.block)
        builder.branch(head)

        builder.position_at_end(done)
        for i, phi in enumerate(accumulators):
            builder.store(phi, row(i), align=4)
        return context.get_dummy_value()

    return codegen


def _tile_intrinsic(m0: int, n0: int):
    def typer(typingctx, a, b, c, k, accumulate):
        signature = types.void(types.intp, types.intp, types.intp, types.intp, types.intp)
        return signature, _tile_codegen(m0, n0)

    typer.__name__ = f"_tile_{m0}x{n0}"
    return intrinsic(typer)


_tile_16x16 = _tile_intrinsic(16, 16)
_tile_8x8 = _tile_intrinsic(8, 8)
_tile_8x4 = _tile_intrinsic(8, 4)


@numba.njit(nogil=True, cache=True, inline="always")
def _tile(m0, n0, a, b, c, k, accumulate):
    if m0 == 16 and n0 == 16:
        _tile_16x16(a, b, c, k, accumulate)
    elif m0 == 8 and n0 == 8:
        _tile_8x8(a, b, c, k, accumulate)
    else:
        _tile_8x4(a, b, c, k, accumulate)


@numba.njit(nogil=True, cache=True)
def _uk_mmt4d_f32_supported(lhs, rhs, out):
    # f32 tiles of a TILES shape, K0 = 1, each operand tile contiguous (row-major inner dims)
    m0, n0 = out.shape[2], out.shape[3]
    shape_ok = False
    for tile_m0, tile_n0 in TILES:
        if m0 == tile_m0 and n0 == tile_n0:
            shape_ok = True
    if not shape_ok or lhs.shape[3] != 1 or rhs.shape[3] != 1 or out.itemsize != 4:
        return False
    size = out.itemsize
    lhs_ok = lhs.shape[1] <= 1 or lhs.strides[1] == m0 * size
    lhs_ok = lhs_ok and (m0 == 1 or lhs.strides[2] == size)
    rhs_ok = rhs.shape[1] <= 1 or rhs.strides[1] == n0 * size
    rhs_ok = rhs_ok and (n0 == 1 or rhs.strides[2] == size)
    return lhs_ok and rhs_ok and out.strides[3] == size and out.strides[2] == n0 * size


@numba.njit(nogil=True, cache=True)
def _uk_mmt4d_f32_tiles(lhs, rhs, out, accumulate):
    # out[M1, N1, m0, n0] (+)= sum over k of lhs[M1, k, m0, 0] * rhs[N1, k, n0, 0], cache-blocked
    m1_count, n1_count, m0, n0 = out.shape
    k_count = lhs.shape[1]
    size = out.itemsize
    if k_count == 0:
        if not accumulate:
            out[:, :, :, :] = 0
        return
    # addresses as signed integers (numba's uint64 + int64 would be a float)
    a_base, b_base = np.intp(lhs.ctypes.data), np.intp(rhs.ctypes.data)
    c_base = np.intp(out.ctypes.data)
    panel = max(1, RHS_PANEL_BYTES // (KC * n0 * size))
    for n1_start in range(0, n1_count, panel):
        n1_end = min(n1_start + panel, n1_count)
        for k_start in range(0, k_count, KC):
            steps = min(KC, k_count - k_start)
            keep = 1 if accumulate or k_start > 0 else 0
            for m1 in range(m1_count):
                a = a_base + m1 * lhs.strides[0] + k_start * m0 * size
                for n1 in range(n1_start, n1_end):
                    b = b_base + n1 * rhs.strides[0] + k_start * n0 * size
                    c = c_base + m1 * out.strides[0] + n1 * out.strides[1]
                    _tile(m0, n0, a, b, c, steps, keep)
