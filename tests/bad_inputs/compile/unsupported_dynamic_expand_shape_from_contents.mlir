// CASE: an expand_shape whose output size is read from a tensor's contents (only sizes computed from shapes are carried)
// EXPECT: 5:3: error: [input] output shape of 'tensor.expand_shape' given as SSA values are not supported yet (only constants written in the op, as in [0, 2])
func.func @f(%a: tensor<?xf32>, %rows: tensor<index>) -> tensor<?x4xf32> {
  %r = tensor.extract %rows[] : tensor<index>
  %e = tensor.expand_shape %a [[0, 1]] output_shape [%r, 4] : tensor<?xf32> into tensor<?x4xf32>
  return %e : tensor<?x4xf32>
}
