// Each row of a ?x? matrix sorted ascending (a sort along dimension 1, the rows distributed).
func.func @sorted(%a: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %s = iree_linalg_ext.sort dimension(1) outs(%a : tensor<?x?xf32>) {
  ^bb0(%x: f32, %y: f32):
    %lt = arith.cmpf olt, %x, %y : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<?x?xf32>
  return %s : tensor<?x?xf32>
}
