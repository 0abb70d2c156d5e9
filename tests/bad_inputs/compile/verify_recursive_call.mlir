// CASE: a public function that calls itself
// EXPECT: 5:3: error: [input] recursive call
// XFAIL: the input stage blames the operand types (which match) instead of saying recursion is unsupported
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @f(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
