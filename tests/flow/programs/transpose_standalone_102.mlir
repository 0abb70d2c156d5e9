// A standalone transpose of a non-cubic tensor ([1, 0, 2]): FusionPreprocessing interchanges
// its loops so the source is read in order, and the dispatch is named by the source's shape
// (transpose_2x3x4_f32), not the result's.
func.func @swap_outer(%x: tensor<2x3x4xf32>) -> tensor<3x2x4xf32> {
  %e = tensor.empty() : tensor<3x2x4xf32>
  %t = linalg.transpose ins(%x : tensor<2x3x4xf32>) outs(%e : tensor<3x2x4xf32>) permutation = [1, 0, 2]
  return %t : tensor<3x2x4xf32>
}
