// tensor.extract of one element (a scalar result) and tensor.insert of it elsewhere.
func.func @elements(%a: tensor<4x4xf32>) -> (f32, tensor<4x4xf32>) {
  %i = arith.constant 1 : index
  %j = arith.constant 2 : index
  %k = arith.constant 0 : index
  %v = tensor.extract %a[%i, %j] : tensor<4x4xf32>
  %w = tensor.insert %v into %a[%i, %k] : tensor<4x4xf32>
  return %v, %w : f32, tensor<4x4xf32>
}
