// CASE: an insert at an offset computed at run time
// EXPECT: 5:3: error: [input] offsets of 'tensor.insert_slice' given as SSA values are not supported yet (only constants written in the op, as in [0, 2])
func.func @f(%a: tensor<8xf32>, %b: tensor<4xf32>, %i: index) -> tensor<8xf32> {
  %e = math.exp %b : tensor<4xf32>
  %0 = tensor.insert_slice %e into %a[%i] [4] [1] : tensor<4xf32> into tensor<8xf32>
  return %0 : tensor<8xf32>
}
