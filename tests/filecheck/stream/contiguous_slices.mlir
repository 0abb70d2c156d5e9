// RUN: ireelab-compile %s --compile-to=stream --mlir-print-ir-after=iree-stream-conversion -o /dev/null 2>&1 | filecheck %s --check-prefix=CONVERT
// RUN: ireelab-compile %s --compile-to=stream --mlir-print-ir-after=iree-stream-encode-host-tensors -o /dev/null 2>&1 | filecheck %s --check-prefix=ENCODE
// RUN: ireelab-compile %s --compile-to=stream | filecheck %s --check-prefix=CMD

// A contiguous slice reads one run of bytes; an update writes one run into its target, which
// is still read by the slice and so is copied first (copy-on-write).
func.func @contig(%a: tensor<8x16xf32>, %b: tensor<2x16xf32>) -> (tensor<2x16xf32>, tensor<8x16xf32>) {
  %s = tensor.extract_slice %a[2, 0] [2, 16] [1, 1] : tensor<8x16xf32> to tensor<2x16xf32>
  %u = tensor.insert_slice %b into %a[5, 0] [2, 16] [1, 1] : tensor<2x16xf32> into tensor<8x16xf32>
  return %s, %u : tensor<2x16xf32>, tensor<8x16xf32>
}

// A concat on the outer dimension is an empty tensor and a chain of tied updates.
func.func @concat0(%a: tensor<2x4xf32>, %b: tensor<3x4xf32>, %c: tensor<1x4xf32>) -> tensor<6x4xf32> {
  %r = tensor.concat dim(0) %a, %b, %c : (tensor<2x4xf32>, tensor<3x4xf32>, tensor<1x4xf32>) -> tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}

// CONVERT-LABEL: util.func public @contig(
// CONVERT:         %[[A:.*]] = stream.async.cast {{.*}} -> !stream.resource<*>{%[[ASIZE:.*]]}
// CONVERT:         %[[B:.*]] = stream.async.cast {{.*}} -> !stream.resource<*>{%[[BSIZE:.*]]}
// CONVERT:         %[[SSIZE:.*]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<2x16xf32> : index
// CONVERT:         stream.tensor.slice on(#hal.device.affinity<@__device_0>) %[[A]][%{{.*}}, %{{.*}} for %{{.*}}, %{{.*}}] : tensor<8x16xf32> in !stream.resource<*>{%[[ASIZE]]} -> tensor<2x16xf32> in !stream.resource<*>{%[[SSIZE]]}
// CONVERT:         %[[COPY:.*]] = stream.async.clone on(#hal.device.affinity<@__device_0>) %[[A]]
// CONVERT:         stream.tensor.update on(#hal.device.affinity<@__device_0>) %[[B]], %[[COPY]][%{{.*}}, %{{.*}}] : tensor<2x16xf32> in !stream.resource<*>{%[[BSIZE]]} -> tensor<8x16xf32> in %[[COPY]] as !stream.resource<*>{%[[ASIZE]]}
// CONVERT-LABEL: util.func public @concat0(
// CONVERT:         %[[E:.*]] = stream.tensor.empty on(#hal.device.affinity<@__device_0>) : tensor<6x4xf32> in !stream.resource<*>{%{{.*}}}
// CONVERT:         %[[U0:.*]] = stream.tensor.update {{.*}}, %[[E]][%{{.*}}, %{{.*}}] : tensor<2x4xf32> in {{.*}} -> tensor<6x4xf32> in %[[E]] as
// CONVERT:         %[[U1:.*]] = stream.tensor.update {{.*}}, %[[U0]][
// CONVERT:         stream.tensor.update {{.*}}, %[[U1]][

