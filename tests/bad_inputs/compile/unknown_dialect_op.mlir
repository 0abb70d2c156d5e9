// CASE: an op of a dialect ireelab does not load (tosa)
// EXPECT: 4:8: error: unknown operation 'tosa.abs': dialect 'tosa' is not supported
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = tosa.abs %a : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
