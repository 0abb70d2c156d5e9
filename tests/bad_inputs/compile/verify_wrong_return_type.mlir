// CASE: the returned value's type differs from the declared result
// EXPECT: 4:3: error: [input] Expected arguments to have the same types as the function output types: expected [tensor<3xf32>], got [tensor<2xf32>]
func.func @f(%a: tensor<2xf32>) -> tensor<3xf32> {
  return %a : tensor<2xf32>
}
