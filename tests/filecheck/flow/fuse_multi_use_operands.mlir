// RUN: ireelab-opt %s -p iree-dispatch-creation-fuse-multi-use-elementwise-producer | filecheck %s

// A 0-d producer read by a 1-d consumer (a broadcast) and used again after it: IREE fuses
// multi-use producers of the consumer's own iteration space only, so both generics stay.
util.func public @broadcast_consumer(%a: tensor<f32>) -> (tensor<8xf32>, tensor<f32>) {
  %e0 = tensor.empty() : tensor<f32>
  %p = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%a : tensor<f32>) outs(%e0 : tensor<f32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.log %x : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  %e1 = tensor.empty() : tensor<8xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%p : tensor<f32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = arith.addf %x, %x : f32
    linalg.yield %t : f32
  } -> tensor<8xf32>
  %q = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%p : tensor<f32>) outs(%e0 : tensor<f32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<f32>
  util.return %c, %q : tensor<8xf32>, tensor<f32>
}
// CHECK-LABEL: util.func public @broadcast_consumer
// CHECK:         %[[P:.*]] = linalg.generic
// CHECK:           math.log
// CHECK:         linalg.generic {{.*}} ins(%[[P]] : tensor<f32>) outs(%{{.*}} : tensor<8xf32>)
// CHECK:           arith.addf

// The consumer reads two results of one producer (a generic fused earlier that returns its
// producer's value too). Every read of the producer fuses at once, as MLIR's fusion does
// (fusing one of the two would leave the fused op reading its own result); the other user
// (the negf) fuses next.
util.func public @two_results_read(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%e, %e : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%x: f32, %o0: f32, %o1: f32):
    %s = math.log %x : f32
    %t = arith.mulf %s, %x : f32
    linalg.yield %s, %t : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  %c = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%r#1, %r#0 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %u = arith.subf %x, %y : f32
    linalg.yield %u : f32
  } -> tensor<4xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%r#0 : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<4xf32>
  util.return %c, %d : tensor<4xf32>, tensor<4xf32>
}
// CHECK-LABEL: util.func public @two_results_read
// CHECK:         linalg.generic {{.*}} ins(%{{.*}} : tensor<4xf32>)
// CHECK:           %[[S:.*]] = math.log
// CHECK:           %[[T:.*]] = arith.mulf %[[S]]
// CHECK:           arith.subf %[[T]], %[[S]]
// CHECK:           arith.negf %[[S]]
// CHECK-NOT:     linalg.generic
