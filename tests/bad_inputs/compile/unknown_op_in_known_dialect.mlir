// CASE: an op name arith does not have
// EXPECT: 4:8: error: unknown operation 'arith.frobnicate': dialect 'arith' has no such op
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = arith.frobnicate %a : tensor<2xf32>
  return %0 : tensor<2xf32>
}
