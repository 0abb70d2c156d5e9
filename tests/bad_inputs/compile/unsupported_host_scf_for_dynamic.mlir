// CASE: a host loop carrying a tensor with a `?` dim (its dims would have to travel with it; the input stage refuses it, and ConvertToStreamPass carries static tensors only)
// EXPECT: 7:3: error: [input] dynamic shape tensor<?xf32> of 'scf.for' is not supported yet
func.func @f(%a: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %a) -> (tensor<?xf32>) {
    %n = arith.addf %acc, %a : tensor<?xf32>
    scf.yield %n : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}
