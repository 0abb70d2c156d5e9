// A non-contiguous slice that drops a unit dim (ONNX's Det slices a column so): a copy
// dispatch of the slice with its unit dims, then a host reshape that drops them.
func.func @column(%a: tensor<3x2x2xf32>) -> tensor<3x2xf32> {
  %s = tensor.extract_slice %a[0, 0, 1] [3, 2, 1] [1, 1, 1] : tensor<3x2x2xf32> to tensor<3x2xf32>
  return %s : tensor<3x2xf32>
}
