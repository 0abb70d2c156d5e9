"""Fold `tensor.extract_slice` / `tensor.insert_slice` into the dispatch tensor load / store
around them, inside dispatch bodies.

Mirrors IREE's `populateTensorSliceOpWithDispatchTensorOpFoldingPatterns`
(Dialect/TensorExt/Transforms), which ConvertTensorToFlowPass applies last:

- `extract_slice(load %b[o] [n])[p] [m]` reads only the slice, so it becomes
  `load %b[o + p] [m]` (a host extract_slice cloned into a consumer's dispatch ends up as a
  load at offsets, as IREE prints it);
- `store(insert_slice %x into (load %b[o] [n])[p] [m], %b[o] [n])` rewrites only the slice of
  a `readwrite` binding, so it becomes `store %x, %b[o + p] [m]` (the copy kernel of a
  non-contiguous insert_slice, or a padded result written into its pre-filled destination).

Strides compose as IREE composes them (`load %b[o + p * s] [m] [s * t]`): a strided slice of
an argument becomes a strided load, the copy kernel IREE names *slow_memcpy*. Only static,
non-rank-reducing slices fold, and slices at run-time offsets or sizes of a load that reads
the whole binding from its origin (the copy dispatch of such a slice; the binding may be
`?`-sized, read at its own sizes); the others are left as they are.
"""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.dialects.utils.dynamic_index_list import get_dynamic_index_list
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import Rewriter

from ireelab.compiler.flow.structured import use_count as st_use_count
from ireelab.compiler.flow.tensor_slices import StaticSlice, is_rank_reducing, static_slice
from ireelab.dialects.iree_tensor_ext import DispatchTensorLoadOp, DispatchTensorStoreOp


def _static_params(op: DispatchTensorLoadOp | DispatchTensorStoreOp) -> StaticSlice | None:
    mixed = [op.mixed(k) for k in ("offsets", "sizes", "strides")]
    if any(not isinstance(v, int) for vs in mixed for v in vs):
        return None
    return StaticSlice(*mixed)


def _foldable(op: tensor.ExtractSliceOp | tensor.InsertSliceOp) -> StaticSlice | None:
    s = static_slice(op)
    if s is None or is_rank_reducing(op):
        return None
    return s


def _compose(base: StaticSlice, s: StaticSlice) -> tuple[list[int], list[int]]:
    """Offsets and strides into the binding of slice `s` of the tile `base` reads."""
    offsets = [o + p * t for o, p, t in zip(base.offsets, s.offsets, base.strides, strict=True)]
    strides = [t * u for t, u in zip(base.strides, s.strides, strict=True)]
    return offsets, strides


def _mixed(op: tensor.ExtractSliceOp, key: str) -> list[SSAValue | int]:
    static = getattr(op, f"static_{key}").get_values()
    return get_dynamic_index_list(static, getattr(op, key), DYNAMIC_INDEX)


def _from_origin(op: DispatchTensorLoadOp | DispatchTensorStoreOp) -> bool:
    """The load or store starts at the binding's origin with unit strides (its sizes may be
    constants or the binding's `?` extents)."""
    offsets, strides = op.mixed("offsets"), op.mixed("strides")
    return all(v == 0 for v in offsets) and all(v == 1 for v in strides)


def _same_params(a: DispatchTensorLoadOp, b: DispatchTensorStoreOp) -> bool:
    keys = ("offsets", "sizes", "strides")
    return all(
        len(a.mixed(k)) == len(b.mixed(k))
        and all(x is y or x == y for x, y in zip(a.mixed(k), b.mixed(k), strict=True))
        for k in keys
    )


def fold_dynamic_extract_slice(op: tensor.ExtractSliceOp, load: DispatchTensorLoadOp) -> bool:
    """A slice at run-time offsets or sizes of a load from the binding's origin (unit
    strides) is a load at those offsets and sizes, as IREE folds it."""
    strides = list(op.static_strides.get_values())
    if not _from_origin(load) or is_rank_reducing(op):
        return False
    if DYNAMIC_INDEX in strides:
        return False
    offsets, sizes = _mixed(op, "offsets"), _mixed(op, "sizes")
    new = DispatchTensorLoadOp(
        load.source, op.result.type, offsets, sizes, strides, list(load.source_dims)
    )
    Rewriter.replace_op(op, new)
    _erase_if_unused(load)
    return True


def fold_extract_slice(op: tensor.ExtractSliceOp) -> bool:
    load = op.source.owner
    if not isinstance(load, DispatchTensorLoadOp):
        return False
    if static_slice(op) is None or _static_params(load) is None:
        return fold_dynamic_extract_slice(op, load)
    s, base = _foldable(op), _static_params(load)
    if s is None or base is None:
        return False
    offsets, strides = _compose(base, s)
    new = DispatchTensorLoadOp(load.source, op.result.type, offsets, s.sizes, strides)
    Rewriter.replace_op(op, new)
    _erase_if_unused(load)
    return True


def fold_dynamic_insert_slice(
    store: DispatchTensorStoreOp, insert: tensor.InsertSliceOp, load: DispatchTensorLoadOp
) -> bool:
    """An update at run-time offsets or sizes of a whole `readwrite` binding (loaded and
    stored from its origin) is a store at those offsets and sizes."""
    strides = list(insert.static_strides.get_values())
    if not (_from_origin(store) and _same_params(load, store)):
        return False
    if is_rank_reducing(insert) or DYNAMIC_INDEX in strides:
        return False
    offsets, sizes = _mixed(insert, "offsets"), _mixed(insert, "sizes")
    new = DispatchTensorStoreOp(
        insert.source, store.target, offsets, sizes, strides, list(store.target_dims)
    )
    Rewriter.replace_op(store, new)
    Rewriter.erase_op(insert)
    _erase_if_unused(load)
    return True


def fold_insert_slice(store: DispatchTensorStoreOp) -> bool:
    insert = store.value.owner
    if not isinstance(insert, tensor.InsertSliceOp) or st_use_count(insert.result) != 1:
        return False
    load = insert.dest.owner
    if not isinstance(load, DispatchTensorLoadOp) or load.source != store.target:
        return False
    if static_slice(insert) is None or _static_params(store) is None:
        return fold_dynamic_insert_slice(store, insert, load)
    s, base, load_params = _foldable(insert), _static_params(store), _static_params(load)
    if s is None or base is None or load_params != base:
        return False
    offsets, strides = _compose(base, s)
    new = DispatchTensorStoreOp(insert.source, store.target, offsets, s.sizes, strides)
    Rewriter.replace_op(store, new)
    Rewriter.erase_op(insert)
    _erase_if_unused(load)
    return True


def _erase_if_unused(op: Operation) -> None:
    if not any(r.uses for r in op.results):
        Rewriter.erase_op(op)


def fold_slices(body: Operation) -> None:
    """Apply both folds everywhere in `body` (a dispatch's region) until none applies."""
    changed = True
    while changed:
        changed = False
        for op in list(body.walk()):
            if isinstance(op, tensor.ExtractSliceOp):
                changed |= fold_extract_slice(op)
            elif isinstance(op, DispatchTensorStoreOp):
                changed |= fold_insert_slice(op)
