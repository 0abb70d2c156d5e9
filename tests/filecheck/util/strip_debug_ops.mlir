// RUN: ireelab-opt %s -p iree-util-strip-debug-ops | filecheck %s

// An assertion in a kernel body (ONNX gather's bounds check) goes; the compare it read stays
// for dead-code elimination, the gather itself is untouched.
util.func public @kernel(%a: tensor<4xf32>, %i: tensor<2xi64>) -> tensor<2xf32> {
  %e = tensor.empty() : tensor<2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%i : tensor<2xi64>) outs(%e : tensor<2xf32>) {
  ^bb0(%in: i64, %out: f32):
    %c4 = arith.constant 4 : i64
    %ok = arith.cmpi slt, %in, %c4 : i64
    cf.assert %ok, "index must be smaller than dim size"
    %j = arith.index_cast %in : i64 to index
    %v = tensor.extract %a[%j] : tensor<4xf32>
    linalg.yield %v : f32
  } -> tensor<2xf32>
  util.return %r : tensor<2xf32>
}
// CHECK-LABEL: util.func public @kernel
// CHECK:         arith.cmpi slt
// CHECK-NOT:     cf.assert
// CHECK:         tensor.extract
// CHECK:         linalg.yield

// A host assertion goes too: IREE strips them module-wide at its default optimisation level.
util.func public @host(%x: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %c = arith.cmpi sgt, %x, %zero : i32
  cf.assert %c, "x must be positive"
  util.return %x : i32
}
// CHECK-LABEL: util.func public @host
// CHECK-NOT:     cf.assert
// CHECK:         util.return
