// CASE: a runtime assertion in host code (IREE lowers it to vm.cond_fail; ireelab's VM stage does not)
// EXPECT: 4:3: error: [vm] 'cf.assert' cannot be converted to the vm dialect
func.func @f(%c: i1, %a: tensor<4xf32>) -> tensor<4xf32> {
  cf.assert %c, "the flag must be set"
  %e = math.exp %a : tensor<4xf32>
  return %e : tensor<4xf32>
}
