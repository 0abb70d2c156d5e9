// tensor.extract_slice returned directly: a contiguous run of rows (flow.tensor.slice), a
// unit-stride block (a slow_memcpy dispatch) and a strided one (a strided load).
func.func @slices(%a: tensor<8x16xf32>) -> (tensor<4x16xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %rows = tensor.extract_slice %a[2, 0] [4, 16] [1, 1] : tensor<8x16xf32> to tensor<4x16xf32>
  %block = tensor.extract_slice %a[2, 4] [4, 8] [1, 1] : tensor<8x16xf32> to tensor<4x8xf32>
  %strided = tensor.extract_slice %a[1, 0] [4, 8] [2, 2] : tensor<8x16xf32> to tensor<4x8xf32>
  return %rows, %block, %strided : tensor<4x16xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}
