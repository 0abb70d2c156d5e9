// A host loop whose trip count is a run-time size: the sum of the rows of %a (any number of
// rows, 0 included) plus %b. The carried tensor is static; each step reads row %i of %a in
// a dispatch whose workload is %i, so one module serves every trip count.
func.func @sum_rows(%a: tensor<?x4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %a, %c0 : tensor<?x4xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %b) -> (tensor<4xf32>) {
    %row = tensor.extract_slice %a[%i, 0] [1, 4] [1, 1] : tensor<?x4xf32> to tensor<4xf32>
    %x = arith.addf %acc, %row : tensor<4xf32>
    scf.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
