// CASE: an expand_shape whose output size is a scalar argument (sizes computed from shapes or read from tensors are carried)
// EXPECT: 5:3: error: [input] output shape of 'tensor.expand_shape' given as SSA values are not supported yet (only constants written in the op, as in [0, 2])
func.func @f(%a: tensor<?xf32>, %rows: i64) -> tensor<?x4xf32> {
  %r = arith.index_cast %rows : i64 to index
  %e = tensor.expand_shape %a [[0, 1]] output_shape [%r, 4] : tensor<?xf32> into tensor<?x4xf32>
  return %e : tensor<?x4xf32>
}
