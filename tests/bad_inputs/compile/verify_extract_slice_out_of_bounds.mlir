// CASE: a strided extract_slice that runs past its tensor (rows 2, 4, 6, 8 of 8)
// EXPECT: 4:3: error: [input] 'tensor.extract_slice' reaches index 8, out of bounds for dimension 0 of tensor<8x16xf32> (size 8)
func.func @s(%a: tensor<8x16xf32>) -> tensor<4x8xf32> {
  %r = tensor.extract_slice %a[2, 4] [4, 8] [2, 1] : tensor<8x16xf32> to tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
