"""MaterializeHomogeneousEncodingsPass (`iree-global-opt-materialize-homogeneous-encodings`):
encodings become packed layouts chosen for the one target.

Runs only with `--iree-opt-data-tiling`, right after `SetEncodingPass`. When every device of the
module compiles for the same executable target, IREE can materialise the encodings on the host
program at once (its pass of this name, which runs its CPU encoding resolver; IREE 3.13 by
default defers the same work to `MaterializeDeviceEncodingPass` in codegen, ireelab does it
here so that the packs form dispatches of their own and packs of constants fold). For a matmul
`C[MxN] = A[MxK] @ B[KxN]` with tiles `M0 x N0 x K0`:

    A -> linalg.pack inner_dims_pos = [0, 1] inner_tiles = [M0, K0]           (M1 x K1 x M0 x K0)
    B -> linalg.pack outer_dims_perm = [1, 0] inner_dims_pos = [1, 0]
                     inner_tiles = [N0, K0]                                    (N1 x K1 x N0 x K0)
    C -> linalg.mmt4d on the packed accumulator (a fill is rebuilt packed), then
         linalg.unpack inner_dims_pos = [0, 1] inner_tiles = [M0, N0]          back to M x N

padding with zeros, which add nothing to the products. An operand stored transposed (a
`k x m` lhs, an `n x k` rhs: the matmul's maps say so) gets the other of the two pack forms,
so the packed layouts, and the mmt4d, are the same. Tile sizes are IREE's x86 choice for
f32 from the target's `native_vector_size`: 64 bytes (AVX-512) 16x16x1, 32 bytes (AVX) 8x8x1,
else 8x4x1. Other element types, and modules whose devices differ, get the identity layout:
the encodings are dropped and the matmul stays a matmul.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import Float32Type, FloatAttr, IntegerAttr, ModuleOp, TensorType
from xdsl.dialects.linalg import ops as linalg_ops
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.flow import structured as st
from ireelab.compiler.flow.set_encoding import operand_layouts
from ireelab.diagnostics import copy_location
from ireelab.dialects import hal
from ireelab.dialects.iree_encoding import SetEncodingOp, UnsetEncodingOp, encoding_of
from ireelab.dialects.linalg_ext import MatmulOp, Mmt4DOp
from ireelab.dialects.linalg_pack import PackOp, UnPackOp


def module_targets(module: ModuleOp) -> list[hal.ExecutableTargetAttr]:
    """The executable targets of the module's devices (`#hal.device.target<...>` globals)."""
    targets: list[hal.ExecutableTargetAttr] = []
    for op in module.body.block.ops:
        for attr in (*op.properties.values(), *op.attributes.values()):
            if isinstance(attr, hal.DeviceTargetAttr):
                targets.extend(t for t in attr.executable_targets.data if t not in targets)
    return targets


def matmul_tiles(target: hal.ExecutableTargetAttr | None, element) -> tuple[int, int, int] | None:
    """(M0, N0, K0) for the target, or None for the identity layout."""
    if target is None or not isinstance(element, Float32Type):
        return None
    vector = target.configuration.data.get("native_vector_size")
    width = vector.value.data if isinstance(vector, IntegerAttr) else 16
    if width >= 64:
        return 16, 16, 1
    if width >= 32:
        return 8, 8, 1
    return 8, 4, 1


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


class _Builder:
    """Inserts before one point and remembers each op's location source."""

    def __init__(self, point: InsertPoint, origin: Operation):
        self.point, self.origin = point, origin

    def add(self, op: Operation) -> Operation:
        Rewriter.insert_op(op, self.point)
        copy_location(self.origin, op)
        return op

    def zero(self, element) -> SSAValue:
        return self.add(arith.ConstantOp(FloatAttr(0.0, element))).result

    def pack(self, value: SSAValue, shape, pos, tiles, perm=None) -> SSAValue:
        element = value.type.element_type
        empty = self.add(tensor.EmptyOp([], TensorType(element, shape)))
        pad = self.zero(element)
        return self.add(PackOp(value, empty.tensor, pos, tiles, perm, pad)).result


def _plain(value: SSAValue) -> SSAValue:
    owner = value.owner
    assert isinstance(owner, SetEncodingOp)
    return owner.source


