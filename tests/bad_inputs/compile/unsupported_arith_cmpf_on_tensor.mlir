// CASE: a compare of whole tensors (valid MLIR, result tensor<4xi1>; xDSL read it with an i1 result and failed at the use)
// EXPECT: 4:3: error: 'arith.cmpf' on tensors is not supported (ireelab's arith casts, compares and selects take scalars; apply it in a linalg.generic body): operands of type tensor<4xf32>
func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xi1> {
  %0 = arith.cmpf olt, %a, %b : tensor<4xf32>
  return %0 : tensor<4xi1>
}
