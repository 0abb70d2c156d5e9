// The inverse with the tiles in the other order (dim 1 by 4, dim 0 by 8), into a matrix the
// size of `%like`, which may be smaller than the tiles cover: the partial tiles' padding is
// dropped (the unpack's extract_slice semantics).
func.func @unpack(%p: tensor<?x?x4x8xf32>, %like: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %like, %c0 : tensor<?x?xf32>
  %n = tensor.dim %like, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%m, %n) : tensor<?x?xf32>
  %u = linalg.unpack %p inner_dims_pos = [1, 0] inner_tiles = [4, 8] into %init
      : tensor<?x?x4x8xf32> -> tensor<?x?xf32>
  return %u : tensor<?x?xf32>
}
