// CASE: a collapse_shape of a tensor with a run-time size (not carried yet)
// EXPECT: 4:3: error: [input] dynamic shape tensor<?xf32> of 'tensor.collapse_shape' is not supported yet
func.func @f(%a: tensor<?x1xf32>) -> tensor<?xf32> {
  %c = tensor.collapse_shape %a [[0, 1]] : tensor<?x1xf32> into tensor<?xf32>
  return %c : tensor<?xf32>
}
