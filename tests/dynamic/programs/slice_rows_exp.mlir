// The rows of a ?x4 input after the first, through exp: the slice is cloned into the
// elementwise dispatch and becomes a load at row 1 of the whole input's binding.
func.func @tail_exp(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %a, %c0 : tensor<?x4xf32>
  %m = arith.subi %n, %c1 : index
  %s = tensor.extract_slice %a[1, 0] [%m, 4] [1, 1] : tensor<?x4xf32> to tensor<?x4xf32>
  %e = tensor.empty(%m) : tensor<?x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<?x4xf32>) outs(%e : tensor<?x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = math.exp %in : f32
    linalg.yield %x : f32
  } -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}
