// Every kind of linalg.elementwise MLIR defines on floats, one result each, in
// this order: exp, log, abs, ceil, floor, negf, reciprocal, round, sqrt, rsqrt, square, tanh, erf, add, sub, mul, div, max_signed, min_signed, powf, select.
func.func @kinds(%a: tensor<2x8xf32>, %b: tensor<2x8xf32>, %c: tensor<2x8xi1>) -> (tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>) {
  %e = tensor.empty() : tensor<2x8xf32>
  %exp = linalg.elementwise <exp> ins(%a : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %log = linalg.elementwise <log> ins(%a : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %abs = linalg.elementwise <abs> ins(%a : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %ceil = linalg.elementwise <ceil> ins(%a : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %floor = linalg.elementwise <floor> ins(%a : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %negf = linalg.elementwise <negf> ins(%a : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %reciprocal = linalg.elementwise <reciprocal> ins(%a : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %round = linalg.elementwise <round> ins(%a : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sqrt = linalg.elementwise <sqrt> ins(%a : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %rsqrt = linalg.elementwise <rsqrt> ins(%a : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %square = linalg.elementwise <square> ins(%a : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %tanh = linalg.elementwise <tanh> ins(%a : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %erf = linalg.elementwise <erf> ins(%a : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %add = linalg.elementwise <add> ins(%a, %b : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sub = linalg.elementwise <sub> ins(%a, %b : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %mul = linalg.elementwise <mul> ins(%a, %b : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %div = linalg.elementwise <div> ins(%a, %b : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %max_signed = linalg.elementwise <max_signed> ins(%a, %b : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %min_signed = linalg.elementwise <min_signed> ins(%a, %b : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %powf = linalg.elementwise <powf> ins(%a, %b : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %select = linalg.elementwise <select> ins(%c, %a, %b : tensor<2x8xi1>, tensor<2x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  return %exp, %log, %abs, %ceil, %floor, %negf, %reciprocal, %round, %sqrt, %rsqrt, %square, %tanh, %erf, %add, %sub, %mul, %div, %max_signed, %min_signed, %powf, %select : tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>
}
