// RUN: ireelab-opt %s -p iree-dispatch-creation-bubble-up-expand-shapes | filecheck %s

// A bias broadcast viewed 5-D by an expand_shape (a grouped convolution's accumulator): the
// broadcast is built 5-D, its constant input folded to the 2x3 view, the empty expanded.
util.func public @broadcast_then_expand(%x: tensor<4x2x3x5xf32>) -> tensor<4x2x3x5xf32> {
  %cst = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf32>
  %e = tensor.empty() : tensor<4x6x5xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst : tensor<6xf32>) outs(%e : tensor<4x6x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x6x5xf32>
  %v = tensor.expand_shape %b [[0], [1, 2], [3]] output_shape [4, 2, 3, 5] : tensor<4x6x5xf32> into tensor<4x2x3x5xf32>
  %e2 = tensor.empty() : tensor<4x2x3x5xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %v : tensor<4x2x3x5xf32>, tensor<4x2x3x5xf32>) outs(%e2 : tensor<4x2x3x5xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %r = arith.addf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<4x2x3x5xf32>
  util.return %s : tensor<4x2x3x5xf32>
}
// CHECK-LABEL: util.func public @broadcast_then_expand
// CHECK-DAG:   %[[CST:.+]] = arith.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>
// CHECK-DAG:   %[[E:.+]] = tensor.empty() : tensor<4x2x3x5xf32>
// CHECK:       %[[B:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[CST]] : tensor<2x3xf32>) outs(%[[E]] : tensor<4x2x3x5xf32>)
// CHECK-NOT:   tensor.expand_shape
// CHECK:       linalg.generic {{.*}} ins(%{{.*}}, %[[B]] : tensor<4x2x3x5xf32>, tensor<4x2x3x5xf32>)

// The same with a `?` batch: the empty takes the batch size, the expand's output_shape value.
util.func public @dynamic_batch(%x: tensor<?x2x3x5xf32>, %n: index) -> tensor<?x2x3x5xf32> {
  %cst = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf32>
  %e = tensor.empty(%n) : tensor<?x6x5xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst : tensor<6xf32>) outs(%e : tensor<?x6x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<?x6x5xf32>
  %v = tensor.expand_shape %b [[0], [1, 2], [3]] output_shape [%n, 2, 3, 5] : tensor<?x6x5xf32> into tensor<?x2x3x5xf32>
  %e2 = tensor.empty(%n) : tensor<?x2x3x5xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %v : tensor<?x2x3x5xf32>, tensor<?x2x3x5xf32>) outs(%e2 : tensor<?x2x3x5xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %r = arith.addf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<?x2x3x5xf32>
  util.return %s : tensor<?x2x3x5xf32>
}
// CHECK-LABEL: util.func public @dynamic_batch
// CHECK-SAME:    %{{.+}}: tensor<?x2x3x5xf32>, %[[N:.+]]: index
// CHECK:       %[[E:.+]] = tensor.empty(%[[N]]) : tensor<?x2x3x5xf32>
// CHECK:       %[[B:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], {{.*}} ins(%{{.+}} : tensor<2x3xf32>) outs(%[[E]] : tensor<?x2x3x5xf32>)
// CHECK-NOT:   tensor.expand_shape
// CHECK:       linalg.generic {{.*}} ins(%{{.*}}, %[[B]] : tensor<?x2x3x5xf32>, tensor<?x2x3x5xf32>)

// A collapse_shape read by an elementwise generic sinks below it: the generic runs on the
// 3-D source, its other input is expanded, its result collapsed.
util.func public @collapse_then_elementwise(%x: tensor<4x2x3xf32>, %y: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %c = tensor.collapse_shape %x [[0], [1, 2]] : tensor<4x2x3xf32> into tensor<4x6xf32>
  %e = tensor.empty() : tensor<4x6xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c, %y : tensor<4x6xf32>, tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  util.return %s : tensor<4x6xf32>
}
// CHECK-LABEL: util.func public @collapse_then_elementwise
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<4x2x3xf32>, %[[Y:[a-z0-9]+]]: tensor<4x6xf32>
// CHECK:       %[[YE:.+]] = tensor.expand_shape %[[Y]] {{.+}} output_shape [4, 2, 3] : tensor<4x6xf32> into tensor<4x2x3xf32>
// CHECK:       %[[G:.+]] = linalg.generic {{.*}} ins(%[[X]], %[[YE]] : tensor<4x2x3xf32>, tensor<4x2x3xf32>) outs(%{{.+}} : tensor<4x2x3xf32>)
// CHECK:       tensor.collapse_shape %[[G]] {{.+}} : tensor<4x2x3xf32> into tensor<4x6xf32>

// A reduction producer keeps the expand below it (all loops must be parallel).
util.func public @reduction_keeps_expand(%x: tensor<6x8xf32>) -> tensor<2x3xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<6xf32>) -> tensor<6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<6x8xf32>) outs(%f : tensor<6xf32>) {
  ^bb0(%a: f32, %out: f32):
    %s = arith.addf %a, %out : f32
    linalg.yield %s : f32
  } -> tensor<6xf32>
  %v = tensor.expand_shape %r [[0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
  util.return %v : tensor<2x3xf32>
}
// CHECK-LABEL: util.func public @reduction_keeps_expand
// CHECK:       linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.+}} : tensor<6x8xf32>)
// CHECK:       tensor.expand_shape %{{.+}} output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>

// A linalg.index of a split loop becomes the linearisation of the new loops' indices.
util.func public @index_then_expand() -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<6xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e : tensor<6xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = arith.index_cast %i : index to i32
    %f = arith.sitofp %j : i32 to f32
    linalg.yield %f : f32
  } -> tensor<6xf32>
  %v = tensor.expand_shape %g [[0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
  util.return %v : tensor<2x3xf32>
}
// CHECK-LABEL: util.func public @index_then_expand
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%{{.+}} : tensor<2x3xf32>)
// CHECK-DAG:   %[[I0:.+]] = linalg.index 0 : index
// CHECK-DAG:   %[[I1:.+]] = linalg.index 1 : index
// CHECK-NOT:   tensor.expand_shape

// An expand adding a unit dim with no fusable user stays where it is.
util.func public @unit_expand_stays(%x: tensor<6xf32>) -> tensor<1x6xf32> {
  %e = tensor.empty() : tensor<6xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<6xf32>) outs(%e : tensor<6xf32>) {
  ^bb0(%a: f32, %out: f32):
    %s = arith.negf %a : f32
    linalg.yield %s : f32
  } -> tensor<6xf32>
  %v = tensor.expand_shape %g [[0, 1]] output_shape [1, 6] : tensor<6xf32> into tensor<1x6xf32>
  util.return %v : tensor<1x6xf32>
}
// CHECK-LABEL: util.func public @unit_expand_stays
// CHECK:       } -> tensor<6xf32>
// CHECK:       tensor.expand_shape %{{.+}} output_shape [1, 6] : tensor<6xf32> into tensor<1x6xf32>
