// CASE: fewer values returned than declared
// EXPECT: 4:3: error: [input] Expected arguments to have the same types as the function output types: expected [tensor<2xf32>, tensor<2xf32>], got [tensor<2xf32>]
func.func @f(%a: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  return %a : tensor<2xf32>
}
