// FOUND: random program (shrunk by hand): an unused tensor<1xf32> argument before a matmul
func.func @f(%arg0: tensor<1xf32>, %arg1: tensor<5x2xf32>, %arg2: tensor<2x4xf32>) -> tensor<5x4xf32> {
  %e = tensor.empty() : tensor<5x4xf32>
  %c = arith.constant 0.000000e+00 : f32
  %fill = linalg.fill ins(%c : f32) outs(%e : tensor<5x4xf32>) -> tensor<5x4xf32>
  %v = linalg.matmul ins(%arg1, %arg2 : tensor<5x2xf32>, tensor<2x4xf32>) outs(%fill : tensor<5x4xf32>) -> tensor<5x4xf32>
  return %v : tensor<5x4xf32>
}
