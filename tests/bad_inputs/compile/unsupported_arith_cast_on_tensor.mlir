// CASE: an arith cast applied to a whole tensor (valid MLIR; xDSL's arith casts take scalars)
// EXPECT: 4:3: error: 'arith.extsi' on tensors is not supported (ireelab's arith casts, compares and selects take scalars; apply it in a linalg.generic body): tensor<4xi8> should be of base attribute integer_type
func.func @f(%a: tensor<4xi8>) -> tensor<4xi32> {
  %0 = arith.extsi %a : tensor<4xi8> to tensor<4xi32>
  return %0 : tensor<4xi32>
}
