// The 3 largest of each row of a `?x?` input, with their positions.
func.func @top3(%x: tensor<?x?xf32>) -> (tensor<?x3xf32>, tensor<?x3xi32>) {
  %c0 = arith.constant 0 : index
  %rows = tensor.dim %x, %c0 : tensor<?x?xf32>
  %neg_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i32
  %ve = tensor.empty(%rows) : tensor<?x3xf32>
  %ie = tensor.empty(%rows) : tensor<?x3xi32>
  %vi = linalg.fill ins(%neg_inf : f32) outs(%ve : tensor<?x3xf32>) -> tensor<?x3xf32>
  %ii = linalg.fill ins(%zero : i32) outs(%ie : tensor<?x3xi32>) -> tensor<?x3xi32>
  %r:2 = iree_linalg_ext.topk_v2 dimension(1) is_sorted ins(%x : tensor<?x?xf32>) outs(%vi, %ii : tensor<?x3xf32>, tensor<?x3xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<?x3xf32>, tensor<?x3xi32>
  return %r#0, %r#1 : tensor<?x3xf32>, tensor<?x3xi32>
}
