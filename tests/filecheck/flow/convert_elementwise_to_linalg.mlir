// RUN: ireelab-opt %s -p convert-elementwise-to-linalg | filecheck %s

// arith/math on whole tensors become identity-map generics with the scalar op as body.
util.func public @f(%a: tensor<4x2xf32>, %b: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %0 = arith.addf %a, %b : tensor<4x2xf32>
  %1 = math.exp %0 : tensor<4x2xf32>
  util.return %1 : tensor<4x2xf32>
}
// CHECK:      %[[E0:.*]] = tensor.empty() : tensor<4x2xf32>
// CHECK-NEXT: %[[ADD:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%{{.*}}, %{{.*}} : tensor<4x2xf32>, tensor<4x2xf32>) outs(%[[E0]] : tensor<4x2xf32>)
// CHECK:        arith.addf %{{.*}}, %{{.*}} : f32
// CHECK:      linalg.generic
// CHECK:        math.exp %{{.*}} : f32
// CHECK-NOT:  arith.addf %{{.*}} : tensor

// A select of whole tensors by a scalar condition: the condition is an input read through a
// map with no results (MLIR's mapping of scalar operands), so the select runs in a dispatch.
util.func public @select_by_scalar(%c: i1, %a: tensor<5xf32>, %b: tensor<5xf32>) -> tensor<5xf32> {
  %0 = arith.select %c, %a, %b : tensor<5xf32>
  util.return %0 : tensor<5xf32>
}
// CHECK-LABEL: util.func public @select_by_scalar
// CHECK:      %[[E:.*]] = tensor.empty() : tensor<5xf32>
// CHECK-NEXT: linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%{{.*}}, %{{.*}}, %{{.*}} : i1, tensor<5xf32>, tensor<5xf32>) outs(%[[E]] : tensor<5xf32>)
// CHECK:      ^bb0(%[[C:.*]]: i1, %[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK:        arith.select %[[C]], %[[A]], %[[B]] : f32
