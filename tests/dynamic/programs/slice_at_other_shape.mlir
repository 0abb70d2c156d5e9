// Two elements of a static tensor at an offset given by another argument's length: the host
// has the offset from the buffer view's shape, so the slice is a host flow.tensor.slice at
// that offset (a stream.cmd.copy at byte 4 * n).
func.func @f(%a: tensor<8xf32>, %b: tensor<?xf32>) -> tensor<2xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %b, %c0 : tensor<?xf32>
  %s = tensor.extract_slice %a[%d] [2] [1] : tensor<8xf32> to tensor<2xf32>
  return %s : tensor<2xf32>
}
