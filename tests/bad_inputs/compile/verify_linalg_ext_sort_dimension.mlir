// CASE: an iree_linalg_ext.sort along a dimension its operand does not have
// EXPECT: 4:3: error: [input] 'iree_linalg_ext.sort' dimension 1 is out of rank 1
func.func @f(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = iree_linalg_ext.sort dimension(1) outs(%x : tensor<4xi32>) {
    ^bb0(%a: i32, %b: i32):
      %c = arith.cmpi slt, %a, %b : i32
      iree_linalg_ext.yield %c : i1
  } -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
