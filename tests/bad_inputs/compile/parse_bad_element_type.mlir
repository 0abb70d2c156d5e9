// CASE: an element type that does not exist
// EXPECT: 3:27: error: Expected shape type.
func.func @f(%a: tensor<2xfoo>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}
