// Running sums along each row of a ?x? matrix (an inclusive scan along dimension 1).
func.func @cumsum(%a: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %a, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %ea = tensor.empty(%m) : tensor<?xf32>
  %fa = linalg.fill ins(%zero : f32) outs(%ea : tensor<?xf32>) -> tensor<?xf32>
  %s:2 = iree_linalg_ext.scan dimension(1) inclusive(true) ins(%a : tensor<?x?xf32>) outs(%f, %fa : tensor<?x?xf32>, tensor<?xf32>) {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    iree_linalg_ext.yield %r : f32
  } -> tensor<?x?xf32>, tensor<?xf32>
  return %s#0 : tensor<?x?xf32>
}
