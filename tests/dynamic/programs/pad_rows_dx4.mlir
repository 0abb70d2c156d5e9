// A pad of a `?`-sized input by constant amounts: the padded rows are the input's rows + 3
// (host arithmetic on the buffer view's dim), and the copy into the splat is not one
// contiguous run, so it is a slow_memcpy dispatch whose workload is both tensors' rows.
func.func @pad(%x: tensor<?x4xf32>) -> tensor<?x6xf32> {
  %v = arith.constant -2.5 : f32
  %p = tensor.pad %x low[1, 0] high[2, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<?x4xf32> to tensor<?x6xf32>
  return %p : tensor<?x6xf32>
}
