// RUN: ireelab-opt %s -p iree-dispatch-creation-elementwise-op-fusion | filecheck %s

// Heads split `[S, H, D] -> [H, S, D]` by copy generics in front of an attention: the attention
// reads the unsplit tensors through composed maps, and the copies go (nothing else reads them).
util.func public @heads(%q: tensor<5x2x8xf32>, %k: tensor<5x2x8xf32>, %v: tensor<5x2x8xf32>) -> tensor<2x5x8xf32> {
  %scale = arith.constant 0.353553385 : f32
  %e = tensor.empty() : tensor<2x5x8xf32>
  %qt = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q : tensor<5x2x8xf32>) outs(%e : tensor<2x5x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x5x8xf32>
  %kt = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%k : tensor<5x2x8xf32>) outs(%e : tensor<2x5x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x5x8xf32>
  %vt = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v : tensor<5x2x8xf32>) outs(%e : tensor<2x5x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x5x8xf32>
  %a = iree_linalg_ext.attention {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>]} ins(%qt, %kt, %vt, %scale : tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32>, f32) outs(%e : tensor<2x5x8xf32>) {
  ^bb0(%s: f32):
    iree_linalg_ext.yield %s : f32
  } -> tensor<2x5x8xf32>
  util.return %a : tensor<2x5x8xf32>
}
// CHECK-LABEL: util.func public @heads
// CHECK-NOT:   linalg.generic
// CHECK:       iree_linalg_ext.attention {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d0, d2)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>]} ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<5x2x8xf32>, tensor<5x2x8xf32>, tensor<5x2x8xf32>, f32)

// A copy that broadcasts (its input map drops a dim) is not a permutation: it stays.
util.func public @broadcast_key(%q: tensor<2x5x8xf32>, %k: tensor<5x8xf32>, %v: tensor<2x5x8xf32>) -> tensor<2x5x8xf32> {
  %scale = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<2x5x8xf32>
  %kb = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%k : tensor<5x8xf32>) outs(%e : tensor<2x5x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x5x8xf32>
  %a = iree_linalg_ext.attention {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>]} ins(%q, %kb, %v, %scale : tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32>, f32) outs(%e : tensor<2x5x8xf32>) {
  ^bb0(%s: f32):
    iree_linalg_ext.yield %s : f32
  } -> tensor<2x5x8xf32>
  util.return %a : tensor<2x5x8xf32>
}
// CHECK-LABEL: util.func public @broadcast_key
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
// CHECK:       iree_linalg_ext.attention {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>,
