// CASE: a value used with a type other than its own
// EXPECT: 4:19: error: operand is used with type tensor<3xf32>, but has been previously used or defined with type tensor<2xf32>
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = arith.addf %a, %a : tensor<3xf32>
  return %0 : tensor<2xf32>
}
