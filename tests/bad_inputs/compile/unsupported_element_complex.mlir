// CASE: a complex tensor passed through
// EXPECT: 3:1: error: [input] element type complex<f32> is not supported by the numba-cpu backend
func.func @f(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  return %a : tensor<4xcomplex<f32>>
}
