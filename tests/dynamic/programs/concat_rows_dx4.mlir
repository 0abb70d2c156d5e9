// Rows of two ?x4 inputs stacked: an outer-dimension concat is a host flow.tensor.empty sized
// by the sum of the row counts and two flow.tensor.updates, the second at the first input's
// row count (no dispatch), as iree-compile --compile-to=flow prints it.
func.func @cat(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %r = tensor.concat dim(0) %a, %b : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}
