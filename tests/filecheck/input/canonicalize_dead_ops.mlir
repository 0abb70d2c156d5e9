// RUN: ireelab-opt %s -p canonicalize | filecheck %s

// Linalg ops on tensors have no side effect (MLIR's linalg memory effects): an unused chain
// of them goes, the generic read only by dead ops, the reduction, the matmul and their fills.
util.func public @dead_chain(%a: tensor<8x16xf32>, %w: tensor<16x4xf32>) -> tensor<8x16xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %d1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  %er = tensor.empty() : tensor<16xf32>
  %fr = linalg.fill ins(%c0 : f32) outs(%er : tensor<16xf32>) -> tensor<16xf32>
  %d2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%d1 : tensor<8x16xf32>) outs(%fr : tensor<16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.addf %x, %o : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %em = tensor.empty() : tensor<8x4xf32>
  %fm = linalg.fill ins(%c0 : f32) outs(%em : tensor<8x4xf32>) -> tensor<8x4xf32>
  %mm = linalg.matmul ins(%d1, %w : tensor<8x16xf32>, tensor<16x4xf32>) outs(%fm : tensor<8x4xf32>) -> tensor<8x4xf32>
  util.return %a : tensor<8x16xf32>
}
// CHECK-LABEL: util.func public @dead_chain
// CHECK-NEXT:    util.return %a

// A used linalg op stays, and so does what it reads.
util.func public @live(%a: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.negf %x : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  util.return %n : tensor<8xf32>
}
// CHECK-LABEL: util.func public @live
// CHECK:         tensor.empty
// CHECK-NEXT:    %[[N:.*]] = linalg.generic
// CHECK:         util.return %[[N]]

// linalg.transpose folds as in MLIR: composed into one transpose of the source
// (FoldTransposeWithTranspose), the identity one to its input (TransposeOp::fold).
util.func public @transposes(%x: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<3x2x4xf32>) {
  %e1 = tensor.empty() : tensor<3x4x2xf32>
  %t1 = linalg.transpose ins(%x : tensor<2x3x4xf32>) outs(%e1 : tensor<3x4x2xf32>) permutation = [1, 2, 0]
  %e2 = tensor.empty() : tensor<2x3x4xf32>
  %t2 = linalg.transpose ins(%t1 : tensor<3x4x2xf32>) outs(%e2 : tensor<2x3x4xf32>) permutation = [2, 0, 1]
  %e3 = tensor.empty() : tensor<3x2x4xf32>
  %t3 = linalg.transpose ins(%t1 : tensor<3x4x2xf32>) outs(%e3 : tensor<3x2x4xf32>) permutation = [0, 2, 1]
  util.return %t2, %t3 : tensor<2x3x4xf32>, tensor<3x2x4xf32>
}
// CHECK-LABEL: util.func public @transposes
// CHECK-NOT:     tensor<3x4x2xf32>
// CHECK:         %[[T:.*]] = linalg.transpose ins(%x:tensor<2x3x4xf32>) outs(%{{.*}}:tensor<3x2x4xf32>) permutation = [1, 0, 2]
// CHECK-NEXT:    util.return %x, %[[T]]
