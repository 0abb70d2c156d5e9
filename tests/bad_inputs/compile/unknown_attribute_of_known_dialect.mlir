// CASE: an attribute name the hal dialect does not have
// EXPECT: 3:79: error: 'hal.nonsense' is not registered
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> attributes {x = #hal.nonsense<1>} {
  return %a : tensor<4xf32>
}
