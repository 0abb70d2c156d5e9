// CASE: the file ends inside a function body
// EXPECT: 5:1: error: expected an operation or '}' to close the region, found the end of the input
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
