// CASE: a runtime assertion in host code (IREE lowers it to vm.cond_fail; ireelab's VM stage does not)
// EXPECT: 7:3: error: [vm] 'cf.assert' cannot be converted to the vm dialect
func.func @f(%x: i32, %a: tensor<4xf32>) -> tensor<4xf32> {
  %zero = arith.constant 0 : i32
  %c = arith.cmpi sgt, %x, %zero : i32
  %e = math.exp %a : tensor<4xf32>
  cf.assert %c, "x must be positive"
  return %e : tensor<4xf32>
}
