func.func @mm_ta(%a: tensor<16x32xf32>, %b: tensor<16x8xf32>) -> tensor<32x8xf32> {
  %c0 = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<32x16xf32>
  %t = linalg.transpose ins(%a : tensor<16x32xf32>) outs(%et : tensor<32x16xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<32x8xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<32x8xf32>) -> tensor<32x8xf32>
  %r = linalg.matmul ins(%t, %b : tensor<32x16xf32>, tensor<16x8xf32>) outs(%f : tensor<32x8xf32>) -> tensor<32x8xf32>
  return %r : tensor<32x8xf32>
}
