// CASE: a memref crossing the ABI
// EXPECT: 3:1: error: [input] type memref<4xf32> is not supported (ireelab compiles ops on ranked tensors and scalars)
func.func @f(%a: memref<4xf32>) -> memref<4xf32> {
  return %a : memref<4xf32>
}
