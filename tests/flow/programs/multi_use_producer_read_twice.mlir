// ONNX CenterCropPad's size arithmetic: %3 and %4 both read %2, and %4 reads %3 too. After
// %2 fuses into %3 (which returns %2 for %4), %4 reads two results of one producer; fusing
// it must substitute both reads, not leave one reading the fused op's own result.
func.func @f(%arg1: tensor<2xi64>) -> (tensor<2xi64>, tensor<2xi64>) {
    %cst_1 = arith.constant dense<2> : tensor<1xi64>
    %cst_2 = arith.constant dense<[20, 8]> : tensor<2xi64>
    %0 = tensor.empty() : tensor<2xi64>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%cst_2, %arg1 : tensor<2xi64>, tensor<2xi64>) outs(%0 : tensor<2xi64>) {
    ^bb0(%in: i64, %in_15: i64, %out: i64):
      %41 = arith.maxsi %in, %in_15 : i64
      linalg.yield %41 : i64
    } -> tensor<2xi64>
    %2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%1, %cst_2 : tensor<2xi64>, tensor<2xi64>) outs(%0 : tensor<2xi64>) {
    ^bb0(%in: i64, %in_15: i64, %out: i64):
      %41 = arith.subi %in, %in_15 : i64
      linalg.yield %41 : i64
    } -> tensor<2xi64>
    %3 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%2, %cst_1 : tensor<2xi64>, tensor<1xi64>) outs(%0 : tensor<2xi64>) {
    ^bb0(%in: i64, %in_15: i64, %out: i64):
      %41 = arith.divsi %in, %in_15 : i64
      linalg.yield %41 : i64
    } -> tensor<2xi64>
    %4 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%2, %3 : tensor<2xi64>, tensor<2xi64>) outs(%0 : tensor<2xi64>) {
    ^bb0(%in: i64, %in_15: i64, %out: i64):
      %41 = arith.subi %in, %in_15 : i64
      linalg.yield %41 : i64
    } -> tensor<2xi64>
    return %3, %4 : tensor<2xi64>, tensor<2xi64>
}
