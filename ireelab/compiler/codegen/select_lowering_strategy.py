"""`LLVMCPUSelectLoweringStrategyPass` (`iree-llvmcpu-select-lowering-strategy`).

As in IREE (`Codegen/LLVMCPU/KernelDispatch.cpp`), each export function gets a root op, the op
whose iteration space decides the tiling: the last op with a reduction loop (contraction,
convolution, reduction), otherwise the last non-fill linalg op. Its kind picks the pipeline
(`ConvTileAndDecomposeExpert` for convolutions, `DoubleTilingExpert` otherwise) and the
workgroup tile sizes, written as the `distribution` level of `#iree_cpu.lowering_config` on the
root op; the function gets `#iree_codegen.translation_info`.

Tile sizes: the innermost parallel dims of the result get a target size (64 by 64 for
contractions, elementwise ops and transposes, 128 rows by 256 columns for contractions the GEMM
micro-kernel runs (`CPULowerToUKernelsPass`), 128 x 256 of whole tiles for `linalg.mmt4d`; 8 x 64
for convolutions; 32 rows for reductions;
4096 for 1-D elementwise), outer parallel dims 1, reduction dims 0 (not distributed). A static
extent gets the largest divisor of it that fits the target, where IREE would peel or mask a
partial last tile; a `?` extent gets the target itself, and its last workgroup computes the
remainder (`min(tile, size - offset)`, `TileAndDistributeToWorkgroupsPass`). A dispatch that
stores a packed sub-byte tensor (i2, i4, f4E2M1FN) is not distributed: its stores rewrite
whole bytes (`packed_access.py`), and two workgroups must never share one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import DYNAMIC_INDEX, ModuleOp, ShapedType
from xdsl.dialects.linalg import ops as linalg_ops
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.ir import Operation
from xdsl.ir.affine import AffineDimExpr
from xdsl.passes import ModulePass

from ireelab.compiler.codegen.contraction import match_gemm
from ireelab.compiler.codegen.convolution import NHWC_HWCF, match_conv, match_depthwise
from ireelab.compiler.codegen.cpu_lower_to_ukernels import ukernels_enabled
from ireelab.compiler.codegen.executables import export_sites
from ireelab.dialects.iree_codegen import LOWERING_CONFIG, TRANSLATION_INFO, TranslationInfoAttr
from ireelab.dialects.iree_cpu import CPUPipeline, LoweringConfigAttr
from ireelab.dialects.iree_linalg_ext import LinalgExtOp
from ireelab.dialects.linalg_ext import Mmt4DOp
from ireelab.dialects.linalg_pack import PackOp, UnPackOp
from ireelab.schemas import packed_storage


class DispatchKind(StrEnum):
    contraction = "contraction"
    convolution = "convolution"
    reduction = "reduction"
    transpose = "transpose"
    elementwise = "elementwise"
    pack = "pack"
    """A `linalg.pack` / `linalg.unpack` with no linalg op to lead: IREE's `CPUDataTiling`."""


_TARGETS: dict[DispatchKind, tuple[int, ...]] = {
    # innermost result dim first
    DispatchKind.contraction: (64, 64),
    DispatchKind.convolution: (64, 8),
    DispatchKind.reduction: (32,),
    DispatchKind.transpose: (64, 64),
    DispatchKind.elementwise: (64, 64),
}
_TARGET_1D_ELEMENTWISE = 4096
_TARGET_GEMM_UKERNEL = (256, 128)
"""Contractions run by the GEMM micro-kernel: large tiles, because BLAS packs both operand
panels on every call and its inner kernel runs best on long panels (single-thread CPU time per
call, 512^3 and 1024^3 matmuls: 64 x 256 tiles 9% slower than 128 x 256, 256 x 512 only 6%
faster still); 128 x 256 keeps at least two workgroups per core on 512-wide matmuls with two
cores."""


def _linalg_ops(function: func.FuncOp) -> list[LinalgStructuredOperation]:
    return [op for op in function.body.block.ops if isinstance(op, LinalgStructuredOperation)]


def _has_reduction(op: LinalgStructuredOperation) -> bool:
    return any(it.data == IteratorType.REDUCTION for it in op.get_iterator_types())


def find_root(function: func.FuncOp) -> LinalgStructuredOperation | None:
    ops = _linalg_ops(function)
    for candidates in (
        [op for op in ops if _has_reduction(op)],
        [op for op in ops if not isinstance(op, linalg_ops.FillOp)],
        ops,
    ):
        if candidates:
            return candidates[-1]
    return None


