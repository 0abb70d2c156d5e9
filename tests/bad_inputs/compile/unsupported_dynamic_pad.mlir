// CASE: padding amounts converted from a float argument (integer and index arguments are carried: tests/dynamic/test_scalar_argument_sizes.py)
// EXPECT: 7:3: error: [input] dynamic shape tensor<?xf32> of 'tensor.pad' is not supported yet
func.func @f(%a: tensor<4xf32>, %x: f32) -> tensor<?xf32> {
  %cst = arith.constant 0.0 : f32
  %j = arith.fptosi %x : f32 to i64
  %lo = arith.index_cast %j : i64 to index
  %0 = tensor.pad %a low[%lo] high[2] {
  ^bb0(%i: index):
    tensor.yield %cst : f32
  } : tensor<4xf32> to tensor<?xf32>
  return %0 : tensor<?xf32>
}
