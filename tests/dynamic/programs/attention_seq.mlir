// Attention with a `?` batch, query length, key length and head size: the kernel's loops
// read every extent from the dims pushed as constants.
func.func @attention(%q: tensor<?x?x?xf32>, %k: tensor<?x?x?xf32>, %v: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %b = tensor.dim %q, %c0 : tensor<?x?x?xf32>
  %m = tensor.dim %q, %c1 : tensor<?x?x?xf32>
  %n = tensor.dim %v, %c2 : tensor<?x?x?xf32>
  %init = tensor.empty(%b, %m, %n) : tensor<?x?x?xf32>
  %scale = arith.constant 0.125 : f32
  %r = "iree_linalg_ext.attention"(%q, %k, %v, %scale, %init) <{indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>]}> ({
  ^bb0(%s: f32):
    iree_linalg_ext.yield %s : f32
  }) : (tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<?x?x?xf32>, f32, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}
