// A pack of a matrix of any size into 8x4 tiles, outer dims swapped, the last partial tiles
// filled with -1: the outer sizes are computed on the host (ceildivui), the kernel reads the
// source's sizes from push constants to know where the padding starts.
func.func @pack(%a: tensor<?x?xf32>) -> tensor<?x?x8x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant -1.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %a, %c1 : tensor<?x?xf32>
  %m_tiles = arith.ceildivui %m, %c8 : index
  %n_tiles = arith.ceildivui %n, %c4 : index
  %init = tensor.empty(%n_tiles, %m_tiles) : tensor<?x?x8x4xf32>
  %p = linalg.pack %a padding_value(%pad : f32) outer_dims_perm = [1, 0]
      inner_dims_pos = [0, 1] inner_tiles = [8, 4] into %init : tensor<?x?xf32> -> tensor<?x?x8x4xf32>
  return %p : tensor<?x?x8x4xf32>
}
