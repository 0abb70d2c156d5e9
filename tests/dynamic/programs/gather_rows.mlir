// Rows of a `?x8` table gathered at a `?` number of indices (an embedding lookup).
func.func @gather(%table: tensor<?x8xf32>, %indices: tensor<?x1xi64>) -> tensor<?x8xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %indices, %c0 : tensor<?x1xi64>
  %init = tensor.empty(%n) : tensor<?x8xf32>
  %g = iree_linalg_ext.gather dimension_map = [0] ins(%table, %indices : tensor<?x8xf32>, tensor<?x1xi64>) outs(%init : tensor<?x8xf32>) -> tensor<?x8xf32>
  return %g : tensor<?x8xf32>
}
