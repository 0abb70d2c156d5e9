// CASE: a linalg.pack whose tile size is an SSA value (parses; the stages after input compile static tiles only)
// EXPECT: 7:3: error: [input] inner tiles of 'linalg.pack' given as SSA values are not supported yet
func.func @f(%a: tensor<8x8xf32>) -> tensor<?x2x?x4xf32> {
  %t = util.unfoldable_constant 2 : index
  %n = arith.constant 4 : index
  %e = tensor.empty(%n, %t) : tensor<?x2x?x4xf32>
  %p = linalg.pack %a inner_dims_pos = [0, 1] inner_tiles = [%t, 4] into %e : tensor<8x8xf32> -> tensor<?x2x?x4xf32>
  return %p : tensor<?x2x?x4xf32>
}
