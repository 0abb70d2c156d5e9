// i64 tensors: integer arithmetic in a generic, a matmul and a max reduction.
func.func @typed(%a: tensor<4x8xi64>, %b: tensor<8x4xi64>) -> (tensor<4x8xi64>, tensor<4x4xi64>, tensor<4xi64>) {
  %zero = arith.constant 0 : i64
  %low = arith.constant -128 : i64
  %e = tensor.empty() : tensor<4x8xi64>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x8xi64>, tensor<8x4xi64>) outs(%e : tensor<4x8xi64>) {
  ^bb0(%u: i64, %v: i64, %o: i64):
    %p = arith.muli %u, %v : i64
    %q = arith.subi %p, %u : i64
    %r = arith.maxsi %q, %v : i64
    linalg.yield %r : i64
  } -> tensor<4x8xi64>
  %em = tensor.empty() : tensor<4x4xi64>
  %fm = linalg.fill ins(%zero : i64) outs(%em : tensor<4x4xi64>) -> tensor<4x4xi64>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xi64>, tensor<8x4xi64>) outs(%fm : tensor<4x4xi64>) -> tensor<4x4xi64>
  %er = tensor.empty() : tensor<4xi64>
  %fr = linalg.fill ins(%low : i64) outs(%er : tensor<4xi64>) -> tensor<4xi64>
  %s = linalg.reduce ins(%x : tensor<4x8xi64>) outs(%fr : tensor<4xi64>) dimensions = [1]
    (%in: i64, %acc: i64) {
      %y = arith.maxsi %in, %acc : i64
      linalg.yield %y : i64
    }
  return %x, %m, %s : tensor<4x8xi64>, tensor<4x4xi64>, tensor<4xi64>
}
