// A host loop reading a row of %table at an offset the loop carries (an extract_slice at a
// loop-carried index, not the induction variable): step i adds row %pos of %table, scaled
// by row i of %w, to the accumulator, and moves %pos to (5 * %pos + 3) mod 16. The trip
// count is the number of rows of %w (0 included); %start is read back from a tensor.
func.func @walk(%table: tensor<16x4xf32>, %w: tensor<?x4xf32>, %start: tensor<1xi64>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %w, %c0 : tensor<?x4xf32>
  %s = tensor.extract %start[%c0] : tensor<1xi64>
  %s_index = arith.index_cast %s : i64 to index
  %p0 = arith.remui %s_index, %c16 : index
  %e = tensor.empty() : tensor<4xf32>
  %acc0 = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %pos = %p0) -> (tensor<4xf32>, index) {
    %row = tensor.extract_slice %table[%pos, 0] [1, 4] [1, 1] : tensor<16x4xf32> to tensor<4xf32>
    %wi = tensor.extract_slice %w[%i, 0] [1, 4] [1, 1] : tensor<?x4xf32> to tensor<4xf32>
    %prod = arith.mulf %row, %wi : tensor<4xf32>
    %sum = arith.addf %acc, %prod : tensor<4xf32>
    %p5 = arith.muli %pos, %c5 : index
    %p53 = arith.addi %p5, %c3 : index
    %next = arith.remui %p53, %c16 : index
    scf.yield %sum, %next : tensor<4xf32>, index
  }
  return %r#0 : tensor<4xf32>
}
