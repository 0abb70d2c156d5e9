// A host loop carrying a `?`-sized tensor whose sizes the loop does not change: %acc starts
// as %a (any length, 0 included) and becomes 2 * %acc - %a, once per element of %k (any
// trip count, 0 included). The carried tensor's size is the init's (MLIR's
// DimOfIterArgFolder), so the body's dispatch has %a's size as its workload.
func.func @carried(%a: tensor<?xf32>, %k: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %k, %c0 : tensor<?xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (tensor<?xf32>) {
    %h = arith.addf %acc, %acc : tensor<?xf32>
    %s = arith.subf %h, %a : tensor<?xf32>
    scf.yield %s : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}
