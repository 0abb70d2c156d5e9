// arith's casts, comparisons and select applied to whole tensors (MLIR's elementwise forms,
// which xDSL's arith accepts only on scalars): each becomes a linalg.generic over the scalar
// op and runs in a dispatch.

func.func @extsi_keeps_the_sign() {
  %a = util.unfoldable_constant dense<[-128, -1, 0, 127]> : tensor<4xi8>
  %wide = arith.extsi %a : tensor<4xi8> to tensor<4xi32>
  check.expect_eq_const(%wide, dense<[-128, -1, 0, 127]> : tensor<4xi32>) : tensor<4xi32>
  return
}

func.func @extui_reads_unsigned() {
  %a = util.unfoldable_constant dense<[-128, -1, 0, 127]> : tensor<4xi8>
  %wide = arith.extui %a : tensor<4xi8> to tensor<4xi32>
  check.expect_eq_const(%wide, dense<[128, 255, 0, 127]> : tensor<4xi32>) : tensor<4xi32>
  return
}

func.func @trunci_keeps_the_low_bits() {
  %a = util.unfoldable_constant dense<[256, 257, -1, 383]> : tensor<4xi32>
  %narrow = arith.trunci %a : tensor<4xi32> to tensor<4xi8>
  check.expect_eq_const(%narrow, dense<[0, 1, -1, 127]> : tensor<4xi8>) : tensor<4xi8>
  return
}

func.func @int_to_float() {
  %a = util.unfoldable_constant dense<[-3, 0, 7, 1000000]> : tensor<4xi32>
  %signed = arith.sitofp %a : tensor<4xi32> to tensor<4xf32>
  check.expect_eq_const(%signed, dense<[-3.0, 0.0, 7.0, 1000000.0]> : tensor<4xf32>) : tensor<4xf32>
  %b = util.unfoldable_constant dense<[255, 1]> : tensor<2xi8>
  %unsigned = arith.uitofp %b : tensor<2xi8> to tensor<2xf32>
  check.expect_eq_const(%unsigned, dense<[255.0, 1.0]> : tensor<2xf32>) : tensor<2xf32>
  return
}

func.func @float_to_int_rounds_toward_zero() {
  %a = util.unfoldable_constant dense<[-2.75, -0.5, 0.5, 2.75]> : tensor<4xf32>
  %signed = arith.fptosi %a : tensor<4xf32> to tensor<4xi32>
  check.expect_eq_const(%signed, dense<[-2, 0, 0, 2]> : tensor<4xi32>) : tensor<4xi32>
  %b = util.unfoldable_constant dense<[3.9, 200.5]> : tensor<2xf32>
  %unsigned = arith.fptoui %b : tensor<2xf32> to tensor<2xi32>
  check.expect_eq_const(%unsigned, dense<[3, 200]> : tensor<2xi32>) : tensor<2xi32>
  return
}

func.func @cmpf_and_select_clamp_at_zero() {
  %a = util.unfoldable_constant dense<[-1.5, 2.0, -0.25, 3.0]> : tensor<4xf32>
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  %negative = arith.cmpf olt, %a, %zero : tensor<4xf32>
  %relu = arith.select %negative, %zero, %a : tensor<4xi1>, tensor<4xf32>
  check.expect_eq_const(%relu, dense<[0.0, 2.0, 0.0, 3.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}

func.func @cmpi_and_select_pick_the_larger() {
  %a = util.unfoldable_constant dense<[1, 9, -4, 5]> : tensor<4xi32>
  %b = util.unfoldable_constant dense<[3, 2, -7, 5]> : tensor<4xi32>
  %greater = arith.cmpi sgt, %a, %b : tensor<4xi32>
  %max = arith.select %greater, %a, %b : tensor<4xi1>, tensor<4xi32>
  check.expect_eq_const(%max, dense<[3, 9, -4, 5]> : tensor<4xi32>) : tensor<4xi32>
  return
}

func.func @cmpi_result_checked_as_booleans() {
  %a = util.unfoldable_constant dense<[1, 2, 3]> : tensor<3xi32>
  %b = util.unfoldable_constant dense<[0, 1, 2]> : tensor<3xi32>
  %greater = arith.cmpi sgt, %a, %b : tensor<3xi32>
  %as_int = arith.extui %greater : tensor<3xi1> to tensor<3xi32>
  check.expect_all_true(%as_int) : tensor<3xi32>
  return
}

func.func @index_cast_round_trip() {
  %a = util.unfoldable_constant dense<[-5, 0, 42]> : tensor<3xi32>
  %index = arith.index_cast %a : tensor<3xi32> to tensor<3xindex>
  %one = arith.constant dense<1> : tensor<3xindex>
  %next = arith.addi %index, %one : tensor<3xindex>
  %back = arith.index_cast %next : tensor<3xindex> to tensor<3xi32>
  check.expect_eq_const(%back, dense<[-4, 1, 43]> : tensor<3xi32>) : tensor<3xi32>
  return
}
