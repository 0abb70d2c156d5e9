func.func @ins(%a: tensor<4x6xf32>, %x: f32) -> tensor<4x6xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = tensor.insert %x into %a[%c1, %c2] : tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}
