// CASE: a complex tensor of f16 parts passed through (complex<f32> and complex<f64> are numpy's complex64 / complex128; complex<f16> has no numba equivalent)
// EXPECT: 3:1: error: [input] element type complex<f16> is not supported by the numba-cpu backend
func.func @f(%a: tensor<4xcomplex<f16>>) -> tensor<4xcomplex<f16>> {
  return %a : tensor<4xcomplex<f16>>
}
