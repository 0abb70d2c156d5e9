// A host loop over the rows of %a, as ONNX's GRU / NonMaxSuppression take it through IREE's
// importer: each step reads row %i (a slice at the induction variable) into an elementwise
// dispatch whose workload is %i, and writes the sum at row %i of the loop-carried tensor
// (a host flow.tensor.update at %i). iree-compile --compile-to=flow prints the same loop.
func.func @rows(%a: tensor<2x4xf32>, %b: tensor<4xf32>) -> tensor<2x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %e = tensor.empty() : tensor<2x4xf32>
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %e) -> (tensor<2x4xf32>) {
    %row = tensor.extract_slice %a[%i, 0] [1, 4] [1, 1] : tensor<2x4xf32> to tensor<4xf32>
    %x = arith.addf %row, %b : tensor<4xf32>
    %u = tensor.insert_slice %x into %acc[%i, 0] [1, 4] [1, 1] : tensor<4xf32> into tensor<2x4xf32>
    scf.yield %u : tensor<2x4xf32>
  }
  return %r : tensor<2x4xf32>
}
