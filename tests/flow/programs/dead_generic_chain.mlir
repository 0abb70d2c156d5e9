// Unused generics (a chain of them, a reduction and a matmul fed by the dead one) are erased before dispatch formation, with the fills feeding them.
func.func @dead_chain(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>, %w: tensor<16x4xf32>) -> tensor<8x16xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  %d1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  %er = tensor.empty() : tensor<16xf32>
  %fr = linalg.fill ins(%c0 : f32) outs(%er : tensor<16xf32>) -> tensor<16xf32>
  %d2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%d1 : tensor<8x16xf32>) outs(%fr : tensor<16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.addf %x, %o : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %em = tensor.empty() : tensor<8x4xf32>
  %fm = linalg.fill ins(%c0 : f32) outs(%em : tensor<8x4xf32>) -> tensor<8x4xf32>
  %mm = linalg.matmul ins(%d1, %w : tensor<8x16xf32>, tensor<16x4xf32>) outs(%fm : tensor<8x4xf32>) -> tensor<8x4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.tanh %x : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  return %t : tensor<8x16xf32>
}
