// Exclusive running products down each column of a ?x? matrix, starting from 1 (a scan along
// dimension 0), returning the scan and the accumulator (its last row: IREE combines the last
// element into neither).
func.func @cumprod(%a: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %a, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %ea = tensor.empty(%n) : tensor<?xf32>
  %fa = linalg.fill ins(%one : f32) outs(%ea : tensor<?xf32>) -> tensor<?xf32>
  %s:2 = iree_linalg_ext.scan dimension(0) inclusive(false) ins(%a : tensor<?x?xf32>) outs(%e, %fa : tensor<?x?xf32>, tensor<?xf32>) {
  ^bb0(%x: f32, %y: f32):
    %r = arith.mulf %x, %y : f32
    iree_linalg_ext.yield %r : f32
  } -> tensor<?x?xf32>, tensor<?xf32>
  return %s#0, %s#1 : tensor<?x?xf32>, tensor<?xf32>
}
