// CASE: a call to a function that does not exist
// EXPECT: 4:3: error: [input] '@g' could not be found in symbol table
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = func.call @g(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
