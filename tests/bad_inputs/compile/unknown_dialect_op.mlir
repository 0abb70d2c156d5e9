// CASE: an op of a dialect neither ireelab nor IREE's input plugins take (mhlo; tosa, torch and stablehlo go to IREE's input conversion)
// EXPECT: 4:8: error: unknown operation 'mhlo.abs': dialect 'mhlo' is not supported
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = mhlo.abs %a : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
