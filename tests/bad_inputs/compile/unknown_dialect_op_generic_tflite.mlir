// CASE: a TFLite op in generic form (no IREE 3.13 input plugin takes tfl)
// EXPECT: 4:9: error: unknown operation 'tfl.relu': dialect 'tfl' is not supported
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "tfl.relu"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
