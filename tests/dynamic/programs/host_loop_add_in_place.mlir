// A host loop whose body adds %a to the carried tensor in place (linalg.add writing its
// `outs`, the carried value itself): formerly a bad-input case Stream refused; 4 * %a.
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %a) -> (tensor<4xf32>) {
    %n = linalg.add ins(%acc, %a : tensor<4xf32>, tensor<4xf32>) outs(%acc : tensor<4xf32>) -> tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
