// CASE: a call passing more arguments than the callee takes
// EXPECT: 7:3: error: [input] incorrect number of operands for callee
func.func private @g(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = func.call @g(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
