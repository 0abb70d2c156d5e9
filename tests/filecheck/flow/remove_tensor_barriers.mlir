// RUN: ireelab-opt %s -p iree-dispatch-creation-remove-tensor-barriers | filecheck %s

// Both barriers are identities: their users read the operands again.
util.func public @fenced(%a: tensor<8xf32>) -> tensor<8xf32> {
  %s = iree_tensor_ext.compute_barrier.start %a : tensor<8xf32> -> tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%s : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  %end = iree_tensor_ext.compute_barrier.end %n : tensor<8xf32> -> tensor<8xf32>
  util.return %end : tensor<8xf32>
}
// CHECK-LABEL: util.func public @fenced
// CHECK-SAME:    (%[[A:.+]]: tensor<8xf32>)
// CHECK-NOT:     compute_barrier
// CHECK:         %[[N:.+]] = linalg.generic {{.*}} ins(%[[A]] : tensor<8xf32>)
// CHECK-NOT:     compute_barrier
// CHECK:         util.return %[[N]]
