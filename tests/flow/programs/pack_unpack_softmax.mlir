// linalg.pack, linalg.unpack and linalg.softmax alone: one dispatch each, named as IREE names them.
func.func @pk(%a: tensor<9x13xf32>) -> tensor<4x2x8x4xf32> {
  %pad = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x2x8x4xf32>
  %p = linalg.pack %a padding_value(%pad : f32) outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [8, 4] into %e : tensor<9x13xf32> -> tensor<4x2x8x4xf32>
  return %p : tensor<4x2x8x4xf32>
}
func.func @up(%a: tensor<2x2x3x3xi32>) -> tensor<4x4xi32> {
  %e = tensor.empty() : tensor<4x4xi32>
  %u = linalg.unpack %a inner_dims_pos = [0, 1] inner_tiles = [3, 3] into %e : tensor<2x2x3x3xi32> -> tensor<4x4xi32>
  return %u : tensor<4x4xi32>
}
func.func @sm(%a: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %s = linalg.softmax dimension(1) ins(%a : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %s : tensor<4x16xf32>
}
