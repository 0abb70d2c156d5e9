// CASE: tensors turned into buffers and back by hand
// EXPECT: 4:3: error: [input] 'bufferization.to_buffer': the bufferization dialect is not input (ireelab's input is tensors; bufferization is its codegen's job)
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %m = bufferization.to_buffer %a : tensor<4xf32> to memref<4xf32>
  %t = bufferization.to_tensor %m : memref<4xf32> to tensor<4xf32>
  return %t : tensor<4xf32>
}
