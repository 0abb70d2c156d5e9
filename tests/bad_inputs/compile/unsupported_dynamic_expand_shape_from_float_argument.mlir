// CASE: an expand_shape whose output size is converted from a float argument (integer arguments, shapes and elements read back are carried)
// EXPECT: 6:3: error: [input] output shape of 'tensor.expand_shape' given as SSA values are not supported yet (only constants written in the op, as in [0, 2])
func.func @f(%a: tensor<?xf32>, %rows: f32) -> tensor<?x4xf32> {
  %j = arith.fptosi %rows : f32 to i64
  %r = arith.index_cast %j : i64 to index
  %e = tensor.expand_shape %a [[0, 1]] output_shape [%r, 4] : tensor<?xf32> into tensor<?x4xf32>
  return %e : tensor<?x4xf32>
}
