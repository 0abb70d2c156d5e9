// CASE: a slice offset given as an SSA constant rather than written in the op
// EXPECT: 5:3: error: [input] offsets of 'tensor.extract_slice' given as SSA values are not supported yet (only constants written in the op, as in [0, 2])
func.func @f(%a: tensor<8xf32>) -> tensor<4xf32> {
  %c2 = arith.constant 2 : index
  %0 = tensor.extract_slice %a[%c2] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %1 = math.exp %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
