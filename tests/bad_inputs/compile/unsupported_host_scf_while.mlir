// CASE: an scf.while loop carrying a tensor in host code
// EXPECT: 4:3: error: [flow] 'scf.while' on tensors cannot be placed in a dispatch
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = scf.while (%x = %a) : (tensor<4xf32>) -> tensor<4xf32> {
    %c = arith.constant false
    scf.condition(%c) %x : tensor<4xf32>
  } do {
  ^bb0(%y: tensor<4xf32>):
    %e = math.exp %y : tensor<4xf32>
    scf.yield %e : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
