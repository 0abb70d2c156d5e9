// An unpack whose tile sizes are arguments: one module for every tiling of a `?x?x?x?`
// packed tensor (the kernel reads the tiles as push constants).
func.func @unpack(%p: tensor<?x?x?x?xf32>, %like: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %t1 = tensor.dim %p, %c2 : tensor<?x?x?x?xf32>
  %t0 = tensor.dim %p, %c3 : tensor<?x?x?x?xf32>
  %m = tensor.dim %like, %c0 : tensor<?x?xf32>
  %n = tensor.dim %like, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%m, %n) : tensor<?x?xf32>
  %u = linalg.unpack %p inner_dims_pos = [1, 0] inner_tiles = [%t1, %t0] into %init
      : tensor<?x?x?x?xf32> -> tensor<?x?xf32>
  return %u : tensor<?x?xf32>
}
