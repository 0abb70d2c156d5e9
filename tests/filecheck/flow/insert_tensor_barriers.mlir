// RUN: ireelab-opt %s -p iree-dispatch-creation-insert-tensor-barriers | filecheck %s

// Arguments read by compute get a compute_barrier.start (inserted at the top of the body, so
// the last argument's comes first); the result only returned gets a compute_barrier.end right
// after its generic, before the consumer of the other result; a result read by compute gets
// none.
util.func public @two_results(%a: tensor<4x6xf32>, %b: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>) {
  %e = tensor.empty() : tensor<4x6xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x6xf32>, tensor<4x6xf32>) outs(%e, %e : tensor<4x6xf32>, tensor<4x6xf32>) {
  ^bb0(%x: f32, %y: f32, %o0: f32, %o1: f32):
    %s = arith.addf %x, %y : f32
    %p = arith.mulf %x, %y : f32
    linalg.yield %s, %p : f32, f32
  } -> (tensor<4x6xf32>, tensor<4x6xf32>)
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r#1 : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = arith.addf %x, %x : f32
    linalg.yield %t : f32
  } -> tensor<4x6xf32>
  util.return %r#0, %c : tensor<4x6xf32>, tensor<4x6xf32>
}
// CHECK-LABEL: util.func public @two_results
// CHECK-SAME:    (%[[A:.+]]: tensor<4x6xf32>, %[[B:.+]]: tensor<4x6xf32>)
// CHECK:         %[[SB:.+]] = iree_tensor_ext.compute_barrier.start %[[B]] : tensor<4x6xf32> -> tensor<4x6xf32>
// CHECK:         %[[SA:.+]] = iree_tensor_ext.compute_barrier.start %[[A]] : tensor<4x6xf32> -> tensor<4x6xf32>
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[SA]], %[[SB]] :
// CHECK-NEXT:    ^bb0
// CHECK:         } -> (tensor<4x6xf32>, tensor<4x6xf32>)
// CHECK-NEXT:    %[[E0:.+]] = iree_tensor_ext.compute_barrier.end %{{.+}} : tensor<4x6xf32> -> tensor<4x6xf32>
// CHECK-NEXT:    %[[C:.+]] = linalg.generic
// CHECK:         %[[E1:.+]] = iree_tensor_ext.compute_barrier.end %[[C]] : tensor<4x6xf32> -> tensor<4x6xf32>
// CHECK-NEXT:    util.return %[[E0]], %[[E1]]

// A result returned and read by a compute op: no end barrier, the return reads it directly.
util.func public @returned_and_consumed(%a: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%n : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  util.return %n, %d : tensor<8xf32>, tensor<8xf32>
}
// CHECK-LABEL: util.func public @returned_and_consumed
// CHECK:         %[[N:.+]] = linalg.generic
// CHECK-NOT:     compute_barrier.end %[[N]]
// CHECK:         %[[D:.+]] = linalg.generic
// CHECK:         %[[ED:.+]] = iree_tensor_ext.compute_barrier.end %[[D]]
// CHECK-NEXT:    util.return %[[N]], %[[ED]]

// Values reached from the arguments through non-compute ops (hal.tensor.import) are fenced
// where they enter compute; tensor.dim and the return keep reading the unfenced value; a scalar
// argument gets no barrier.
util.func public @through_import(%v: !hal.buffer_view, %s: f32) -> (tensor<4xf32>, tensor<4xf32>, index) {
  %t = hal.tensor.import %v "input0" : !hal.buffer_view -> tensor<4xf32>
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %t, %c0 : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%s : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%t : tensor<4xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %o : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  util.return %t, %r, %dim : tensor<4xf32>, tensor<4xf32>, index
}
// CHECK-LABEL: util.func public @through_import
// CHECK-NOT:     compute_barrier.start %{{.*}} : f32
// CHECK:         %[[T:.+]] = hal.tensor.import
// CHECK-NEXT:    %[[ST:.+]] = iree_tensor_ext.compute_barrier.start %[[T]] : tensor<4xf32> -> tensor<4xf32>
// CHECK:         tensor.dim %[[T]]
// CHECK:         linalg.generic {{.*}} ins(%[[ST]] :
// CHECK:         %[[ER:.+]] = iree_tensor_ext.compute_barrier.end
// CHECK:         util.return %[[T]], %[[ER]]
