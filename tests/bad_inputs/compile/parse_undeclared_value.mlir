// CASE: a use of a value nothing defines is reported at the use
// EXPECT: 4:10: error: use of undeclared SSA value %b
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %b : tensor<2xf32>
}
