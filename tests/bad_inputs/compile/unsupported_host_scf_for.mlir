// CASE: a loop over tensors in host code (its body forms dispatches at Flow, as IREE's does; the Stream stage does not carry host loops yet)
// EXPECT: 7:3: error: [stream] 'scf.for' on tensors in host code is not supported by ConvertToStreamPass
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
