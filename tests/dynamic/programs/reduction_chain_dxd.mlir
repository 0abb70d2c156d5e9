// Four row reductions in a chain over a ?x? input, each reading the input and the previous
// row vector: three ?-sized transients of one size; the first and the third are never live at
// the same time, so they share memory (IREE's packing of slices sized at run time).
func.func @chain(%x: tensor<?x?xf32>) -> tensor<?xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %e = tensor.empty(%m) : tensor<?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %s0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<?x?xf32>) outs(%z : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %s1 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x, %s0 : tensor<?x?xf32>, tensor<?xf32>) outs(%z : tensor<?xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %d = arith.subf %a, %s : f32
    %r = arith.addf %d, %o : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %s2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x, %s1 : tensor<?x?xf32>, tensor<?xf32>) outs(%z : tensor<?xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %d = arith.subf %a, %s : f32
    %r = arith.addf %d, %o : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %s3 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x, %s2 : tensor<?x?xf32>, tensor<?xf32>) outs(%z : tensor<?xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %d = arith.subf %a, %s : f32
    %r = arith.addf %d, %o : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  return %s3 : tensor<?xf32>
}
