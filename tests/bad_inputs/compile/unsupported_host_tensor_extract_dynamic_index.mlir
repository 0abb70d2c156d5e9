// CASE: reading one element in host code at an index computed at run time (IREE accepts it; ireelab's Stream stage needs constant indices)
// EXPECT: 4:3: error: [stream] 'flow.tensor.load' with indices computed at run time is not supported
func.func @f(%a: tensor<4xf32>, %i: index) -> f32 {
  %0 = tensor.extract %a[%i] : tensor<4xf32>
  return %0 : f32
}
