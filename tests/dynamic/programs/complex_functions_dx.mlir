// Complex tan, tanh, expm1, log1p, rsqrt and atan2 on `?`-long complex<f32> vectors, in one
// elementwise generic; IREE's CPU codegen expands them to float math on the parts
// (ConvertComplexToStandardPass), atan2 through complex arithmetic, sqrt, div and log.
#m = affine_map<(d0) -> (d0)>
func.func @f(%x: tensor<?xcomplex<f32>>, %y: tensor<?xcomplex<f32>>)
    -> (tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>,
        tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xcomplex<f32>>
  %e = tensor.empty(%n) : tensor<?xcomplex<f32>>
  %r:6 = linalg.generic {indexing_maps = [#m, #m, #m, #m, #m, #m, #m, #m], iterator_types = ["parallel"]}
      ins(%x, %y : tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>)
      outs(%e, %e, %e, %e, %e, %e : tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>) {
  ^bb0(%a: complex<f32>, %b: complex<f32>, %o0: complex<f32>, %o1: complex<f32>, %o2: complex<f32>, %o3: complex<f32>, %o4: complex<f32>, %o5: complex<f32>):
    %tan = complex.tan %a : complex<f32>
    %tanh = complex.tanh %a : complex<f32>
    %expm1 = complex.expm1 %a : complex<f32>
    %log1p = complex.log1p %a : complex<f32>
    %rsqrt = complex.rsqrt %a : complex<f32>
    %atan2 = complex.atan2 %a, %b : complex<f32>
    linalg.yield %tan, %tanh, %expm1, %log1p, %rsqrt, %atan2 : complex<f32>, complex<f32>, complex<f32>, complex<f32>, complex<f32>, complex<f32>
  } -> (tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>)
  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5 : tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>
}
