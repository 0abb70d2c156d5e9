// arith.constant dense tensors: a splat and an array of values, used by a matmul and an add.
func.func @constants(%a: tensor<2x3xf32>) -> tensor<2x2xf32> {
  %w = arith.constant dense<[[1.0, -2.0], [0.5, 3.0], [-1.0, 0.25]]> : tensor<3x2xf32>
  %bias = arith.constant dense<0.5> : tensor<2x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %m = linalg.matmul ins(%a, %w : tensor<2x3xf32>, tensor<3x2xf32>) outs(%f : tensor<2x2xf32>) -> tensor<2x2xf32>
  %r = arith.addf %m, %bias : tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
