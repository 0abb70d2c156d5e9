// CASE: math.fpowi on tensors (no numba-cpu kernel yet)
// EXPECT: 4:3: error: [codegen] 'math.fpowi' is not supported by the numba-cpu backend
func.func @f(%a: tensor<4xf32>, %b: tensor<4xi32>) -> tensor<4xf32> {
  %0 = math.fpowi %a, %b : tensor<4xf32>, tensor<4xi32>
  return %0 : tensor<4xf32>
}
