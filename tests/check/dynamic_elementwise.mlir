// `arith` / `math` on whole `?`-sized tensors (ConvertElementwiseToLinalgPass sizes the
// generic by its operands' dims), linalg.quantized_matmul on `?` sizes, and check ops that
// compare two `?`-sized results (each exported to a buffer view of its run-time shape).

func.func @extend_and_add_dynamic_tensors() {
  %a = flow.tensor.dynamic_constant dense<[[1, -2, 3], [-128, 127, 0]]> : tensor<2x3xi8> -> tensor<?x?xi8>
  %b = flow.tensor.dynamic_constant dense<[[10, 20, 30], [40, 50, 60]]> : tensor<2x3xi32> -> tensor<?x?xi32>
  %wide = arith.extsi %a : tensor<?x?xi8> to tensor<?x?xi32>
  %sum = arith.addi %wide, %b : tensor<?x?xi32>
  %static = tensor.cast %sum : tensor<?x?xi32> to tensor<2x3xi32>
  check.expect_eq_const(%static, dense<[[11, 18, 33], [-88, 177, 60]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  return
}

func.func @math_on_a_dynamic_tensor_compared_as_dynamic() {
  %x = flow.tensor.dynamic_constant dense<[-1.5, 2.0, -0.25, 0.0, 3.0]> : tensor<5xf32> -> tensor<?xf32>
  %y = flow.tensor.dynamic_constant dense<[1.5, 2.0, 0.25, 0.0, 3.0]> : tensor<5xf32> -> tensor<?xf32>
  %abs = math.absf %x : tensor<?xf32>
  check.expect_almost_eq(%abs, %y) : tensor<?xf32>
  %neg = arith.negf %abs : tensor<?xf32>
  %back = arith.negf %neg : tensor<?xf32>
  check.expect_eq(%back, %y) : tensor<?xf32>
  return
}

func.func @dynamic_quantized_matmul() {
  %lhs = flow.tensor.dynamic_constant dense<[[3, -2, 7], [-128, 5, 127]]> : tensor<2x3xi8> -> tensor<?x?xi8>
  %rhs = flow.tensor.dynamic_constant dense<[[1, 2], [-3, 4], [5, -6]]> : tensor<3x2xi8> -> tensor<?x?xi8>
  %lhs_zp = arith.constant 2 : i32
  %rhs_zp = arith.constant -1 : i32
  %zero = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %lhs, %c0 : tensor<?x?xi8>
  %n = tensor.dim %rhs, %c1 : tensor<?x?xi8>
  %empty = tensor.empty(%m, %n) : tensor<?x?xi32>
  %acc = linalg.fill ins(%zero : i32) outs(%empty : tensor<?x?xi32>) -> tensor<?x?xi32>
  %q = linalg.quantized_matmul ins(%lhs, %rhs, %lhs_zp, %rhs_zp : tensor<?x?xi8>, tensor<?x?xi8>, i32, i32) outs(%acc : tensor<?x?xi32>) -> tensor<?x?xi32>
  %static = tensor.cast %q : tensor<?x?xi32> to tensor<2x2xi32>
  check.expect_eq_const(%static, dense<[[40, -42], [484, -1000]]> : tensor<2x2xi32>) : tensor<2x2xi32>
  return
}

func.func private @exp_of_any_length(%a : tensor<?xf32>) -> tensor<?xf32> {
  %e = math.exp %a : tensor<?xf32>
  return %e : tensor<?xf32>
}

func.func @static_tensor_through_private_elementwise_math() {
  // Inlined, the exp's operand is a cast of a static tensor: the generic it becomes is
  // static (IREE's dispatch here is `_elementwise_4_f32` too).
  %x = util.unfoldable_constant dense<[0.0, 1.0, -1.0, 2.0]> : tensor<4xf32>
  %d = tensor.cast %x : tensor<4xf32> to tensor<?xf32>
  %0 = call @exp_of_any_length(%d) : (tensor<?xf32>) -> tensor<?xf32>
  %e = tensor.cast %0 : tensor<?xf32> to tensor<4xf32>
  check.expect_almost_eq_const(%e, dense<[1.0, 2.7182818, 0.36787944, 7.3890561]> : tensor<4xf32>) : tensor<4xf32>
  return
}
