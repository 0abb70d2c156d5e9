// A result with as many rows as an input's value says: the host reads the i64 element back
// (flow.tensor.load), and the dispatch takes it as its workload.
func.func @iota(%n_t: tensor<i64>, %x: tensor<4xf32>) -> tensor<?x4xf32> {
  %n64 = tensor.extract %n_t[] : tensor<i64>
  %n = arith.index_cast %n64 : i64 to index
  %e = tensor.empty(%n) : tensor<?x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<?x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    %s = arith.addf %in, %f : f32
    linalg.yield %s : f32
  } -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}
