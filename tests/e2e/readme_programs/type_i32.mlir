// i32 tensors: integer arithmetic in a generic, a matmul and a max reduction.
func.func @typed(%a: tensor<4x8xi32>, %b: tensor<8x4xi32>) -> (tensor<4x8xi32>, tensor<4x4xi32>, tensor<4xi32>) {
  %zero = arith.constant 0 : i32
  %low = arith.constant -128 : i32
  %e = tensor.empty() : tensor<4x8xi32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x8xi32>, tensor<8x4xi32>) outs(%e : tensor<4x8xi32>) {
  ^bb0(%u: i32, %v: i32, %o: i32):
    %p = arith.muli %u, %v : i32
    %q = arith.subi %p, %u : i32
    %r = arith.maxsi %q, %v : i32
    linalg.yield %r : i32
  } -> tensor<4x8xi32>
  %em = tensor.empty() : tensor<4x4xi32>
  %fm = linalg.fill ins(%zero : i32) outs(%em : tensor<4x4xi32>) -> tensor<4x4xi32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xi32>, tensor<8x4xi32>) outs(%fm : tensor<4x4xi32>) -> tensor<4x4xi32>
  %er = tensor.empty() : tensor<4xi32>
  %fr = linalg.fill ins(%low : i32) outs(%er : tensor<4xi32>) -> tensor<4xi32>
  %s = linalg.reduce ins(%x : tensor<4x8xi32>) outs(%fr : tensor<4xi32>) dimensions = [1]
    (%in: i32, %acc: i32) {
      %y = arith.maxsi %in, %acc : i32
      linalg.yield %y : i32
    }
  return %x, %m, %s : tensor<4x8xi32>, tensor<4x4xi32>, tensor<4xi32>
}
