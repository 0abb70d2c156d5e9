// A sort of a ?-sized vector: the bubble passes are bounded by the buffer's run-time extent.
func.func @sorted(%a: tensor<?xf32>) -> tensor<?xf32> {
  %s = iree_linalg_ext.sort dimension(0) outs(%a : tensor<?xf32>) {
  ^bb0(%x: f32, %y: f32):
    %lt = arith.cmpf olt, %x, %y : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<?xf32>
  return %s : tensor<?xf32>
}
