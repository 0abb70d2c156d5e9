// RUN: ireelab-opt %s -p iree-dispatch-creation-fusion-preprocessing | filecheck %s

// A transpose (input read through [1, 0, 2]) is interchanged: the input reads in order, the
// output map carries the permutation.
util.func public @transpose(%x: tensor<2x3x4xf32>) -> tensor<3x2x4xf32> {
  %e = tensor.empty() : tensor<3x2x4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<2x3x4xf32>) outs(%e : tensor<3x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<3x2x4xf32>
  util.return %t : tensor<3x2x4xf32>
}
// CHECK-LABEL: util.func public @transpose
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{.*}} : tensor<2x3x4xf32>) outs(%{{.*}} : tensor<3x2x4xf32>)

// Inputs read through the same permutation; linalg.index follows its loop to the new position.
util.func public @same_permutation(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %e = tensor.empty() : tensor<3x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    %s = arith.addf %x, %y : f32
    %v = arith.mulf %s, %f : f32
    linalg.yield %v : f32
  } -> tensor<3x2xf32>
  util.return %r : tensor<3x2xf32>
}
// CHECK-LABEL: util.func public @same_permutation
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>]
// CHECK:         linalg.index 1 : index
// CHECK-NOT:     linalg.index 0

// Inputs read through different maps: left alone.
util.func public @mixed_maps(%a: tensor<3x3xf32>, %b: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %e = tensor.empty() : tensor<3x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<3x3xf32>, tensor<3x3xf32>) outs(%e : tensor<3x3xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<3x3xf32>
  util.return %r : tensor<3x3xf32>
}
// CHECK-LABEL: util.func public @mixed_maps
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]

// A reduction is not elementwise: left alone.
util.func public @reduction(%a: tensor<3x4xf32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<3x4xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%x: f32, %out: f32):
    %s = arith.addf %x, %out : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  util.return %r : tensor<4xf32>
}
// CHECK-LABEL: util.func public @reduction
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>]

// Two results: left alone (IREE interchanges single-result generics only).
util.func public @two_results(%a: tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<3x2xf32>) {
  %e = tensor.empty() : tensor<3x2xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<2x3xf32>) outs(%e, %e : tensor<3x2xf32>, tensor<3x2xf32>) {
  ^bb0(%x: f32, %o0: f32, %o1: f32):
    %n = arith.negf %x : f32
    linalg.yield %x, %n : f32, f32
  } -> (tensor<3x2xf32>, tensor<3x2xf32>)
  util.return %r#0, %r#1 : tensor<3x2xf32>, tensor<3x2xf32>
}
// CHECK-LABEL: util.func public @two_results
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK:       -> (tensor<3x2xf32>, tensor<3x2xf32>)

// Two inserts into fills of one value fold into one insert at the summed offsets; the inner
// fill goes.
util.func public @pad_of_pad(%x: tensor<3x4xf32>) -> tensor<7x9xf32> {
  %c0 = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4x7xf32>
  %f1 = linalg.fill ins(%c0 : f32) outs(%e1 : tensor<4x7xf32>) -> tensor<4x7xf32>
  %i1 = tensor.insert_slice %x into %f1[1, 2] [3, 4] [1, 1] : tensor<3x4xf32> into tensor<4x7xf32>
  %e2 = tensor.empty() : tensor<7x9xf32>
  %f2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<7x9xf32>) -> tensor<7x9xf32>
  %i2 = tensor.insert_slice %i1 into %f2[2, 1] [4, 7] [1, 1] : tensor<4x7xf32> into tensor<7x9xf32>
  util.return %i2 : tensor<7x9xf32>
}
// CHECK-LABEL: util.func public @pad_of_pad
// CHECK-NOT:   tensor<4x7xf32>
// CHECK:       %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<7x9xf32>)
// CHECK-NEXT:  tensor.insert_slice %{{.*}} into %[[FILL]][3, 3] [3, 4] [1, 1] : tensor<3x4xf32> into tensor<7x9xf32>

// Fills of different values: the inner insert stays.
util.func public @different_fills(%x: tensor<3x4xf32>) -> tensor<7x9xf32> {
  %c0 = arith.constant 0.0 : f32
  %c1 = arith.constant 1.0 : f32
  %e1 = tensor.empty() : tensor<4x7xf32>
  %f1 = linalg.fill ins(%c0 : f32) outs(%e1 : tensor<4x7xf32>) -> tensor<4x7xf32>
  %i1 = tensor.insert_slice %x into %f1[1, 2] [3, 4] [1, 1] : tensor<3x4xf32> into tensor<4x7xf32>
  %e2 = tensor.empty() : tensor<7x9xf32>
  %f2 = linalg.fill ins(%c1 : f32) outs(%e2 : tensor<7x9xf32>) -> tensor<7x9xf32>
  %i2 = tensor.insert_slice %i1 into %f2[2, 1] [4, 7] [1, 1] : tensor<4x7xf32> into tensor<7x9xf32>
  util.return %i2 : tensor<7x9xf32>
}
// CHECK-LABEL: util.func public @different_fills
// CHECK:       tensor.insert_slice %{{.*}} into %{{.*}}[1, 2] [3, 4] [1, 1] : tensor<3x4xf32> into tensor<4x7xf32>
// CHECK:       tensor.insert_slice %{{.*}} into %{{.*}}[2, 1] [4, 7] [1, 1] : tensor<4x7xf32> into tensor<7x9xf32>
