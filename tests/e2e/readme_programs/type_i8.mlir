// i8 tensors: integer arithmetic in a generic, a matmul and a max reduction.
func.func @typed(%a: tensor<4x8xi8>, %b: tensor<8x4xi8>) -> (tensor<4x8xi8>, tensor<4x4xi8>, tensor<4xi8>) {
  %zero = arith.constant 0 : i8
  %low = arith.constant -128 : i8
  %e = tensor.empty() : tensor<4x8xi8>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x8xi8>, tensor<8x4xi8>) outs(%e : tensor<4x8xi8>) {
  ^bb0(%u: i8, %v: i8, %o: i8):
    %p = arith.muli %u, %v : i8
    %q = arith.subi %p, %u : i8
    %r = arith.maxsi %q, %v : i8
    linalg.yield %r : i8
  } -> tensor<4x8xi8>
  %em = tensor.empty() : tensor<4x4xi8>
  %fm = linalg.fill ins(%zero : i8) outs(%em : tensor<4x4xi8>) -> tensor<4x4xi8>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xi8>, tensor<8x4xi8>) outs(%fm : tensor<4x4xi8>) -> tensor<4x4xi8>
  %er = tensor.empty() : tensor<4xi8>
  %fr = linalg.fill ins(%low : i8) outs(%er : tensor<4xi8>) -> tensor<4xi8>
  %s = linalg.reduce ins(%x : tensor<4x8xi8>) outs(%fr : tensor<4xi8>) dimensions = [1]
    (%in: i8, %acc: i8) {
      %y = arith.maxsi %in, %acc : i8
      linalg.yield %y : i8
    }
  return %x, %m, %s : tensor<4x8xi8>, tensor<4x4xi8>, tensor<4xi8>
}
