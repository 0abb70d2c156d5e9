// tensor.splat of a constant, of a scalar argument and of an element read on the host, each
// consumed by an elementwise op.
func.func @splat(%a: tensor<3x2xf32>, %s: f32) -> tensor<3x2xf32> {
  %c = arith.constant 0.5 : f32
  %i = arith.constant 1 : index
  %v = tensor.extract %a[%i, %i] : tensor<3x2xf32>
  %sc = tensor.splat %c : tensor<3x2xf32>
  %ss = tensor.splat %s : tensor<3x2xf32>
  %sv = tensor.splat %v : tensor<3x2xf32>
  %x = arith.addf %a, %sc : tensor<3x2xf32>
  %y = arith.mulf %x, %ss : tensor<3x2xf32>
  %z = arith.subf %y, %sv : tensor<3x2xf32>
  return %z : tensor<3x2xf32>
}
