// CASE: a torch op (not converted by IREE's input pipeline) in generic form
// EXPECT: 4:9: error: unknown operation 'torch.aten.relu': dialect 'torch' is not supported
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "torch.aten.relu"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
