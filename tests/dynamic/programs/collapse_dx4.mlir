// A ?x4 input flattened on the host, then exp of every element.
func.func @flat(%a: tensor<?x4xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %flat = tensor.collapse_shape %a [[0, 1]] : tensor<?x4xf32> into tensor<?xf32>
  %n = tensor.dim %flat, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%flat : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
