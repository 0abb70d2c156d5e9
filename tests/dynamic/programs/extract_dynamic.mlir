// `tensor.extract` of `?`-sized tensors, as ONNX's ReverseSequence imports: `@reverse_prefix`
// reverses the first %n elements of %x (the slice's size is read back from %n), a generic
// reading its `?`-sized input at a computed index.
func.func @reverse_prefix(%x: tensor<8xf32>, %n: tensor<i64>) -> tensor<8xf32> {
  %c1 = arith.constant 1 : index
  %n64 = tensor.extract %n[] : tensor<i64>
  %k = arith.index_cast %n64 : i64 to index
  %s = tensor.extract_slice %x[0] [%k] [1] : tensor<8xf32> to tensor<?xf32>
  %last = arith.subi %k, %c1 : index
  %e = tensor.empty(%k) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%e : tensor<?xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = arith.subi %last, %i : index
    %v = tensor.extract %s[%j] : tensor<?xf32>
    linalg.yield %v : f32
  } -> tensor<?xf32>
  %y = tensor.insert_slice %r into %x[0] [%k] [1] : tensor<?xf32> into tensor<8xf32>
  return %y : tensor<8xf32>
}
