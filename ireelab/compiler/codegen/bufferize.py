"""`IREEComprehensiveBufferizePass` (`iree-codegen-iree-comprehensive-bufferize`).

Tensors become buffers, as IREE's bufferization (One-Shot Bufferize with IREE's dispatch
extensions) does for a dispatch, together with the two preparations IREE runs just before it:

- `EliminateEmptyTensorsPass`: the `tensor.empty` that a chain of destination-passing ops ends
  in is replaced by the output tile, so the last op of the chain writes straight into the
  output binding;
- `BufferizeDispatchTensorLoadStorePass`: binding subspans become memrefs,
  `dispatch.tensor.load` a `memref.subview` of the binding, a store that was not eliminated a
  `memref.copy` into the output's subview.

A linalg op writes into the buffer of its `outs` operand when it may (the value is used only
there and is not a read-only binding), otherwise into a new `memref.alloc` that starts as a copy.
Each use of a `tensor.empty` gets its own buffer: its contents are undefined anyway. An
elementwise op whose destination is empty may instead write over an input it alone reads
through the output's map (a matmul tile's bias / activation epilogue runs in place on the tile
the micro-kernel wrote into the output binding). `iree_codegen.ukernel.generic` bufferizes like
a linalg op: its `outs` become the buffers it writes; so do `iree_linalg_ext` ops.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, bufferization, func, memref, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StridedLayoutAttr,
    TensorType,
    UnitAttr,
    i32,
)
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.compiler.codegen.executables import export_sites
from ireelab.diagnostics import CompileError, copy_location
from ireelab.dialects import flow, hal, iree_tensor_ext
from ireelab.dialects.iree_codegen import UKernelGenericOp
from ireelab.dialects.iree_linalg_ext import LinalgExtOp
from ireelab.schemas import packed_storage

DestinationStyleOps = (LinalgStructuredOperation, UKernelGenericOp, LinalgExtOp)
"""Ops that write their `outs` operands and return them as results."""


def _error(op: Operation, message: str) -> CompileError:
    return CompileError.at(op, message, stage="codegen")


def _reusable_input(op: Operation, result_index: int) -> SSAValue | None:
    """An input an elementwise linalg op may overwrite with its result `result_index`: read
    through the output's own indexing map, of the output's type, computed in this dispatch
    (not a binding) and read by nothing else. Writing the result over it element by element
    never clobbers an element still to be read (IREE's bufferization reuses such an operand's
    buffer in place the same way)."""
    if not isinstance(op, LinalgStructuredOperation):
        return None
    if len(op.outputs) != 1:
        # With several results every one would claim the same input's buffer, and all but one
        # stored result would be lost (a random program found this): write each to its own.
        return None
    if any(it.data != IteratorType.PARALLEL for it in op.get_iterator_types()):
        return None
    maps = op.get_indexing_maps().data
    output = op.outputs[result_index]
    output_map = maps[len(op.inputs) + result_index]
    for value, indexing in zip(op.inputs, maps, strict=False):
        if indexing != output_map or value.type != output.type or not value.has_one_use():
            continue
        if isinstance(value.owner, DestinationStyleOps) and value not in op.outputs:
            return value
    return None


@dataclass(frozen=True)
class DestinationChain:
    """How a stored value reaches the output tile without a copy."""

    end: tuple[Operation, int]
    """(op, operand index) where the chain meets a `tensor.empty`: that op writes the tile."""
    in_place: dict[tuple[Operation, int], SSAValue]
    """Elementwise ops after `end` that write over one of their inputs: (op, outs operand
    index) -> the input whose buffer (the output tile) they write."""


def _destination_chain(store: iree_tensor_ext.DispatchTensorStoreOp) -> DestinationChain | None:
    """Follow the stored value back through destinations (and through inputs elementwise ops
    may overwrite) to the `tensor.empty` whose replacement by the output tile makes the store
    a no-op."""
    value = store.value
    in_place: dict[tuple[Operation, int], SSAValue] = {}
    while isinstance(value.owner, DestinationStyleOps):
        op = value.owner
        index = list(op.results).index(value)
        operand_index = len(op.inputs) + index
        outs = op.operands[operand_index]
        if isinstance(outs.owner, tensor.EmptyOp):
            reusable = _reusable_input(op, index)
            if reusable is None:
                return DestinationChain((op, operand_index), in_place)
            in_place[(op, operand_index)] = reusable
            value = reusable
            continue
        if not outs.has_one_use():
            return None
        value = outs
    return None


def _is_tensor_constant(op: Operation | None) -> bool:
    return isinstance(op, arith.ConstantOp) and isinstance(op.result.type, TensorType)


def _subview(
    source: SSAValue,
    offsets: list[SSAValue | int],
    sizes: list[SSAValue | int],
    strides: list[int] | None = None,
) -> memref.SubviewOp:
    source_type = source.type
    assert isinstance(source_type, MemRefType)
    strides = strides if strides is not None else [1] * len(sizes)
    result_type = memref.SubviewOp.infer_result_type(source_type, offsets, sizes, strides)
    return memref.SubviewOp.get(source, offsets, sizes, strides, result_type)


def _rank_reduced(view: memref.SubviewOp, result_type: TensorType) -> memref.SubviewOp:
    """`view` with the unit dims the rank-reducing slice drops (the leading ones that do not
    match the result's shape) left out of its type."""
    full = view.result.type
    shape, layout = list(full.get_shape()), full.layout
    strides = list(layout.get_strides())
    wanted = list(result_type.get_shape())
    keep, drop = [], len(shape) - len(wanted)
    for i, n in enumerate(shape):
        w = len(keep)
        if drop and n == 1 and (w >= len(wanted) or wanted[w] != 1):
            drop -= 1
            continue
        keep.append(i)
    if [shape[i] for i in keep] != wanted:
        raise CompileError(f"cannot reduce the rank of {full} to {result_type}", stage="codegen")
    reduced = MemRefType(
        full.element_type,
        [shape[i] for i in keep],
        StridedLayoutAttr([strides[i] for i in keep], layout.get_offset()),
    )
    return memref.SubviewOp(
        view.source,
        list(view.offsets),
        list(view.sizes),
        list(view.strides),
        view.static_offsets,
        view.static_sizes,
        view.static_strides,
        reduced,
    )


def _memref_type(tensor_type: TensorType) -> MemRefType:
    """The buffer type of a tensor type; a packed `i1` tensor (`#iree_encoding.packed_storage`)
    keeps that attribute as the memref's memory space, so codegen reads its bits packed."""
    if packed_storage.has_packed_storage(tensor_type):
        element, shape = tensor_type.get_element_type(), tensor_type.get_shape()
        return MemRefType(element, shape, NoneAttr(), tensor_type.encoding)
    return MemRefType(tensor_type.get_element_type(), tensor_type.get_shape())


def _alloc(empty: SSAValue) -> memref.AllocOp:
    """The buffer of a `tensor.empty`, sized by its `?` sizes."""
    tensor_type = empty.type
    assert isinstance(tensor_type, TensorType) and isinstance(empty.owner, tensor.EmptyOp)
    memref_type = _memref_type(tensor_type)
    return memref.AllocOp(list(empty.owner.dynamic_sizes), [], memref_type)


def _index(value: int) -> arith.ConstantOp:
    return arith.ConstantOp(IntegerAttr(value, IndexType()))


def _segments(subspan: hal.InterfaceBindingSubspanOp, dims: int) -> dict:
    offsets = len(subspan.byte_offset_list)
    return {"operandSegmentSizes": DenseArrayBase.from_list(i32, [offsets, dims])}


@dataclass
class _Bufferizer:
    function: func.FuncOp

    def __post_init__(self) -> None:
        self.buffers: dict[SSAValue, SSAValue] = {}
        self.bindings: dict[SSAValue, SSAValue] = {}
        self.read_only: set[SSAValue] = set()
        self.output_uses: dict[tuple[Operation, int], iree_tensor_ext.DispatchTensorStoreOp] = {}
        self.elided_stores: set[Operation] = set()
        self.in_place: dict[tuple[Operation, int], SSAValue] = {}
        self.dead: list[Operation] = []

    def run(self) -> None:
        self._plan_empty_elimination()
        for op in list(self.function.body.block.ops):
            self._bufferize(op)
        for op in reversed(self.dead):
            for result in op.results:
                if result in self.bindings:
                    result.replace_all_uses_with(self.bindings[result])
            Rewriter.erase_op(op, safe_erase=False)

    def _plan_empty_elimination(self) -> None:
        ops = list(self.function.body.block.ops)
        loaded = {op.source for op in ops if isinstance(op, iree_tensor_ext.DispatchTensorLoadOp)}
        for store in ops:
            if not isinstance(store, iree_tensor_ext.DispatchTensorStoreOp):
                continue
            chain = _destination_chain(store)
            # A binding that is also read stays untouched until the end: copy into it then.
            if chain is not None and store.target not in loaded:
                self.output_uses[chain.end] = store
                self.in_place.update(chain.in_place)
                self.elided_stores.add(store)

    def _bufferize(self, op: Operation) -> None:
        if isinstance(op, hal.InterfaceBindingSubspanOp):
            self._subspan(op)
        elif isinstance(op, flow.DispatchTieShapeOp):
            self._tie_shape(op)
        elif isinstance(op, iree_tensor_ext.DispatchTensorLoadOp):
            self._load(op)
        elif isinstance(op, iree_tensor_ext.DispatchTensorStoreOp):
            self._store(op)
        elif isinstance(op, tensor.EmptyOp):
            self.dead.append(op)
        elif isinstance(op, arith.ConstantOp) and isinstance(op.result.type, TensorType):
            self._constant(op)
        elif isinstance(op, tensor.ExtractSliceOp) and self._reads_in_place(op.source):
            self._slice(op)
        elif isinstance(op, DestinationStyleOps):
            self._destination_style(op)
        elif isinstance(op, tensor.ExtractOp):
            self._extract(op)
        elif any(isinstance(v.type, TensorType) for v in (*op.operands, *op.results)):
            raise _error(op, f"'{op.name}' on tensors is not supported by numba-cpu bufferization")

    def _insert(self, op: Operation, before: Operation) -> SSAValue | None:
        Rewriter.insert_op(op, InsertPoint.before(before))
        return op.results[0] if op.results else None

    def _subspan(self, op: hal.InterfaceBindingSubspanOp) -> None:
        dispatch_type = op.result.type
        if not isinstance(dispatch_type, iree_tensor_ext.DispatchTensorType):
            return
        bound = dispatch_type.bound_type
        memref_type = _memref_type(bound)
        replacement = type(op).create(
            operands=list(op.operands),
            result_types=[memref_type],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        )
        self.bindings[op.result] = self._insert(replacement, op)
        if not dispatch_type.can_write:
            self.read_only.add(self.bindings[op.result])
        self.dead.append(op)

    def _tie_shape(self, op: flow.DispatchTieShapeOp) -> None:
        """A binding with `?` sizes: its memref is sized by them (IREE folds the tie into
        the subspan, `hal.interface.binding.subspan ... : memref<?x4xf32>{%d}`)."""
        subspan = self.bindings[op.operand].owner
        if not isinstance(subspan, hal.InterfaceBindingSubspanOp) or subspan.dynamic_dims:
            raise _error(op, "a binding's sizes must be tied once, right after its subspan")
        sized = type(subspan).create(
            operands=[*subspan.byte_offset_list, *op.dynamic_dims],
            result_types=[subspan.result.type],
            properties={**subspan.properties, **_segments(subspan, len(op.dynamic_dims))},
            attributes=dict(subspan.attributes),
        )
        self._insert(sized, op)
        self.bindings[op.result] = sized.result
        if subspan.result in self.read_only:
            self.read_only.add(sized.result)
        self.dead += [op, subspan]

    def _whole(self, op: Operation, binding: SSAValue) -> bool:
        """A load or store of all of a binding with `?` sizes: the binding's memref itself
        (otherwise a subview of it, a workgroup's tile of runtime size)."""
        dims = iter(binding.owner.dynamic_dims)
        shape = binding.type.get_shape()
        whole = [next(dims) if d == DYNAMIC_INDEX else d for d in shape]
        return all(o == 0 for o in op.mixed("offsets")) and op.mixed("sizes") == whole

    def _load(self, op: iree_tensor_ext.DispatchTensorLoadOp) -> None:
        binding = self.bindings[op.source]
        if op.sizes and self._whole(op, binding):
            self.buffers[op.result] = binding
            self.dead.append(op)
            return
        strides = list(op.static_strides.get_values())
        subview = _subview(binding, op.mixed("offsets"), op.mixed("sizes"), strides)
        self.buffers[op.result] = self._insert(subview, op)
        if binding in self.read_only:
            self.read_only.add(self.buffers[op.result])
        self.dead.append(op)

    def _constant(self, op: arith.ConstantOp) -> None:
        """A constant tensor is read in place: `bufferization.to_buffer %cst read_only`, as
        IREE's bufferization leaves it (codegen emits the buffer from the constant's values)."""
        tensor_type = op.result.type
        memref_type = _memref_type(tensor_type)
        to_buffer = bufferization.ToBufferOp(
            operands=[op.result],
            result_types=[memref_type],
            properties={"read_only": UnitAttr()},
        )
        Rewriter.insert_op(to_buffer, InsertPoint.after(op))
        self.buffers[op.result] = to_buffer.memref
        self.read_only.add(to_buffer.memref)

    def _reads_in_place(self, value: SSAValue) -> bool:
        """A constant, or a tensor loaded from a read-only binding: a slice of it is a view."""
        return _is_tensor_constant(value.owner) or self.buffers.get(value) in self.read_only

    def _slice(self, op: tensor.ExtractSliceOp) -> None:
        """A slice of a constant (made by tiling) or of a read-only binding's tile (a row at
        a workload index, in a host loop's dispatch) is a subview of its buffer (unit
        strides); a rank-reducing slice drops the unit dims the result type drops."""
        if any(s != 1 for s in op.static_strides.get_values()):
            raise _error(op, "strided slices are not supported by numba-cpu bufferization")
        source = self.buffers[op.source]
        offsets = op.static_offsets.get_values()
        dynamic = iter(op.offsets)
        mixed = [next(dynamic) if o == tensor.DYNAMIC_INDEX else o for o in offsets]
        sizes = iter(op.sizes)
        mixed_sizes = [
            next(sizes) if n == tensor.DYNAMIC_INDEX else n for n in op.static_sizes.get_values()
        ]
        view = _subview(source, mixed, mixed_sizes)
        result_type = op.result.type
        if result_type.get_shape() != view.result.type.get_shape():
            view = _rank_reduced(view, result_type)
        subview = self._insert(view, op)
        self.buffers[op.result] = subview
        if source in self.read_only:
            self.read_only.add(subview)
        self.dead.append(op)

    def _output_tile(
        self, store: iree_tensor_ext.DispatchTensorStoreOp, before: Operation
    ) -> SSAValue:
        binding = self.bindings[store.target]
        if store.sizes and self._whole(store, binding):
            return binding
        strides = list(store.static_strides.get_values())
        subview = _subview(binding, store.mixed("offsets"), store.mixed("sizes"), strides)
        return self._insert(subview, before)

    def _store(self, op: iree_tensor_ext.DispatchTensorStoreOp) -> None:
        self.dead.append(op)
        if op in self.elided_stores:
            return
        destination = self._output_tile(op, op)
        self._insert(memref.CopyOp(self.buffers[op.value], destination), op)

    def _destination(self, op: LinalgStructuredOperation, index: int) -> SSAValue:
        """The buffer `op` writes its output `index` (an operand index) into."""
        value = op.operands[index]
        store = self.output_uses.get((op, index))
        if store is not None:
            return self._output_tile(store, op)
        overwritten = self.in_place.get((op, index))
        if overwritten is not None:
            return self.buffers[overwritten]
        tensor_type = value.type
        assert isinstance(tensor_type, TensorType)
        memref_type = _memref_type(tensor_type)
        if isinstance(value.owner, tensor.EmptyOp):
            return self._insert(_alloc(value), op)
        source = self.buffers[value]
        if value.has_one_use() and source not in self.read_only:
            return source
        sizes = [  # a `?` size of the copy is the source buffer's there
            self._insert(memref.DimOp(source, self._insert(_index(i), op)), op)
            for i, size in enumerate(tensor_type.get_shape())
            if size == DYNAMIC_INDEX
        ]
        fresh = self._insert(memref.AllocOp(sizes, [], memref_type), op)
        self._insert(memref.CopyOp(source, fresh), op)
        return fresh

    def _input(self, op: Operation, value: SSAValue) -> SSAValue:
        """The buffer an input is read from. A `tensor.empty` input (a pooling op's window,
        which gives only the loop bounds of the window dimensions) bufferizes as One-Shot
        Bufferize bufferizes `tensor.empty`: a new allocation of undefined contents."""
        if isinstance(value.owner, tensor.EmptyOp):
            return self._insert(_alloc(value), op)
        return self.buffers.get(value, value)

    def _extract(self, op: tensor.ExtractOp) -> None:
        """`tensor.extract %t[%i]` reads one element of `%t`'s buffer: `memref.load`."""
        buffer = self.buffers.get(op.tensor)
        if buffer is None:
            raise _error(op, "the tensor 'tensor.extract' reads has no buffer")
        load = memref.LoadOp.get(buffer, list(op.indices))
        Rewriter.replace_op(op, load)

    def _extracts_in_body(self, op: Operation) -> None:
        """Extracts in a linalg body read tensors of the function (a gather's table, a scalar
        taken from an operand): they load from those tensors' buffers."""
        for inner in list(op.walk()):
            if isinstance(inner, tensor.ExtractOp):
                self._extract(inner)

    def _destination_style(self, op: LinalgStructuredOperation | UKernelGenericOp) -> None:
        """A linalg op or micro-kernel call on tensors -> the same op on buffers, writing its
        destinations in place; scalar operands after them (micro-kernel flags) stay."""
        if not op.results:
            return
        inputs = [self._input(op, v) for v in op.inputs]
        if any(isinstance(v.type, TensorType) for v in inputs):
            raise _error(op, f"an input of '{op.name}' has no buffer")
        first_output = len(op.inputs)
        outputs = [self._destination(op, first_output + i) for i in range(len(op.outputs))]
        trailing = list(op.operands[first_output + len(outputs) :])
        buffered = type(op).create(
            operands=[*inputs, *outputs, *trailing],
            result_types=[],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
            regions=[region.clone() for region in op.regions],
        )
        copy_location(op, buffered)
        self._insert(buffered, op)
        self._extracts_in_body(buffered)
        for result, buffer in zip(op.results, outputs, strict=True):
            self.buffers[result] = buffer
        self.dead.append(op)


@dataclass(frozen=True)
class IREEComprehensiveBufferizePass(ModulePass):
    """Bufferize every export function: bindings, tiles and intermediate tensors to memrefs."""

    name = "iree-codegen-iree-comprehensive-bufferize"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for site in export_sites(op):
            _Bufferizer(site.function).run()
