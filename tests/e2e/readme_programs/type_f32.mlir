// f32 tensors: arithmetic and math.exp in a generic, a matmul and a reduction.
func.func @typed(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> (tensor<4x8xf32>, tensor<4x4xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %p = arith.mulf %u, %v : f32
    %q = math.exp %p : f32
    %r = arith.subf %q, %u : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %em = tensor.empty() : tensor<4x4xf32>
  %fm = linalg.fill ins(%zero : f32) outs(%em : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%fm : tensor<4x4xf32>) -> tensor<4x4xf32>
  %er = tensor.empty() : tensor<4xf32>
  %fr = linalg.fill ins(%zero : f32) outs(%er : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.reduce ins(%x : tensor<4x8xf32>) outs(%fr : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %y = arith.addf %in, %acc : f32
      linalg.yield %y : f32
    }
  return %x, %m, %s : tensor<4x8xf32>, tensor<4x4xf32>, tensor<4xf32>
}
