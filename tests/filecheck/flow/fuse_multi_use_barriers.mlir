// RUN: ireelab-opt %s -p iree-dispatch-creation-fuse-multi-use-elementwise-producer | filecheck %s

// The first result of a two-result generic leaves through a compute_barrier.end placed before
// the consumer of the second result: the consumer does not dominate every use of the producer,
// so nothing fuses.
util.func public @barrier_before_consumer(%a: tensor<4x6xf32>, %b: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>) {
  %e = tensor.empty() : tensor<4x6xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x6xf32>, tensor<4x6xf32>) outs(%e, %e : tensor<4x6xf32>, tensor<4x6xf32>) {
  ^bb0(%x: f32, %y: f32, %o0: f32, %o1: f32):
    %s = arith.addf %x, %y : f32
    %p = arith.mulf %x, %y : f32
    linalg.yield %s, %p : f32, f32
  } -> (tensor<4x6xf32>, tensor<4x6xf32>)
  %end0 = iree_tensor_ext.compute_barrier.end %r#0 : tensor<4x6xf32> -> tensor<4x6xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r#1 : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = arith.addf %x, %x : f32
    linalg.yield %t : f32
  } -> tensor<4x6xf32>
  %end1 = iree_tensor_ext.compute_barrier.end %c : tensor<4x6xf32> -> tensor<4x6xf32>
  util.return %end0, %end1 : tensor<4x6xf32>, tensor<4x6xf32>
}
// CHECK-LABEL: util.func public @barrier_before_consumer
// CHECK:         arith.addf
// CHECK:         arith.mulf
// CHECK:         compute_barrier.end
// CHECK:         linalg.generic
// CHECK:         arith.addf
// CHECK:         compute_barrier.end

// A single result read by the consumer and returned after it (no barrier: it has a compute
// user): the consumer comes before the other use, so the producer fuses into it and the fused
// generic returns both values.
util.func public @returned_after_consumer(%a: tensor<4x6xf32>, %b: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>) {
  %e = tensor.empty() : tensor<4x6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x6xf32>, tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = arith.addf %x, %x : f32
    linalg.yield %t : f32
  } -> tensor<4x6xf32>
  %end1 = iree_tensor_ext.compute_barrier.end %c : tensor<4x6xf32> -> tensor<4x6xf32>
  util.return %r, %end1 : tensor<4x6xf32>, tensor<4x6xf32>
}
// CHECK-LABEL: util.func public @returned_after_consumer
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.+}}, %{{.+}} : tensor<4x6xf32>, tensor<4x6xf32>)
// CHECK:           %[[S:.+]] = arith.addf
// CHECK-NEXT:      %[[T:.+]] = arith.addf %[[S]], %[[S]]
// CHECK-NEXT:      linalg.yield %[[S]], %[[T]]
// CHECK:         } -> (tensor<4x6xf32>, tensor<4x6xf32>)
// CHECK-NOT:     linalg.generic
// CHECK:         util.return
