// CASE: the same cast in generic form, which parses and fails the verifier
// EXPECT: 4:3: error: [input] 'arith.sitofp' on tensors is not supported (ireelab's arith casts, compares and selects take scalars; apply it in a linalg.generic body): operand 'input' at position 0 does not verify: tensor<4xi32> should be of base attribute integer_type
func.func @f(%a: tensor<4xi32>) -> tensor<4xf32> {
  %0 = "arith.sitofp"(%a) : (tensor<4xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
