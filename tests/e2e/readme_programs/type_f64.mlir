// f64 tensors: arithmetic and math.exp in a generic, a matmul and a reduction.
func.func @typed(%a: tensor<4x8xf64>, %b: tensor<8x4xf64>) -> (tensor<4x8xf64>, tensor<4x4xf64>, tensor<4xf64>) {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<4x8xf64>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x8xf64>, tensor<8x4xf64>) outs(%e : tensor<4x8xf64>) {
  ^bb0(%u: f64, %v: f64, %o: f64):
    %p = arith.mulf %u, %v : f64
    %q = math.exp %p : f64
    %r = arith.subf %q, %u : f64
    linalg.yield %r : f64
  } -> tensor<4x8xf64>
  %em = tensor.empty() : tensor<4x4xf64>
  %fm = linalg.fill ins(%zero : f64) outs(%em : tensor<4x4xf64>) -> tensor<4x4xf64>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf64>, tensor<8x4xf64>) outs(%fm : tensor<4x4xf64>) -> tensor<4x4xf64>
  %er = tensor.empty() : tensor<4xf64>
  %fr = linalg.fill ins(%zero : f64) outs(%er : tensor<4xf64>) -> tensor<4xf64>
  %s = linalg.reduce ins(%x : tensor<4x8xf64>) outs(%fr : tensor<4xf64>) dimensions = [1]
    (%in: f64, %acc: f64) {
      %y = arith.addf %in, %acc : f64
      linalg.yield %y : f64
    }
  return %x, %m, %s : tensor<4x8xf64>, tensor<4x4xf64>, tensor<4xf64>
}
