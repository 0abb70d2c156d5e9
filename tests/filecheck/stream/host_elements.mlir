// RUN: ireelab-compile %s --compile-to=stream --mlir-print-ir-after=iree-stream-conversion -o /dev/null 2>&1 | filecheck %s --check-prefix=CONVERT
// RUN: ireelab-compile %s --compile-to=stream --mlir-print-ir-after=iree-stream-encode-host-tensors -o /dev/null 2>&1 | filecheck %s --check-prefix=ENCODE
// RUN: ireelab-compile %s --compile-to=stream | filecheck %s --check-prefix=CMD

// Reading one element: a 1x1 slice, a transfer to a staging resource, a host load.
func.func @extract(%a: tensor<4x6xf32>) -> f32 {
  %c1 = arith.constant 1 : index
  %v = tensor.extract %a[%c1, %c1] : tensor<4x6xf32>
  return %v : f32
}

// A 0-d result of a dispatch is transferred whole, without a slice.
func.func @sum(%a: tensor<8xi32>) -> i32 {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<i32>
  %init = linalg.fill ins(%zero : i32) outs(%e : tensor<i32>) -> tensor<i32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%a : tensor<8xi32>) outs(%init : tensor<i32>) {
  ^bb0(%x: i32, %acc: i32):
    %s = arith.addi %x, %acc : i32
    linalg.yield %s : i32
  } -> tensor<i32>
  %v = tensor.extract %m[] : tensor<i32>
  return %v : i32
}

// Writing one element: a one-element fill of a copy of the argument.
func.func @insert(%a: tensor<4x6xf32>, %x: f32) -> tensor<4x6xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = tensor.insert %x into %a[%c1, %c2] : tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}

// CONVERT-LABEL: util.func public @extract(
// CONVERT:         %[[A:.*]] = stream.async.cast {{.*}} -> !stream.resource<*>{%[[ASIZE:.*]]}
// CONVERT:         %[[ONE:.*]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<1x1xf32> : index
// CONVERT:         %[[S:.*]] = stream.tensor.slice on(#hal.device.affinity<@__device_0>) %[[A]][%[[C1:.*]], %[[C1]] for %[[L:.*]], %[[L]]] : tensor<4x6xf32> in !stream.resource<*>{%[[ASIZE]]} -> tensor<1x1xf32> in !stream.resource<*>{%[[ONE]]}
// CONVERT:         %[[T:.*]] = stream.async.transfer %[[S]] : !stream.resource<*>{%[[ONE]]} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<staging>{%[[ONE]]}
// CONVERT:         %[[V:.*]] = stream.tensor.load %[[T]][%[[C0:.*]], %[[C0]]] : tensor<1x1xf32> in !stream.resource<staging>{%[[ONE]]} -> f32
// CONVERT:         util.return %[[V]] : f32
// CONVERT-LABEL: util.func public @sum(
// CONVERT:         %[[M:.*]] = stream.tensor.dispatch {{.*}} -> tensor<i32> in !stream.resource<*>{%[[MSIZE:.*]]}
// CONVERT-NOT:     stream.tensor.slice
// CONVERT:         %[[T:.*]] = stream.async.transfer %[[M]] : !stream.resource<*>{%[[MSIZE]]} {{.*}} !stream.resource<staging>{%[[MSIZE]]}
// CONVERT:         stream.tensor.load %[[T]] : tensor<i32> in !stream.resource<staging>{%[[MSIZE]]} -> i32
// CONVERT-LABEL: util.func public @insert(
// CONVERT-SAME:    %[[X:[a-z0-9]+]]: f32
// CONVERT:         %[[A:.*]] = stream.async.cast {{.*}} -> !stream.resource<*>{%[[ASIZE:.*]]}
// CONVERT:         %[[COPY:.*]] = stream.async.clone on(#hal.device.affinity<@__device_0>) %[[A]]
// CONVERT:         stream.tensor.fill on(#hal.device.affinity<@__device_0>) %[[X]], %[[COPY]][%{{.*}}, %{{.*}} for %{{.*}}, %{{.*}}] : f32 -> tensor<4x6xf32> in %[[COPY]] as !stream.resource<*>{%[[ASIZE]]}

// Element [1, 1] of 4x6xf32 is bytes [28, 32); the slice is read at offset 0.
// ENCODE-LABEL: util.func public @extract(
// ENCODE:         %[[S:.*]] = stream.async.slice on(#hal.device.affinity<@__device_0>) %{{.*}}[%c28 to %c32] : !stream.resource<*>{%c96} -> !stream.resource<*>{%c4}
// ENCODE:         %[[T:.*]] = stream.async.transfer %[[S]] : !stream.resource<*>{%c4} {{.*}} !stream.resource<staging>{%c4}
// ENCODE:         stream.async.load %[[T]][%c0] : !stream.resource<staging>{%c4} -> f32
// Element [1, 2] is bytes [32, 36): exactly four bytes are filled with the value's bits.
// ENCODE-LABEL: util.func public @insert(
// ENCODE-SAME:    %[[X:[a-z0-9]+]]: f32
// ENCODE:         %[[COPY:.*]] = stream.async.clone
// ENCODE:         %[[BITS:.*]] = arith.bitcast %[[X]] : f32 to i32
// ENCODE:         stream.async.fill on(#hal.device.affinity<@__device_0>) %[[BITS]], %[[COPY]][%c32 to %c36 for %c4] : i32 -> %[[COPY]] as !stream.resource<*>{%c96}

// IREE's command schedule: copy the element out, copy it into staging, flush; the host reads
// the staging buffer after the await.
// CMD-LABEL: util.func public @extract(
// CMD:         %[[STAGING:.*]], %{{.*}} = stream.resource.alloca uninitialized on(#hal.device.affinity<@__device_0>) : !stream.resource<staging>{%c4}
// CMD:         stream.cmd.execute
// CMD-SAME:      %[[STAGING]] as %[[ARG:[^:]+]]: !stream.resource<staging>{%c4}
// CMD:           stream.cmd.copy %{{.*}}[%c28], %[[TMP:.*]][%c0], %c4
// CMD-NEXT:      stream.cmd.copy %[[TMP]][%c0], %[[ARG]][%c0], %c4 : !stream.resource<transient>{%{{.*}}} -> !stream.resource<staging>{%c4}
// CMD-NEXT:      stream.cmd.flush %[[ARG]][%c0 for %c4] : !stream.resource<staging>{%c4}
// CMD:         %[[READY:.*]] = stream.timepoint.await %{{.*}} => %[[STAGING]] : !stream.resource<staging>{%c4}
// CMD:         %[[V:.*]] = stream.resource.load %[[READY]][%c0] : !stream.resource<staging>{%c4} -> f32
// CMD:         util.return %[[V]] : f32
// CMD-LABEL: util.func public @sum(
// CMD:           stream.cmd.dispatch
// CMD:           stream.cmd.copy %{{.*}}[%c0], %{{.*}}[%c0], %c4 : !stream.resource<transient>{%{{.*}}} -> !stream.resource<staging>{%c4}
// CMD-NEXT:      stream.cmd.flush
// CMD:         stream.resource.load {{.*}} -> i32
// CMD-LABEL: util.func public @insert(
// CMD:           stream.cmd.copy
// CMD-NEXT:      stream.cmd.fill %{{.*}}, %{{.*}}[%c32 for %c4] : i32 -> !stream.resource<external>{%c96}
