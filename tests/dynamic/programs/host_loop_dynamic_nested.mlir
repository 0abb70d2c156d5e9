// Nested host loops carrying a `?x4` tensor whose sizes neither changes: the inner loop
// adds %a twice, the outer runs it once per element of %k (0 included). After
// CollapseDimensionsPass the inner body yields an expand_shape sized by %a's dim, which is
// the outer init's: the sizes are the init's by induction over both loops. IREE 3.13 stops
// at Flow on it ("'tensor.dim' op unexpected during shape cleanup").
func.func @nested(%a: tensor<?x4xf32>, %k: tensor<?xf32>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = tensor.dim %k, %c0 : tensor<?xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (tensor<?x4xf32>) {
    %s = scf.for %j = %c0 to %c2 step %c1 iter_args(%in = %acc) -> (tensor<?x4xf32>) {
      %h = arith.addf %in, %a : tensor<?x4xf32>
      scf.yield %h : tensor<?x4xf32>
    }
    scf.yield %s : tensor<?x4xf32>
  }
  return %r : tensor<?x4xf32>
}
