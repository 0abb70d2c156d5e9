// RUN: ireelab-opt %s -p iree-verify-input-legality | filecheck %s
// RUN: printf 'util.func public @f(%%a: tensor<4xf4E2M1FN>) -> tensor<4xf4E2M1FN> {\n  util.return %%a : tensor<4xf4E2M1FN>\n}\n' | { ireelab-opt - -p iree-verify-input-legality 2>&1 || true; } | filecheck %s --check-prefix=F4
// RUN: printf 'util.func public @h(%%a: tensor<8x16xf32>) -> tensor<4x8xf32> {\n  %%r = tensor.extract_slice %%a[2, 4] [4, 8] [2, 1] : tensor<8x16xf32> to tensor<4x8xf32>\n  util.return %%r : tensor<4x8xf32>\n}\n' | { ireelab-opt - -p iree-verify-input-legality 2>&1 || true; } | filecheck %s --check-prefix=OOB

// Supported element types pass unchanged (bf16 and the 8-bit floats are computed in f32).
util.func public @f(%a: tensor<4xf16>, %b: tensor<4xi8>, %c: tensor<4xi1>, %d: tensor<4xbf16>, %e: tensor<4xf8E4M3FNUZ>) -> tensor<4xf16> {
  util.return %a : tensor<4xf16>
}
// CHECK: util.func public @f(%{{.*}}: tensor<4xf16>, %{{.*}}: tensor<4xi8>, %{{.*}}: tensor<4xi1>, %{{.*}}: tensor<4xbf16>, %{{.*}}: tensor<4xf8E4M3FNUZ>)

// A packed sub-byte float in a public signature is refused at the function, in the input stage
// (inside the program it is computed: tests/check/microscaling_floats.mlir).
// F4: <stdin>:1:1: error: [input] tensor<4xf4E2M1FN> in a public function's signature is not supported

// A static slice that runs past its tensor (rows 2, 4, 6, 8 of 8) is refused at the slice.
// OOB: <stdin>:2:3: error: [input] 'tensor.extract_slice' reaches index 8, out of bounds for dimension 0 of tensor<8x16xf32> (size 8)
