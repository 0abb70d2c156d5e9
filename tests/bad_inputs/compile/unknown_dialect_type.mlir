// CASE: a type of a dialect ireelab does not load (torch)
// EXPECT: 3:32: error: 'torch.vtensor' is not registered
func.func @f(%a: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32> {
  return %a : !torch.vtensor<[2],f32>
}
