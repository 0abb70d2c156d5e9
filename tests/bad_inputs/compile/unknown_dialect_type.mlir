// CASE: a type of a dialect neither ireelab nor IREE's input plugins take (mhlo)
// EXPECT: 3:36: error: 'mhlo.async_bundle' is not registered
func.func @f(%a: !mhlo.async_bundle<tensor<2xf32>>) -> tensor<2xf32> {
  %0 = arith.addf %a, %a : tensor<2xf32>
  return %0 : tensor<2xf32>
}
