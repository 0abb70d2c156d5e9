// CASE: a public function that calls itself
// EXPECT: 4:3: error: [input] recursive call to '@f' is not supported
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @f(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
