// ONNX CenterCropPad's crop-then-pad, as IREE's importer writes it: rows sliced at a run-time
// offset and count, cast to the shape the insert expects (`?x4 -> 3x?`: the cast's `?` is
// the source's static 4, a constant the host names), and inserted into a filled result at a
// run-time column offset.
func.func @f(%x: tensor<6x4xf32>, %at: tensor<4xi64>) -> tensor<3x7xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %o64 = tensor.extract %at[%c0] : tensor<4xi64>
  %n64 = tensor.extract %at[%c1] : tensor<4xi64>
  %m64 = tensor.extract %at[%c2] : tensor<4xi64>
  %p64 = tensor.extract %at[%c3] : tensor<4xi64>
  %o = arith.index_cast %o64 : i64 to index
  %n = arith.index_cast %n64 : i64 to index
  %m = arith.index_cast %m64 : i64 to index
  %p = arith.index_cast %p64 : i64 to index
  %s = tensor.extract_slice %x[%o, 0] [%n, 4] [1, 1] : tensor<6x4xf32> to tensor<?x4xf32>
  %cast = tensor.cast %s : tensor<?x4xf32> to tensor<3x?xf32>
  %e = tensor.empty() : tensor<3x7xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x7xf32>) -> tensor<3x7xf32>
  %r = tensor.insert_slice %cast into %f[0, %p] [3, %m] [1, 1] : tensor<3x?xf32> into tensor<3x7xf32>
  return %r : tensor<3x7xf32>
}
