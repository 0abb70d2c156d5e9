// CASE: an insert at an offset converted from a float argument (integer and index arguments are carried: tests/dynamic/test_scalar_argument_sizes.py)
// EXPECT: 7:3: error: [input] offsets of 'tensor.insert_slice' given as SSA values are not supported yet (only constants written in the op, as in [0, 2])
func.func @f(%a: tensor<8xf32>, %b: tensor<4xf32>, %x: f32) -> tensor<8xf32> {
  %j = arith.fptosi %x : f32 to i64
  %i = arith.index_cast %j : i64 to index
  %e = math.exp %b : tensor<4xf32>
  %0 = tensor.insert_slice %e into %a[%i] [4] [1] : tensor<4xf32> into tensor<8xf32>
  return %0 : tensor<8xf32>
}
