// CASE: a host scf.if whose branches yield `?`-sized tensors of different sizes (the result's dims would have to come from the branch taken)
// EXPECT: 8:3: error: [input] dynamic shape tensor<?xf32> of 'scf.if' is not supported yet
func.func @f(%a: tensor<?xf32>, %b: tensor<?xf32>, %p: tensor<1xi32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %v = tensor.extract %p[%c0] : tensor<1xi32>
  %c = arith.cmpi ne, %v, %zero : i32
  %r = scf.if %c -> (tensor<?xf32>) {
    scf.yield %a : tensor<?xf32>
  } else {
    scf.yield %b : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}
