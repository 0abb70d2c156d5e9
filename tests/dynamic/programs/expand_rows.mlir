// A flat ? input viewed as rows of 8 (output_shape from the input's size), summed per row.
func.func @rowsum8(%a: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %a, %c0 : tensor<?xf32>
  %rows = arith.divui %n, %c8 : index
  %m = tensor.expand_shape %a [[0, 1]] output_shape [%rows, 8] : tensor<?xf32> into tensor<?x8xf32>
  %e = tensor.empty(%rows) : tensor<?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%m : tensor<?x8xf32>) outs(%z : tensor<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %o : f32
    linalg.yield %y : f32
  } -> tensor<?xf32>
  return %s : tensor<?xf32>
}
