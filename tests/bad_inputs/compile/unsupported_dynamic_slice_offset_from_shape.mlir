// CASE: a slice at an offset computed from another argument's shape (IREE makes it a flow.tensor.slice at that offset; ireelab's Stream stage does not carry run-time slice offsets yet)
// EXPECT: 6:3: error: [flow] 'tensor.extract_slice' at offsets or sizes computed from shapes is not supported yet (a flow.tensor.slice at run-time offsets)
func.func @f(%a: tensor<8xf32>, %b: tensor<?xf32>) -> tensor<2xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %b, %c0 : tensor<?xf32>
  %s = tensor.extract_slice %a[%d] [2] [1] : tensor<8xf32> to tensor<2xf32>
  return %s : tensor<2xf32>
}
