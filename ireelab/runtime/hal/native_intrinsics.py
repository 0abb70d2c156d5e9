"""The numba intrinsics the runtime's native code shares: an atomic add, a call of a C entry
point by its address (C has both built in; IREE's task system and executable loader use them
directly), and a unit-stride row of a strided view typed as contiguous (what C's pointer
arithmetic gives a micro-kernel for free).

`native_tasks` (plans run without the GIL) and `blas_threads` (the single-threaded-BLAS scope
around a kernel's C entry point) both build on these; neither imports the other.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.core.imputils import impl_ret_borrowed
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array


@intrinsic
def atomic_add(typingctx, array, index, value):
    # array[index] += value atomically (sequentially consistent); returns the old value
    def codegen(context, builder, signature, args):
        view = context.make_array(signature.args[0])(context, builder, args[0])
        pointer = builder.gep(view.data, [args[1]])
        return builder.atomic_rmw("add", pointer, args[2], "seq_cst")

    return types.int64(array, index, value), codegen


@intrinsic
def call_entry_at(typingctx, entry, begin, end, ctx):
    # entry(begin, end, (int64 *) ctx): an export's C entry point, by address
    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        function_type = ir.FunctionType(ir.VoidType(), [i64, i64, i64.as_pointer()])
        function = builder.inttoptr(args[0], function_type.as_pointer())
        builder.call(function, [args[1], args[2], builder.inttoptr(args[3], i64.as_pointer())])
        return context.get_dummy_value()

    return types.void(types.int64, types.int64, types.int64, types.int64), codegen


@intrinsic
def unit_stride_row(typingctx, array, i, j):
    # array[i, j, :] of a 3-D array whose last dimension the caller checked is at unit
    # stride, typed C-contiguous: numba indexes an 'A'-layout view with its strides as
    # runtime values, and LLVM keeps a loop over such a row scalar (3.5x slower on a
    # depthwise convolution's channel loop)
    if not (isinstance(array, types.Array) and array.ndim == 3):
        return None
    row = types.Array(array.dtype, 1, "C")

    def codegen(context, builder, signature, args):
        source = make_array(signature.args[0])(context, builder, args[0])
        first, second = (
            context.cast(builder, value, kind, types.intp)
            for value, kind in zip(args[1:], signature.args[1:], strict=True)
        )
        shape = cgutils.unpack_tuple(builder, source.shape, 3)
        strides = cgutils.unpack_tuple(builder, source.strides, 3)
        offset = builder.add(builder.mul(first, strides[0]), builder.mul(second, strides[1]))
        byte = ir.IntType(8).as_pointer()
        data = builder.gep(builder.bitcast(source.data, byte), [offset])
        itemsize = source.itemsize
        view = make_array(row)(context, builder)
        populate_array(
            view,
            data=builder.bitcast(data, source.data.type),
            shape=[shape[2]],
            strides=[itemsize],
            itemsize=itemsize,
            meminfo=source.meminfo,
            parent=source.parent,
        )
        return impl_ret_borrowed(context, builder, row, view._getvalue())

    return row(array, i, j), codegen