def _packed_accumulator(b: _Builder, acc: SSAValue, shape: list[int], m0: int, n0: int):
    owner = acc.owner
    if isinstance(owner, linalg_ops.FillOp):
        packed_type = TensorType(acc.type.element_type, shape)
        empty = b.add(tensor.EmptyOp([], packed_type))
        return b.add(linalg_ops.FillOp([owner.inputs[0]], [empty.tensor], [packed_type])).results[0]
    return b.pack(_plain(acc), shape, [0, 1], [m0, n0])


def materialize_matmul(op: MatmulOp, tiles: tuple[int, int, int]) -> None:
    m0, n0, k0 = tiles
    lhs, rhs = op.inputs
    layouts = operand_layouts(op)
    assert layouts is not None
    m, n, k = st.loop_ranges(op)
    m1, n1, k1 = _ceil(m, m0), _ceil(n, n0), _ceil(k, k0)
    b = _Builder(InsertPoint.before(op), op)
    # the tiles of the operand's first stored dim come first unless it is stored transposed
    # (k x m lhs, k x n rhs): then outer_dims_perm = [1, 0] inner_dims_pos = [1, 0]
    lhs_layout = ([1, 0], [1, 0]) if layouts[0] else ([0, 1], None)
    rhs_layout = ([0, 1], None) if layouts[1] else ([1, 0], [1, 0])
    packed_lhs = b.pack(_plain(lhs), [m1, k1, m0, k0], lhs_layout[0], [m0, k0], lhs_layout[1])
    packed_rhs = b.pack(_plain(rhs), [n1, k1, n0, k0], rhs_layout[0], [n0, k0], rhs_layout[1])
    acc = _packed_accumulator(b, op.outputs[0], [m1, n1, m0, n0], m0, n0)
    mmt4d = b.add(Mmt4DOp([packed_lhs, packed_rhs], [acc]))
    for use in list(op.results[0].uses):
        unset = use.operation
        assert isinstance(unset, UnsetEncodingOp)
        after = _Builder(InsertPoint.before(unset), op)
        empty = after.add(tensor.EmptyOp([], unset.result.type))
        unpack = after.add(UnPackOp(mmt4d.results[0], empty.tensor, [0, 1], [m0, n0]))
        unset.result.replace_all_uses_with(unpack.result)
        Rewriter.erase_op(unset)
    _erase_encoded_producers(op)


def materialize_identity(op: MatmulOp) -> None:
    """Drop the encodings: the same matmul on plain tensors."""
    b = _Builder(InsertPoint.before(op), op)
    acc = op.outputs[0]
    if isinstance(acc.owner, linalg_ops.FillOp):
        plain = TensorType(acc.type.element_type, acc.type.get_shape())
        empty = b.add(tensor.EmptyOp([], plain))
        acc = b.add(linalg_ops.FillOp([acc.owner.inputs[0]], [empty.tensor], [plain])).results[0]
    else:
        acc = _plain(acc)
    plain_type = TensorType(op.results[0].type.element_type, op.results[0].type.get_shape())
    matmul = b.add(MatmulOp([_plain(v) for v in op.inputs], [acc], [plain_type]))
    matmul.indexing_maps = op.indexing_maps
    for use in list(op.results[0].uses):
        unset = use.operation
        unset.result.replace_all_uses_with(matmul.results[0])
        Rewriter.erase_op(unset)
    _erase_encoded_producers(op)


def _erase_encoded_producers(op: MatmulOp) -> None:
    """Erase the encoded matmul, then the set_encoding / fill / empty ops only it used."""
    worklist = [op]
    while worklist:
        current = worklist.pop()
        if any(r.uses for r in current.results):
            continue
        producers = [v.owner for v in current.operands if isinstance(v.owner, Operation)]
        Rewriter.erase_op(current)
        worklist.extend(p for p in producers if any(encoding_of(r.type) for r in p.results))


def is_encoded_matmul(op: Operation) -> bool:
    return isinstance(op, MatmulOp) and encoding_of(op.results[0].type) is not None


@dataclass(frozen=True)
class MaterializeHomogeneousEncodingsPass(ModulePass):
    name = "iree-global-opt-materialize-homogeneous-encodings"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        targets = module_targets(op)
        target = targets[0] if len(targets) == 1 else None
        for matmul in [o for o in op.walk() if is_encoded_matmul(o)]:
            tiles = matmul_tiles(target, matmul.results[0].type.element_type)
            if tiles is None:
                materialize_identity(matmul)
            else:
                materialize_matmul(matmul, tiles)
