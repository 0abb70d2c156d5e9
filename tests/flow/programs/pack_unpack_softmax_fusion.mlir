// Elementwise producers join a pack, elementwise consumers an unpack; softmax stays alone.
func.func @pack_after_exp(%a: tensor<30x20xf32>) -> tensor<4x5x8x4xf32> {
  %e0 = tensor.empty() : tensor<30x20xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<30x20xf32>) outs(%e0 : tensor<30x20xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<30x20xf32>
  %pad = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x5x8x4xf32>
  %p = linalg.pack %x padding_value(%pad : f32) inner_dims_pos = [0, 1] inner_tiles = [8, 4] into %e : tensor<30x20xf32> -> tensor<4x5x8x4xf32>
  return %p : tensor<4x5x8x4xf32>
}
func.func @unpack_then_add(%a: tensor<4x5x8x4xf32>, %b: tensor<30x20xf32>) -> tensor<30x20xf32> {
  %e = tensor.empty() : tensor<30x20xf32>
  %u = linalg.unpack %a inner_dims_pos = [0, 1] inner_tiles = [8, 4] into %e : tensor<4x5x8x4xf32> -> tensor<30x20xf32>
  %e1 = tensor.empty() : tensor<30x20xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%u, %b : tensor<30x20xf32>, tensor<30x20xf32>) outs(%e1 : tensor<30x20xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %v = arith.addf %in, %in2 : f32
    linalg.yield %v : f32
  } -> tensor<30x20xf32>
  return %s : tensor<30x20xf32>
}
func.func @softmax_after_mul(%a: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %e0 = tensor.empty() : tensor<8x64xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x64xf32>) outs(%e0 : tensor<8x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.mulf %in, %in : f32
    linalg.yield %v : f32
  } -> tensor<8x64xf32>
  %e = tensor.empty() : tensor<8x64xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<8x64xf32>) outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %s : tensor<8x64xf32>
}
