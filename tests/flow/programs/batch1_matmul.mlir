func.func @bmm1(%a: tensor<1x32x16xf32>, %b: tensor<1x16x8xf32>) -> tensor<1x32x8xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x8xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x32x8xf32>) -> tensor<1x32x8xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<1x32x16xf32>, tensor<1x16x8xf32>) outs(%f : tensor<1x32x8xf32>) -> tensor<1x32x8xf32>
  return %r : tensor<1x32x8xf32>
}
