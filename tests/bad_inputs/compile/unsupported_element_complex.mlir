// CASE: a complex tensor passed through
// EXPECT: 4:1: error: [
// XFAIL: ConvertToStreamPass crashes (internal error: invalid SSA name 'element_type_complex<f32>') instead of refusing the element type
func.func @f(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  return %a : tensor<4xcomplex<f32>>
}
