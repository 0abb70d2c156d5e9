// ONNX Split with its part sizes as an input, as IREE's importer writes it: the host reads
// the counts back (flow.tensor.load of i64), and each part is a copy dispatch (IREE's
// slow_memcpy) whose workload is its run-time offset and size.
func.func @split(%x: tensor<300xf32>, %counts: tensor<2xi64>) -> (tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %first64 = tensor.extract %counts[%c0] : tensor<2xi64>
  %second64 = tensor.extract %counts[%c1] : tensor<2xi64>
  %first = arith.index_cast %first64 : i64 to index
  %second = arith.index_cast %second64 : i64 to index
  %a = tensor.extract_slice %x[0] [%first] [1] : tensor<300xf32> to tensor<?xf32>
  %b = tensor.extract_slice %x[%first] [%second] [1] : tensor<300xf32> to tensor<?xf32>
  return %a, %b : tensor<?xf32>, tensor<?xf32>
}
