func.func @exh(%a: tensor<4x6xf32>) -> f32 {
  %c1 = arith.constant 1 : index
  %s = tensor.extract %a[%c1, %c1] : tensor<4x6xf32>
  return %s : f32
}
