// CASE: a binary mhlo op in its custom form (IREE 3.13 takes stablehlo, not mhlo)
// EXPECT: 4:8: error: unknown operation 'mhlo.add': dialect 'mhlo' is not supported
func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mhlo.add %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}
