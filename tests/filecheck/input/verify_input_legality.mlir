// RUN: ireelab-opt %s -p iree-verify-input-legality | filecheck %s
// RUN: printf 'util.func public @f(%%a: tensor<4xbf16>) -> tensor<4xbf16> {\n  util.return %%a : tensor<4xbf16>\n}\n' | { ireelab-opt - -p iree-verify-input-legality 2>&1 || true; } | filecheck %s --check-prefix=BF16

// Supported element types pass unchanged.
util.func public @f(%a: tensor<4xf16>, %b: tensor<4xi8>, %c: tensor<4xi1>) -> tensor<4xf16> {
  util.return %a : tensor<4xf16>
}
// CHECK: util.func public @f(%{{.*}}: tensor<4xf16>, %{{.*}}: tensor<4xi8>, %{{.*}}: tensor<4xi1>)

// bf16 is refused at the function that uses it, in the input stage.
// BF16: <stdin>:1:1: error: [input] element type bf16 is not supported by the numba-cpu backend
