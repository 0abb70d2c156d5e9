// CASE: a loop written as blocks: a back edge carrying a tensor
// EXPECT: 6:3: error: [input] 'cf.br': control flow between blocks is not supported ('@f' has 4 blocks; ireelab compiles single-block regions)
func.func @f(%a: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  cf.br ^head(%c0, %a : index, tensor<4xf32>)
^head(%i: index, %acc: tensor<4xf32>):
  %done = arith.cmpi sge, %i, %n : index
  cf.cond_br %done, ^exit, ^body
^body:
  %next = math.exp %acc : tensor<4xf32>
  %j = arith.addi %i, %c1 : index
  cf.br ^head(%j, %next : index, tensor<4xf32>)
^exit:
  return %acc : tensor<4xf32>
}
