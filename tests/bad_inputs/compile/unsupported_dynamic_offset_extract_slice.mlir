// CASE: a slice at an offset computed at run time
// EXPECT: 4:3: error: [input] offsets of 'tensor.extract_slice' given as SSA values are not supported yet (only constants written in the op, as in [0, 2])
func.func @f(%a: tensor<8xf32>, %i: index) -> tensor<4xf32> {
  %0 = tensor.extract_slice %a[%i] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %1 = math.exp %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
