// Column sum of an 8x16 matrix (reduce d0): TransposeGenericOps makes the reduction loop
// innermost, so the dispatch iterates 16x8 and is named reduction_16x8_f32, as in IREE.
func.func @column_sum(%x: tensor<8x16xf32>) -> tensor<16xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.reduce ins(%x : tensor<8x16xf32>) outs(%f : tensor<16xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  return %s : tensor<16xf32>
}
