// CASE: an SSA name defined twice
// EXPECT: 5:3: error: SSA value %0 is already defined
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = math.exp %a : tensor<2xf32>
  %0 = math.tanh %a : tensor<2xf32>
  return %0 : tensor<2xf32>
}