// Rows 2-3 of 8x16xf32 are bytes [128, 256); rows 5-6 are [320, 448).
// ENCODE-LABEL: util.func public @contig(
// ENCODE:         stream.async.slice on(#hal.device.affinity<@__device_0>) %{{.*}}[%c128 to %c256] : !stream.resource<*>{%c512} -> !stream.resource<*>{%c128}
// ENCODE:         %[[COPY:.*]] = stream.async.clone
// ENCODE:         stream.async.update on(#hal.device.affinity<@__device_0>) %{{.*}}, %[[COPY]][%c320 to %c448] : !stream.resource<*>{%c128} -> %[[COPY]] as !stream.resource<*>{%c512}
// ENCODE-LABEL: util.func public @concat0(
// ENCODE:         %[[E:.*]] = stream.async.alloca on(#hal.device.affinity<@__device_0>) : !stream.resource<*>{%c96}
// ENCODE:         %[[U0:.*]] = stream.async.update {{.*}}, %[[E]][%c0 to %c32] : !stream.resource<*>{%c32} -> %[[E]] as !stream.resource<*>{%c96}
// ENCODE:         %[[U1:.*]] = stream.async.update {{.*}}, %[[U0]][%c32 to %c80] : !stream.resource<*>{%c48} -> %[[U0]] as !stream.resource<*>{%c96}
// ENCODE:         stream.async.update {{.*}}, %[[U1]][%c80 to %c96] : !stream.resource<*>{%c16} -> %[[U1]] as !stream.resource<*>{%c96}

// As IREE 3.13 schedules them: the slice and the copy-on-write together, then the update; the
// three concat copies in one concurrent block, into one result allocation.
// CMD-LABEL: util.func public @contig(
// CMD:         %[[RES:.*]], %[[RT:.*]] = stream.resource.alloca uninitialized on(#hal.device.affinity<@__device_0>) : !stream.resource<external>{%c640} => !stream.timepoint
// CMD:         stream.cmd.execute on(#hal.device.affinity<@__device_0>) await(%[[RT]]) => with(%{{.*}} as %[[A:.*]]: !stream.resource<external>{%c512}, %{{.*}} as %[[B:.*]]: !stream.resource<external>{%c128}, %[[RES]] as %[[R:.*]]: !stream.resource<external>{%c640}) {
// CMD-NEXT:      stream.cmd.concurrent {
// CMD-NEXT:        stream.cmd.copy %[[A]][%c128], %[[R]][%c0], %c128 : !stream.resource<external>{%c512} -> !stream.resource<external>{%c640}
// CMD-NEXT:        stream.cmd.copy %[[A]][%c0], %[[R]][%c128], %c512 : !stream.resource<external>{%c512} -> !stream.resource<external>{%c640}
// CMD-NEXT:      }
// CMD-NEXT:      stream.cmd.copy %[[B]][%c0], %[[R]][%c448], %c128 : !stream.resource<external>{%c128} -> !stream.resource<external>{%c640}
// CMD-NEXT:    } => !stream.timepoint
// CMD:         stream.resource.subview %{{.*}}[%c0] : !stream.resource<external>{%c640} -> !stream.resource<external>{%c128}
// CMD:         stream.resource.subview %{{.*}}[%c128] : !stream.resource<external>{%c640} -> !stream.resource<external>{%c512}
// CMD-LABEL: util.func public @concat0(
// CMD:         stream.cmd.execute
// CMD-NEXT:      stream.cmd.concurrent {
// CMD-NEXT:        stream.cmd.copy %{{.*}}[%c0], %[[R:.*]][%c0], %c32 : !stream.resource<external>{%c32} -> !stream.resource<external>{%c96}
// CMD-NEXT:        stream.cmd.copy %{{.*}}[%c0], %[[R]][%c32], %c48 : !stream.resource<external>{%c48} -> !stream.resource<external>{%c96}
// CMD-NEXT:        stream.cmd.copy %{{.*}}[%c0], %[[R]][%c80], %c16 : !stream.resource<external>{%c16} -> !stream.resource<external>{%c96}
// CMD-NEXT:      }
