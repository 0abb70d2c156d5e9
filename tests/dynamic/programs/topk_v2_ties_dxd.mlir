// The 4 largest of each row of a ?x? input, sorted, with their positions: rows with repeated
// values, whose positions IREE's sorted lowering ranks in its own order.
func.func @top4(%x: tensor<?x?xf32>) -> (tensor<?x4xf32>, tensor<?x4xi32>) {
  %c0 = arith.constant 0 : index
  %rows = tensor.dim %x, %c0 : tensor<?x?xf32>
  %neg_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i32
  %ve = tensor.empty(%rows) : tensor<?x4xf32>
  %ie = tensor.empty(%rows) : tensor<?x4xi32>
  %vi = linalg.fill ins(%neg_inf : f32) outs(%ve : tensor<?x4xf32>) -> tensor<?x4xf32>
  %ii = linalg.fill ins(%zero : i32) outs(%ie : tensor<?x4xi32>) -> tensor<?x4xi32>
  %r:2 = iree_linalg_ext.topk_v2 dimension(1) is_sorted ins(%x : tensor<?x?xf32>) outs(%vi, %ii : tensor<?x4xf32>, tensor<?x4xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<?x4xf32>, tensor<?x4xi32>
  return %r#0, %r#1 : tensor<?x4xf32>, tensor<?x4xi32>
}
