// CASE: padding amounts computed at run time into a statically shaped result (ONNX Pad with pads and axes inputs); MLIR's verifier accepts it
// EXPECT: 5:3: error: [input] low padding of 'tensor.pad' given as SSA values are not supported yet
func.func @f(%a: tensor<4xf32>, %lo: index, %hi: index) -> tensor<6xf32> {
  %cst = arith.constant 0.0 : f32
  %0 = tensor.pad %a low[%lo] high[%hi] {
  ^bb0(%i: index):
    tensor.yield %cst : f32
  } : tensor<4xf32> to tensor<6xf32>
  return %0 : tensor<6xf32>
}
