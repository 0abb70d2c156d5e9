// CASE: a module nested in the top-level one (valid MLIR; ireelab compiles one module's functions)
// EXPECT: 4:3: error: [input] nested module @inner is not supported (ireelab compiles the top-level module's functions)
module @outer {
  module @inner {
    func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
      return %a : tensor<4xf32>
    }
  }
}
