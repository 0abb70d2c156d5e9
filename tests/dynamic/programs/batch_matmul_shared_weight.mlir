// A batch matmul against one weight broadcast over a ? batch: IREE (ConvertBatchMatmulToMatmul)
// and ireelab merge batch and rows into one ?x8 matmul, its rows the batch times 4.
func.func @bmmw(%a: tensor<?x4x8xf32>, %w: tensor<8x5xf32>) -> tensor<?x4x5xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %a, %c0 : tensor<?x4x8xf32>
  %eb = tensor.empty(%n) : tensor<?x8x5xf32>
  %wb = linalg.generic {indexing_maps = [affine_map<(b, k, j) -> (k, j)>, affine_map<(b, k, j) -> (b, k, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : tensor<8x5xf32>) outs(%eb : tensor<?x8x5xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<?x8x5xf32>
  %e = tensor.empty(%n) : tensor<?x4x5xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x4x5xf32>) -> tensor<?x4x5xf32>
  %r = linalg.batch_matmul ins(%a, %wb : tensor<?x4x8xf32>, tensor<?x8x5xf32>) outs(%f : tensor<?x4x5xf32>) -> tensor<?x4x5xf32>
  return %r : tensor<?x4x5xf32>
}
