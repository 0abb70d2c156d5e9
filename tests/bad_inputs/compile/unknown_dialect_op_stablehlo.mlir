// CASE: a StableHLO op in its custom form
// EXPECT: 4:8: error: unknown operation 'stablehlo.exponential': dialect 'stablehlo' is not supported
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.exponential %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
