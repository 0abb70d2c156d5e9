// linalg.transpose (3-D), linalg.broadcast (a row to a matrix) and linalg.reduce (a row sum).
func.func @tbr(%x: tensor<2x3x4xf32>, %row: tensor<8xf32>, %m: tensor<5x8xf32>) -> (tensor<4x2x3xf32>, tensor<5x8xf32>, tensor<5xf32>) {
  %zero = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<4x2x3xf32>
  %t = linalg.transpose ins(%x : tensor<2x3x4xf32>) outs(%et : tensor<4x2x3xf32>) permutation = [2, 0, 1]
  %eb = tensor.empty() : tensor<5x8xf32>
  %b = linalg.broadcast ins(%row : tensor<8xf32>) outs(%eb : tensor<5x8xf32>) dimensions = [0]
  %er = tensor.empty() : tensor<5xf32>
  %fr = linalg.fill ins(%zero : f32) outs(%er : tensor<5xf32>) -> tensor<5xf32>
  %r = linalg.reduce ins(%m : tensor<5x8xf32>) outs(%fr : tensor<5xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %t, %b, %r : tensor<4x2x3xf32>, tensor<5x8xf32>, tensor<5xf32>
}
