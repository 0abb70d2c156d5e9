// CASE: a math op the numba-cpu backend has no kernel for, written on a tensor (its error was unlocated)
// EXPECT: 4:3: error: [codegen] 'math.ctlz' is not supported by the numba-cpu backend
func.func @f(%a: tensor<4xi32>) -> tensor<4xi32> {
  %0 = math.ctlz %a : tensor<4xi32>
  return %0 : tensor<4xi32>
}
