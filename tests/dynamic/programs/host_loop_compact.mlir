// Stream compaction on the host, as ONNX NonMaxSuppression's import does it: a host loop
// over the elements of %a (any length up to 64, 0 included) keeps those above 0, each written
// at the count of those kept so far (an i64 the loop carries: an insert_slice at an offset
// carried by the loop). After the loop, the kept prefix (a `?`-sized slice at the final
// count) gives its last three values, read inside a host scf.if (fewer than three kept: the
// first three of the buffer), and the buffer is returned doubled.
func.func @compact(%a: tensor<?xf32>) -> (tensor<64xf32>, tensor<3xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c0_i64 = arith.constant 0 : i64
  %c1_i64 = arith.constant 1 : i64
  %c3_i64 = arith.constant 3 : i64
  %zero = arith.constant 0.0 : f32
  %none = arith.constant -1.0 : f32
  %n = tensor.dim %a, %c0 : tensor<?xf32>
  %e = tensor.empty() : tensor<64xf32>
  %init = linalg.fill ins(%none : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%out = %init, %count = %c0_i64) -> (tensor<64xf32>, i64) {
    %x = tensor.extract_slice %a[%i] [1] [1] : tensor<?xf32> to tensor<1xf32>
    %v = tensor.extract %x[%c0] : tensor<1xf32>
    %keep = arith.cmpf ogt, %v, %zero : f32
    %next:2 = scf.if %keep -> (tensor<64xf32>, i64) {
      %at = arith.index_cast %count : i64 to index
      %put = tensor.insert_slice %x into %out[%at] [1] [1] : tensor<1xf32> into tensor<64xf32>
      %more = arith.addi %count, %c1_i64 : i64
      scf.yield %put, %more : tensor<64xf32>, i64
    } else {
      scf.yield %out, %count : tensor<64xf32>, i64
    }
    scf.yield %next#0, %next#1 : tensor<64xf32>, i64
  }
  %kept_n = arith.index_cast %r#1 : i64 to index
  %kept = tensor.extract_slice %r#0[0] [%kept_n] [1] : tensor<64xf32> to tensor<?xf32>
  %enough = arith.cmpi sge, %r#1, %c3_i64 : i64
  %last = scf.if %enough -> (tensor<3xf32>) {
    %from_i64 = arith.subi %r#1, %c3_i64 : i64
    %from = arith.index_cast %from_i64 : i64 to index
    %tail = tensor.extract_slice %kept[%from] [3] [1] : tensor<?xf32> to tensor<3xf32>
    scf.yield %tail : tensor<3xf32>
  } else {
    %head = tensor.extract_slice %r#0[0] [3] [1] : tensor<64xf32> to tensor<3xf32>
    scf.yield %head : tensor<3xf32>
  }
  %twice = arith.addf %r#0, %r#0 : tensor<64xf32>
  return %twice, %last : tensor<64xf32>, tensor<3xf32>
}