def _is_multiply_accumulate(op: LinalgStructuredOperation) -> bool:
    names = {o.name for o in op.body.block.ops}
    multiplies = names & {"arith.mulf", "arith.muli"}
    adds = names & {"arith.addf", "arith.addi"}
    return bool(multiplies and adds)


def classify(op: LinalgStructuredOperation) -> DispatchKind:
    maps = [m.data for m in op.get_indexing_maps()]
    input_maps = maps[: len(op.inputs)]
    windowed = any(not isinstance(e, AffineDimExpr) for m in input_maps for e in m.results)
    if _has_reduction(op):
        if windowed:
            return DispatchKind.convolution
        shaped_inputs = [v for v in op.inputs if isinstance(v.type, ShapedType)]
        if len(shaped_inputs) >= 2 and _is_multiply_accumulate(op):
            return DispatchKind.contraction
        return DispatchKind.reduction
    for indexing in input_maps:
        positions = [e.position for e in indexing.results if isinstance(e, AffineDimExpr)]
        if positions != sorted(positions):
            return DispatchKind.transpose
    return DispatchKind.elementwise


_TARGET_CONV_UKERNEL = {"ow": 512, "f": 256}
"""Convolutions run by the convolution micro-kernels: tile sizes per output loop role."""
_TARGET_CONV_PIXELS = 512
"""Output pixels per workgroup tile (whole rows, at least 2): the im2col and 1x1 GEMMs take a
block of rows as one M dimension, and a depthwise tile's loop overhead is per row."""
_MIN_CONV_ROW_TILES = 4
"""Row tiles at least (when the rows allow): two per core of this 2-core machine."""
IM2COL_MAX_CHANNELS = 31
"""NHWC convolutions with at most this many input channels run as im2col + GEMM in the
micro-kernel (`runtime/hal/ukernels.py` has the same constant): they keep 2-row tiles, whose
im2col block stays in L1 (SqueezeNet's 16 -> 64 3x3 expand: 0.61-0.72 ms with 2-row tiles
against 0.79-0.89 with 5-row ones, single- and two-threaded)."""


