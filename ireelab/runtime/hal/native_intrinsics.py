"""The numba intrinsics the runtime's native code shares: an atomic add, and a call of a
C entry point by its address (C has both built in; IREE's task system and executable loader
use them directly).

`native_tasks` (plans run without the GIL) and `blas_threads` (the single-threaded-BLAS scope
around a kernel's C entry point) both build on these; neither imports the other.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


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
