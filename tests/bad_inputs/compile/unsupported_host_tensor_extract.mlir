// CASE: reading one element in host code (flow.tensor.load: the stream stage cannot read it back yet)
// EXPECT: 4:3: error: [stream] 'flow.tensor.load' on tensors in host code is not supported by ConvertToStreamPass
func.func @f(%a: tensor<4xf32>, %i: index) -> f32 {
  %0 = tensor.extract %a[%i] : tensor<4xf32>
  return %0 : f32
}
