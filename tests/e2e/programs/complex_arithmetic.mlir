// complex<f32> tensors in the signature (HAL's complex float 64 element type), divided
// (Smith's algorithm: no overflow at 1e30), negated, conjugated, subtracted and compared.
#m = affine_map<(d0) -> (d0)>
func.func @ops(%x: tensor<6xcomplex<f32>>, %y: tensor<6xcomplex<f32>>) -> (tensor<6xcomplex<f32>>, tensor<6xi1>) {
  %e = tensor.empty() : tensor<6xcomplex<f32>>
  %eb = tensor.empty() : tensor<6xi1>
  %r:2 = linalg.generic {indexing_maps = [#m, #m, #m, #m], iterator_types = ["parallel"]} ins(%x, %y : tensor<6xcomplex<f32>>, tensor<6xcomplex<f32>>) outs(%e, %eb : tensor<6xcomplex<f32>>, tensor<6xi1>) {
  ^bb0(%a: complex<f32>, %b: complex<f32>, %o: complex<f32>, %ob: i1):
    %q = complex.div %a, %b : complex<f32>
    %n = complex.neg %q : complex<f32>
    %c = complex.conj %b : complex<f32>
    %s = complex.sub %n, %c : complex<f32>
    %eq = complex.eq %a, %b : complex<f32>
    linalg.yield %s, %eq : complex<f32>, i1
  } -> (tensor<6xcomplex<f32>>, tensor<6xi1>)
  return %r#0, %r#1 : tensor<6xcomplex<f32>>, tensor<6xi1>
}
