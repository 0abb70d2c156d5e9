// FOUND: test_mixed_programs (shrunk by hand): a matmul chain A*A, (A*A)*(A*A) next to A*B
func.func @f(%arg0: tensor<4x4xf32>, %arg1: tensor<4x5xf32>) -> (tensor<4x4xf32>, tensor<4x5xf32>) {
  %c = arith.constant 0.000000e+00 : f32
  %e1 = tensor.empty() : tensor<4x4xf32>
  %f1 = linalg.fill ins(%c : f32) outs(%e1 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %v1 = linalg.matmul ins(%arg0, %arg0 : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f1 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %v2 = linalg.matmul ins(%v1, %v1 : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f1 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %e3 = tensor.empty() : tensor<4x5xf32>
  %f3 = linalg.fill ins(%c : f32) outs(%e3 : tensor<4x5xf32>) -> tensor<4x5xf32>
  %v3 = linalg.matmul ins(%arg0, %arg1 : tensor<4x4xf32>, tensor<4x5xf32>) outs(%f3 : tensor<4x5xf32>) -> tensor<4x5xf32>
  return %v2, %v3 : tensor<4x4xf32>, tensor<4x5xf32>
}
