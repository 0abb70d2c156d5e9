// linalg.matvec, linalg.vecmat and linalg.dot, each returned.
func.func @mvd(%m: tensor<6x8xf32>, %v: tensor<8xf32>, %u: tensor<6xf32>) -> (tensor<6xf32>, tensor<8xf32>, tensor<f32>) {
  %zero = arith.constant 0.0 : f32
  %e6 = tensor.empty() : tensor<6xf32>
  %f6 = linalg.fill ins(%zero : f32) outs(%e6 : tensor<6xf32>) -> tensor<6xf32>
  %mv = linalg.matvec ins(%m, %v : tensor<6x8xf32>, tensor<8xf32>) outs(%f6 : tensor<6xf32>) -> tensor<6xf32>
  %e8 = tensor.empty() : tensor<8xf32>
  %f8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %vm = linalg.vecmat ins(%u, %m : tensor<6xf32>, tensor<6x8xf32>) outs(%f8 : tensor<8xf32>) -> tensor<8xf32>
  %e0 = tensor.empty() : tensor<f32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %d = linalg.dot ins(%u, %u : tensor<6xf32>, tensor<6xf32>) outs(%f0 : tensor<f32>) -> tensor<f32>
  return %mv, %vm, %d : tensor<6xf32>, tensor<8xf32>, tensor<f32>
}
