// RUN: ireelab-opt %s -p iree-dispatch-creation-fold-reshapes-into-tensor-barriers | filecheck %s

// A collapse of a barrier's value moves above the barrier: the barrier fences the collapsed
// value, which the generic reads.
util.func public @collapse_above_start(%x: tensor<4x6xf32>) -> tensor<24xf32> {
  %s = iree_tensor_ext.compute_barrier.start %x : tensor<4x6xf32> -> tensor<4x6xf32>
  %c = tensor.collapse_shape %s [[0, 1]] : tensor<4x6xf32> into tensor<24xf32>
  %e = tensor.empty() : tensor<24xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%c : tensor<24xf32>) outs(%e : tensor<24xf32>) {
  ^bb0(%a: f32, %out: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<24xf32>
  %d = iree_tensor_ext.compute_barrier.end %g : tensor<24xf32> -> tensor<24xf32>
  util.return %d : tensor<24xf32>
}
// CHECK-LABEL: util.func public @collapse_above_start
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<4x6xf32>
// CHECK:       %[[C:.+]] = tensor.collapse_shape %[[X]]
// CHECK:       %[[S:.+]] = iree_tensor_ext.compute_barrier.start %[[C]] : tensor<24xf32> -> tensor<24xf32>
// CHECK:       linalg.generic {{.*}} ins(%[[S]] : tensor<24xf32>)

// An expand feeding an end barrier moves below it: the barrier fences the generic's result.
util.func public @expand_below_end(%x: tensor<24xf32>) -> tensor<4x6xf32> {
  %s = iree_tensor_ext.compute_barrier.start %x : tensor<24xf32> -> tensor<24xf32>
  %e = tensor.empty() : tensor<24xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%s : tensor<24xf32>) outs(%e : tensor<24xf32>) {
  ^bb0(%a: f32, %out: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<24xf32>
  %v = tensor.expand_shape %g [[0, 1]] output_shape [4, 6] : tensor<24xf32> into tensor<4x6xf32>
  %d = iree_tensor_ext.compute_barrier.end %v : tensor<4x6xf32> -> tensor<4x6xf32>
  util.return %d : tensor<4x6xf32>
}
// CHECK-LABEL: util.func public @expand_below_end
// CHECK:       %[[G:.+]] = linalg.generic
// CHECK:       %[[D:.+]] = iree_tensor_ext.compute_barrier.end %[[G]] : tensor<24xf32> -> tensor<24xf32>
// CHECK:       %[[V:.+]] = tensor.expand_shape %[[D]] {{.+}} output_shape [4, 6] : tensor<24xf32> into tensor<4x6xf32>
// CHECK:       util.return %[[V]]
