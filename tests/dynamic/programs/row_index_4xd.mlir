// Each element of a 4x? input plus its row number: the dispatch collapses to one loop, the
// row recovered as the linear index divided by the run-time row length.
func.func @idx(%a: tensor<4x?xf32>) -> tensor<4x?xf32> {
  %c1 = arith.constant 1 : index
  %d1 = tensor.dim %a, %c1 : tensor<4x?xf32>
  %e = tensor.empty(%d1) : tensor<4x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x?xf32>) outs(%e : tensor<4x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %k = arith.index_cast %i : index to i32
    %f = arith.sitofp %k : i32 to f32
    %s = arith.addf %x, %f : f32
    linalg.yield %s : f32
  } -> tensor<4x?xf32>
  return %r : tensor<4x?xf32>
}
