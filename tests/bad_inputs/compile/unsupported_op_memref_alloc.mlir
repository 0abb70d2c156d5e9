// CASE: a memref op in an input program (ireelab's input is tensors)
// EXPECT: 4:3: error: [input] 'memref.alloc': the memref dialect is not input (ireelab's input is tensors; memrefs appear only inside its codegen)
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %m = memref.alloc() : memref<4xf32>
  %e = math.exp %a : tensor<4xf32>
  return %e : tensor<4xf32>
}
