// A named transpose with a ?-sized operand is not carried yet: refused at its line rather than
// compiled for some fixed size.
func.func @t(%a: tensor<?x4xf32>, %e: tensor<4x?xf32>) -> tensor<4x?xf32> {
  %t = linalg.transpose ins(%a : tensor<?x4xf32>) outs(%e : tensor<4x?xf32>) permutation = [1, 0]
  return %t : tensor<4x?xf32>
}
