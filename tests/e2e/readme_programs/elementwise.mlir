// linalg.elementwise <kind> (the form IREE 3.13 parses): unary, binary and ternary kinds, and
// explicit indexing maps (a transposed and a broadcast input).
func.func @ew(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %t: tensor<8x4xf32>, %row: tensor<8xf32>, %c: tensor<4x8xi1>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %s = linalg.elementwise <add> ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.elementwise <mul> ins(%s, %a : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %d = linalg.elementwise <sub> ins(%m, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %x = linalg.elementwise <exp> ins(%d : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %q = linalg.elementwise <div> ins(%x, %s : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %h = linalg.elementwise <tanh> ins(%q : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %n = linalg.elementwise <negf> ins(%h : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %mx = linalg.elementwise <max_signed> ins(%n, %a : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %k = linalg.elementwise <abs> ins(%mx : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = linalg.elementwise <sqrt> ins(%k : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %tr = linalg.elementwise <add> indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>] ins(%t, %row : tensor<8x4xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %sel = linalg.elementwise <select> ins(%c, %a, %b : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r, %tr, %sel : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}
