// CASE: an unranked tensor argument
// EXPECT: 3:1: error: [input] type tensor<*xf32> is not supported (ireelab compiles ops on ranked tensors and scalars)
func.func @f(%a: tensor<*xf32>) -> tensor<*xf32> {
  return %a : tensor<*xf32>
}
