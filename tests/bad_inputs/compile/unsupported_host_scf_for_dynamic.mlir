// CASE: a host loop carrying a tensor whose `?` size changes per iteration (grown by a concat: its dims would have to travel with it; IREE 3.13 returns an empty tensor for it)
// EXPECT: 9:3: error: [input] dynamic shape tensor<?xf32> of 'scf.for' is not supported yet
func.func @f(%a: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %a, %c0 : tensor<?xf32>
  %e = tensor.empty() : tensor<0xf32>
  %init = tensor.cast %e : tensor<0xf32> to tensor<?xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<?xf32>) {
    %x = tensor.extract_slice %a[%i] [1] [1] : tensor<?xf32> to tensor<1xf32>
    %g = tensor.concat dim(0) %acc, %x : (tensor<?xf32>, tensor<1xf32>) -> tensor<?xf32>
    scf.yield %g : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}
