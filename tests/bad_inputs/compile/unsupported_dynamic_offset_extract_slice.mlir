// CASE: a slice at an offset converted from a float argument (integer and index arguments are carried: tests/dynamic/test_scalar_argument_sizes.py)
// EXPECT: 6:3: error: [input] offsets of 'tensor.extract_slice' given as SSA values are not supported yet (only constants written in the op, as in [0, 2])
func.func @f(%a: tensor<8xf32>, %x: f32) -> tensor<4xf32> {
  %j = arith.fptosi %x : f32 to i64
  %i = arith.index_cast %j : i64 to index
  %0 = tensor.extract_slice %a[%i] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %1 = math.exp %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
