// CASE: a contiguous slice of a ?-sized tensor at constant offsets (IREE makes it a flow.tensor.slice of the dynamically shaped tensor; ireelab's Stream stage does not carry that yet)
// EXPECT: 4:3: error: [stream] 'flow.tensor.slice' of a dynamically shaped tensor is not supported
func.func @f(%a: tensor<?xf32>) -> tensor<4xf32> {
  %s = tensor.extract_slice %a[2] [4] [1] : tensor<?xf32> to tensor<4xf32>
  return %s : tensor<4xf32>
}