def _conv_ukernel_tiles(op: LinalgStructuredOperation) -> list[int] | None:
    dims = match_conv(op) or match_depthwise(op)
    if dims is None:
        return None
    extents = op.get_static_loop_ranges()
    tiles = [0] * len(extents)
    if dims.batch is not None:
        tiles[dims.batch] = 1
    for role, target in _TARGET_CONV_UKERNEL.items():
        dim = getattr(dims, role)
        tiles[dim] = largest_divisor_at_most(extents[dim], target)
    rows = max(2, _TARGET_CONV_PIXELS // tiles[dims.ow])
    if extents[dims.ow] == DYNAMIC_INDEX:
        rows = _DYNAMIC_CONV_ROWS
    if dims.layout == NHWC_HWCF and extents[dims.c] <= IM2COL_MAX_CHANNELS:
        rows = 2
    if extents[dims.oh] != DYNAMIC_INDEX:
        rows = min(rows, max(1, extents[dims.oh] // _MIN_CONV_ROW_TILES))
    tiles[dims.oh] = largest_divisor_at_most(extents[dims.oh], rows)
    return tiles


_DYNAMIC_CONV_ROWS = 4
"""Output rows per workgroup tile of a convolution over a `?` width (its row length known at
dispatch time only): the rows of a `?` height are cut in tiles of this many (or of
`_TARGET_CONV_PIXELS / width` for a static width), the last one the remainder."""


_TARGET_MMT4D_UKERNEL = (128, 256)
"""Rows x columns of the output per workgroup for `linalg.mmt4d` run by `iree_uk_mmt4d`: whole
`M0 x N0` tiles, as many as fit (8 x 16 of 16 x 16). The micro-kernel blocks K and reuses
a panel of rhs tiles across the rows of tiles inside a workgroup; one tile per workgroup
(IREE's first-level tile for mmt4d without ukernels) re-read the whole rhs from L3 for every
row of tiles (1024^3, one thread: 54 GFLOP/s against 133 with 128 x 256 workgroups)."""


def _mmt4d_ukernel_tiles(op: Mmt4DOp) -> list[int]:
    m1, n1, _, m0, n0, _ = op.get_static_loop_ranges()
    rows, columns = _TARGET_MMT4D_UKERNEL
    return [
        largest_divisor_at_most(m1, max(1, rows // m0)),
        largest_divisor_at_most(n1, max(1, columns // n0)),
        0,
        m0,
        n0,
        0,
    ]


def largest_divisor_at_most(extent: int, target: int) -> int:
    """The tile for `extent`: its largest divisor up to `target`, or `target` when `extent`
    is `?` (known at dispatch time only)."""
    if extent == DYNAMIC_INDEX:
        return target
    for size in range(min(extent, target), 0, -1):
        if extent % size == 0:
            return size
    return 1


def distribution_tiles(
    op: LinalgStructuredOperation, kind: DispatchKind, ukernels: bool = False
) -> list[int]:
    """Workgroup tile size per loop of `op` (0: not distributed)."""
    if kind == DispatchKind.convolution and ukernels:
        conv_tiles = _conv_ukernel_tiles(op)
        if conv_tiles is not None:
            return conv_tiles
    if isinstance(op, Mmt4DOp) and ukernels and DYNAMIC_INDEX not in op.get_static_loop_ranges():
        return _mmt4d_ukernel_tiles(op)
    extents = op.get_static_loop_ranges()
    tiles = [0] * len(extents)
    output_map = op.get_indexing_maps().data[len(op.inputs)].data
    result_loops = [e.position for e in output_map.results if isinstance(e, AffineDimExpr)]
    parallel = [
        d for d in result_loops if op.get_iterator_types().data[d].data == IteratorType.PARALLEL
    ]
    targets = _TARGETS[kind]
    gemm = match_gemm(op) if kind == DispatchKind.contraction and ukernels else None
    if gemm is not None:
        targets = _TARGET_GEMM_UKERNEL
    if kind == DispatchKind.elementwise and len(parallel) == 1:
        targets = (_TARGET_1D_ELEMENTWISE,)
    for position, dim in enumerate(reversed(parallel)):
        target = targets[position] if position < len(targets) else 1
        tiles[dim] = largest_divisor_at_most(extents[dim], target)
    if kind == DispatchKind.elementwise:
        _tile_rows_as_collapsed(tiles, extents, parallel)
    if gemm is not None:
        _grow_short_gemm_rows(tiles, extents, gemm.m, gemm.n, gemm.k)
    return tiles


_MIN_GEMM_MACS = 4 * 2**20
"""Multiply-adds a BLAS workgroup should have at least: a call also packs its operand panels
and sets itself up, which a short K amortises badly. Attention's Q K^T (512 x 512, K = 64),
one thread's CPU time for the whole product: 128 x 256 tiles 340 us, 256 x 256 298, 256 x 512
277 (one call, 274); its P V (K = 512) at 128 x 64: 278 against 260-273 for 2 and 1 calls."""
_MIN_GEMM_WORKGROUPS = 4
"""Workgroups kept at least when the rows grow (two per core here)."""


def _grow_short_gemm_rows(tiles: list[int], extents: list[int], m: int, n: int, k: int) -> None:
    """Double the M tile of a GEMM workgroup while it has fewer than `_MIN_GEMM_MACS`
    multiply-adds and the grid stays at `_MIN_GEMM_WORKGROUPS` or more."""
    if DYNAMIC_INDEX in (extents[m], extents[n], extents[k]) or tiles[m] == 0 or tiles[n] == 0:
        return
    others = math.prod(extents[d] // t for d, t in enumerate(tiles) if t and d != m)
    while tiles[m] * tiles[n] * extents[k] < _MIN_GEMM_MACS:
        grown = tiles[m] * 2
        if extents[m] % grown or (extents[m] // grown) * others < _MIN_GEMM_WORKGROUPS:
            return
        tiles[m] = grown


def _tile_rows_as_collapsed(tiles: list[int], extents: list[int], parallel: list[int]) -> None:
    """An elementwise op over `?xN` (static inner dims, each a whole tile): IREE's
    CollapseDimensionsPass makes it 1-D (`_D_f32`) and tiles that by 4096 elements. ireelab
    does not collapse `?` dims yet, so the rows get the tile covering as many elements, the
    same work per workgroup (64 rows of 4 would be 256 elements: 16x the workgroups)."""
    if len(parallel) < 2 or extents[parallel[0]] != DYNAMIC_INDEX:
        return
    inner = parallel[1:]
    if any(extents[d] == DYNAMIC_INDEX or tiles[d] != extents[d] for d in inner):
        return
    tiles[parallel[0]] = max(1, _TARGET_1D_ELEMENTWISE // math.prod(extents[d] for d in inner))


_TARGET_PACK_ROWS = 64
"""Elements of the unpacked tensor per workgroup tile along a distributed dim of a pack or
unpack dispatch: 64 rows of a 512 x 64 operand are 16 KiB, eight workgroups where the whole
pack ran as one."""
_MIN_PACK_WORKGROUPS = 4
"""The second dim is cut too when the first gives fewer workgroups (two per core here)."""


def packing_tiles(op: PackOp | UnPackOp) -> list[int]:
    """Workgroup tiles of a pack's packed result (its outer dims; inner tiles whole) or of an
    unpack's unpacked result (rounded to whole packed tiles by the distribution). The dim
    that is the unpacked tensor's outer one is cut first, so a workgroup copies whole rows of
    it (a contiguous slice); the next only when that leaves fewer than
    `_MIN_PACK_WORKGROUPS`."""
    tiles = op.tiles()
    unpacked = op.unpacked_type().get_shape()
    # unpacked dim of each iteration dim; a padded dim is not cut (`packing_regions.py`)
    dims = list(range(len(unpacked))) if isinstance(op, UnPackOp) else op.outer_perm()
    result = [0] * len(dims)
    workgroups = 1
    # the unpacked tensor's outer dim first: whole rows of it per workgroup
    for position, d in sorted(enumerate(dims), key=lambda pair: pair[1]):
        if workgroups >= _MIN_PACK_WORKGROUPS:
            break
        if unpacked[d] % tiles.get(d, 1):
            continue
        extent = op.packed_type().get_shape()[position] if isinstance(op, PackOp) else unpacked[d]
        unit = tiles.get(d, 1) if isinstance(op, PackOp) else 1
        result[position] = largest_divisor_at_most(extent, max(1, _TARGET_PACK_ROWS // unit))
        workgroups *= extent // result[position]
    if isinstance(op, PackOp):
        result += [0] * len(tiles)
    return result


def _packing_root(function: func.FuncOp) -> PackOp | UnPackOp | None:
    ops = [op for op in function.body.block.ops if isinstance(op, PackOp | UnPackOp)]
    return ops[-1] if ops else None


def _pipeline(kind: DispatchKind | None) -> CPUPipeline:
    if kind is None:
        return CPUPipeline.Default
    if kind == DispatchKind.convolution:
        return CPUPipeline.ConvTileAndDecomposeExpert
    if kind == DispatchKind.pack:
        return CPUPipeline.CPUDataTiling
    return CPUPipeline.DoubleTilingExpert


def select_strategy(function: func.FuncOp, ukernels: bool = False) -> DispatchKind | None:
    # An iree_linalg_ext op is its dispatch's root; numba-cpu runs it as one workgroup
    # (IREE distributes its parallel loops), so nothing is configured for tiling.
    if any(isinstance(o, LinalgExtOp) for o in function.walk()):
        function.attributes[TRANSLATION_INFO] = TranslationInfoAttr(_pipeline(None))
        return None
    root = find_root(function)
    kind = classify(root) if root is not None else None
    tiles = distribution_tiles(root, kind, ukernels) if root is not None else None
    # a pack or unpack leads unless a contraction or reduction does (IREE's root op order)
    leads = root is None or _is_fill(root) or kind == DispatchKind.elementwise
    packing = _packing_root(function) if leads else None
    if packing is not None:
        root, kind, tiles = packing, DispatchKind.pack, packing_tiles(packing)
    if root is not None:
        if _writes_packed_elements(function):
            tiles = [0] * len(tiles)  # one workgroup: no two threads share a packed byte
        root.attributes[LOWERING_CONFIG] = LoweringConfigAttr({"distribution": tiles})
    function.attributes[TRANSLATION_INFO] = TranslationInfoAttr(_pipeline(kind))
    return kind


def _is_fill(op: Operation) -> bool:
    return isinstance(op, linalg_ops.FillOp)


def _writes_packed_elements(function: func.FuncOp) -> bool:
    """Whether the dispatch stores a tensor of a packed sub-byte type (IREE distributes
    such stores at byte granularity; numba-cpu runs them as one workgroup)."""
    return any(
        op.name == "iree_tensor_ext.dispatch.tensor.store"
        and packed_storage.is_packed_tensor(op.operands[0].type)
        for op in function.walk()
    )


def root_op(function: func.FuncOp) -> Operation | None:
    """The op a previous run of this pass configured, if any."""
    for op in function.body.block.ops:
        if isinstance(op.attributes.get(LOWERING_CONFIG), LoweringConfigAttr):
            return op
    return None


@dataclass(frozen=True)
class LLVMCPUSelectLoweringStrategyPass(ModulePass):
    """Choose a lowering pipeline and workgroup tile sizes for every export."""

    name = "iree-llvmcpu-select-lowering-strategy"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for site in export_sites(op):
            select_strategy(site.function, ukernels_enabled(site.variant))
