// A dense layer's bias + relu over a dynamic batch (the matmul itself is not dynamic yet),
// then the mean of each row: elementwise on ?x8, a reduction to ?.
func.func @bias_relu_mean(%x: tensor<?x8xf32>, %bias: tensor<8xf32>) -> (tensor<?x8xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %eight = arith.constant 8.0 : f32
  %b = tensor.dim %x, %c0 : tensor<?x8xf32>
  %e = tensor.empty(%b) : tensor<?x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x, %bias : tensor<?x8xf32>, tensor<8xf32>) outs(%e : tensor<?x8xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<?x8xf32>
  %e1 = tensor.empty(%b) : tensor<?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%y : tensor<?x8xf32>) outs(%f : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%sum : tensor<?xf32>) outs(%e1 : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.divf %a, %eight : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  return %y, %mean : tensor<?x8xf32>, tensor<?xf32>
}
