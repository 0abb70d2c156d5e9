// f16 tensors: arithmetic and math.exp in a generic, a matmul and a reduction.
func.func @typed(%a: tensor<4x8xf16>, %b: tensor<8x4xf16>) -> (tensor<4x8xf16>, tensor<4x4xf16>, tensor<4xf16>) {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4x8xf16>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x8xf16>, tensor<8x4xf16>) outs(%e : tensor<4x8xf16>) {
  ^bb0(%u: f16, %v: f16, %o: f16):
    %p = arith.mulf %u, %v : f16
    %q = math.exp %p : f16
    %r = arith.subf %q, %u : f16
    linalg.yield %r : f16
  } -> tensor<4x8xf16>
  %em = tensor.empty() : tensor<4x4xf16>
  %fm = linalg.fill ins(%zero : f16) outs(%em : tensor<4x4xf16>) -> tensor<4x4xf16>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x4xf16>) outs(%fm : tensor<4x4xf16>) -> tensor<4x4xf16>
  %er = tensor.empty() : tensor<4xf16>
  %fr = linalg.fill ins(%zero : f16) outs(%er : tensor<4xf16>) -> tensor<4xf16>
  %s = linalg.reduce ins(%x : tensor<4x8xf16>) outs(%fr : tensor<4xf16>) dimensions = [1]
    (%in: f16, %acc: f16) {
      %y = arith.addf %in, %acc : f16
      linalg.yield %y : f16
    }
  return %x, %m, %s : tensor<4x8xf16>, tensor<4x4xf16>, tensor<4xf16>
}
