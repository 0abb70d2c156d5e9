// Every kind of linalg.elementwise MLIR defines on integers, one result each, in
// this order: add, sub, mul, div, div_unsigned, max_signed, min_signed, max_unsigned, min_unsigned, select.
func.func @kinds(%a: tensor<2x8xi32>, %b: tensor<2x8xi32>, %c: tensor<2x8xi1>) -> (tensor<2x8xi32>, tensor<2x8xi32>, tensor<2x8xi32>, tensor<2x8xi32>, tensor<2x8xi32>, tensor<2x8xi32>, tensor<2x8xi32>, tensor<2x8xi32>, tensor<2x8xi32>, tensor<2x8xi32>) {
  %e = tensor.empty() : tensor<2x8xi32>
  %add = linalg.elementwise <add> ins(%a, %b : tensor<2x8xi32>, tensor<2x8xi32>) outs(%e : tensor<2x8xi32>) -> tensor<2x8xi32>
  %sub = linalg.elementwise <sub> ins(%a, %b : tensor<2x8xi32>, tensor<2x8xi32>) outs(%e : tensor<2x8xi32>) -> tensor<2x8xi32>
  %mul = linalg.elementwise <mul> ins(%a, %b : tensor<2x8xi32>, tensor<2x8xi32>) outs(%e : tensor<2x8xi32>) -> tensor<2x8xi32>
  %div = linalg.elementwise <div> ins(%a, %b : tensor<2x8xi32>, tensor<2x8xi32>) outs(%e : tensor<2x8xi32>) -> tensor<2x8xi32>
  %div_unsigned = linalg.elementwise <div_unsigned> ins(%a, %b : tensor<2x8xi32>, tensor<2x8xi32>) outs(%e : tensor<2x8xi32>) -> tensor<2x8xi32>
  %max_signed = linalg.elementwise <max_signed> ins(%a, %b : tensor<2x8xi32>, tensor<2x8xi32>) outs(%e : tensor<2x8xi32>) -> tensor<2x8xi32>
  %min_signed = linalg.elementwise <min_signed> ins(%a, %b : tensor<2x8xi32>, tensor<2x8xi32>) outs(%e : tensor<2x8xi32>) -> tensor<2x8xi32>
  %max_unsigned = linalg.elementwise <max_unsigned> ins(%a, %b : tensor<2x8xi32>, tensor<2x8xi32>) outs(%e : tensor<2x8xi32>) -> tensor<2x8xi32>
  %min_unsigned = linalg.elementwise <min_unsigned> ins(%a, %b : tensor<2x8xi32>, tensor<2x8xi32>) outs(%e : tensor<2x8xi32>) -> tensor<2x8xi32>
  %select = linalg.elementwise <select> ins(%c, %a, %b : tensor<2x8xi1>, tensor<2x8xi32>, tensor<2x8xi32>) outs(%e : tensor<2x8xi32>) -> tensor<2x8xi32>
  return %add, %sub, %mul, %div, %div_unsigned, %max_signed, %min_signed, %max_unsigned, %min_unsigned, %select : tensor<2x8xi32>, tensor<2x8xi32>, tensor<2x8xi32>, tensor<2x8xi32>, tensor<2x8xi32>, tensor<2x8xi32>, tensor<2x8xi32>, tensor<2x8xi32>, tensor<2x8xi32>, tensor<2x8xi32>
}
