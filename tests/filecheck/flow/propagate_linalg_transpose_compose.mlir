// RUN: ireelab-opt %s -p iree-global-opt-propagate-linalg-transpose | filecheck %s

// Inverse generic transposes cancel: the reduction reads %x through its map, %t1 goes.
util.func public @inverse(%x: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> (tensor<8xf32>, tensor<4x8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<8x4xf32>
  %t1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e1 : tensor<8x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<8x4xf32>
  %e2 = tensor.empty() : tensor<8xf32>
  %f2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%t1 : tensor<8x4xf32>) outs(%f2 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %e3 = tensor.empty() : tensor<4x8xf32>
  %t2 = linalg.transpose ins(%t1 : tensor<8x4xf32>) outs(%e3 : tensor<4x8xf32>) permutation = [1, 0]
  util.return %r, %t2 : tensor<8xf32>, tensor<4x8xf32>
}
// CHECK-LABEL: util.func public @inverse(%x: tensor<4x8xf32>
// CHECK-NOT:     tensor<8x4xf32>
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>)
// CHECK:         util.return %[[R]], %x : tensor<8xf32>, tensor<4x8xf32>

// Non-inverse transposes compose into one ([1, 2, 0] then [0, 2, 1] is [1, 0, 2]); the inner
// one stays for its other reader, and each is generalised again at the end.
util.func public @compose(%x: tensor<2x3x4xf32>) -> (tensor<3x2x4xf32>, tensor<3x4x2xf32>) {
  %e1 = tensor.empty() : tensor<3x4x2xf32>
  %t1 = linalg.transpose ins(%x : tensor<2x3x4xf32>) outs(%e1 : tensor<3x4x2xf32>) permutation = [1, 2, 0]
  %e2 = tensor.empty() : tensor<3x2x4xf32>
  %t2 = linalg.transpose ins(%t1 : tensor<3x4x2xf32>) outs(%e2 : tensor<3x2x4xf32>) permutation = [0, 2, 1]
  util.return %t2, %t1 : tensor<3x2x4xf32>, tensor<3x4x2xf32>
}
// CHECK-LABEL: util.func public @compose(%x: tensor<2x3x4xf32>
// CHECK:         %[[T1:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], {{.*}} ins(%x : tensor<2x3x4xf32>)
// CHECK:         %[[T2:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], {{.*}} ins(%x : tensor<2x3x4xf32>)
// CHECK:         util.return %[[T2]], %[[T1]]
