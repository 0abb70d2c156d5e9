// CASE: an scf.if choosing between tensors in host code
// EXPECT: 4:3: error: [flow] 'scf.if' on tensors cannot be placed in a dispatch
func.func @f(%c: i1, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = scf.if %c -> (tensor<4xf32>) {
    scf.yield %a : tensor<4xf32>
  } else {
    %e = math.exp %b : tensor<4xf32>
    scf.yield %e : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
