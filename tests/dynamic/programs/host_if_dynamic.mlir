// A host scf.if yielding a `?`-sized tensor: %a doubled when %p[0] is nonzero, else %a
// itself. Both branches yield %a's sizes, so the result has them (`tensor<?xf32>{%d}` at
// the export, as iree-compile prints it) and Stream carries it as a resource and its size.
func.func @pick(%a: tensor<?xf32>, %p: tensor<1xi32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %v = tensor.extract %p[%c0] : tensor<1xi32>
  %c = arith.cmpi ne, %v, %zero : i32
  %r = scf.if %c -> (tensor<?xf32>) {
    %x = arith.addf %a, %a : tensor<?xf32>
    scf.yield %x : tensor<?xf32>
  } else {
    scf.yield %a : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}
