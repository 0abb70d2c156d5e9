// Complex elementary functions on `?`-long complex<f32> vectors, in one elementwise generic:
// exp, log, pow, sqrt, sin, cos, sign and angle, which IREE's CPU codegen expands to float
// math on the parts (ConvertComplexToStandardPass).
#m = affine_map<(d0) -> (d0)>
func.func @f(%x: tensor<?xcomplex<f32>>, %y: tensor<?xcomplex<f32>>)
    -> (tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>,
        tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xcomplex<f32>>
  %e = tensor.empty(%n) : tensor<?xcomplex<f32>>
  %ef = tensor.empty(%n) : tensor<?xf32>
  %r:7 = linalg.generic {indexing_maps = [#m, #m, #m, #m, #m, #m, #m, #m, #m], iterator_types = ["parallel"]}
      ins(%x, %y : tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>)
      outs(%e, %e, %e, %e, %e, %e, %ef : tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>, tensor<?xf32>) {
  ^bb0(%a: complex<f32>, %b: complex<f32>, %o0: complex<f32>, %o1: complex<f32>, %o2: complex<f32>, %o3: complex<f32>, %o4: complex<f32>, %o5: complex<f32>, %o6: f32):
    %exp = complex.exp %a : complex<f32>
    %log = complex.log %a : complex<f32>
    %pow = complex.pow %a, %b : complex<f32>
    %sqrt = complex.sqrt %a : complex<f32>
    %sin = complex.sin %a : complex<f32>
    %cos = complex.cos %b : complex<f32>
    %sincos = complex.add %sin, %cos : complex<f32>
    %sign = complex.sign %a : complex<f32>
    %angle = complex.angle %a : complex<f32>
    linalg.yield %exp, %log, %pow, %sqrt, %sincos, %sign, %angle : complex<f32>, complex<f32>, complex<f32>, complex<f32>, complex<f32>, complex<f32>, f32
  } -> (tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>, tensor<?xf32>)
  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6 : tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>, tensor<?xcomplex<f32>>, tensor<?xf32>
}
