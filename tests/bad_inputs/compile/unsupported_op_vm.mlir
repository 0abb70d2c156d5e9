// CASE: a vm op written in the input (vm is what ireelab's last stage makes)
// EXPECT: 4:3: error: [input] 'vm.const.i32': the vm dialect is not input (vm ops are made by ireelab's VM stage, not read from input)
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c = vm.const.i32 1
  return %a : tensor<4xf32>
}
