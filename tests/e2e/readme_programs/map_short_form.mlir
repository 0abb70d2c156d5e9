// linalg.map's short form, naming the op applied to the inputs.
func.func @map(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %s = linalg.map { arith.subf } ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>)
  return %s : tensor<4x8xf32>
}
