// CASE: padding amounts converted from a float argument into a statically shaped result; MLIR's verifier accepts it
// EXPECT: 8:3: error: [input] low padding of 'tensor.pad' given as SSA values are not supported yet
func.func @f(%a: tensor<4xf32>, %x: f32) -> tensor<6xf32> {
  %cst = arith.constant 0.0 : f32
  %l = arith.fptosi %x : f32 to i64
  %lo = arith.index_cast %l : i64 to index
  %hi = arith.index_cast %l : i64 to index
  %0 = tensor.pad %a low[%lo] high[%hi] {
  ^bb0(%i: index):
    tensor.yield %cst : f32
  } : tensor<4xf32> to tensor<6xf32>
  return %0 : tensor<6xf32>
}
