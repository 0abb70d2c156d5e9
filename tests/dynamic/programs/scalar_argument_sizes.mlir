// Sizes and offsets given as scalar arguments: the host passes them in VM registers and
// each reaches its dispatch as a workload / push constant (as iree-compile does).
func.func @slice_at(%a: tensor<8xf32>, %j: i64) -> tensor<4xf32> {
  %i = arith.index_cast %j : i64 to index
  %0 = tensor.extract_slice %a[%i] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %1 = math.exp %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

func.func @slice_at_index(%a: tensor<6x5xf32>, %r: index, %c: index) -> tensor<2x3xf32> {
  %0 = tensor.extract_slice %a[%r, %c] [2, 3] [1, 1] : tensor<6x5xf32> to tensor<2x3xf32>
  %1 = arith.addf %0, %0 : tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

func.func @window(%a: tensor<?xf32>, %off: i32, %len: i32) -> tensor<?xf32> {
  %o = arith.index_cast %off : i32 to index
  %n = arith.index_cast %len : i32 to index
  %0 = tensor.extract_slice %a[%o] [%n] [1] : tensor<?xf32> to tensor<?xf32>
  %1 = math.exp %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}

func.func @filled(%n: index, %x: f32) -> tensor<?xf32> {
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.fill ins(%x : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

func.func @filled_rows(%rows: i64, %x: f32) -> tensor<?x3xf32> {
  %c1 = arith.constant 1 : i64
  %r1 = arith.addi %rows, %c1 : i64
  %n = arith.index_cast %r1 : i64 to index
  %e = tensor.empty(%n) : tensor<?x3xf32>
  %r = linalg.fill ins(%x : f32) outs(%e : tensor<?x3xf32>) -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}

func.func @insert_at(%a: tensor<8xf32>, %b: tensor<4xf32>, %i: index) -> tensor<8xf32> {
  %e = math.exp %b : tensor<4xf32>
  %0 = tensor.insert_slice %e into %a[%i] [4] [1] : tensor<4xf32> into tensor<8xf32>
  %1 = arith.addf %0, %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}

func.func @rows_of(%a: tensor<?xf32>, %rows: i64) -> tensor<?x4xf32> {
  %r = arith.index_cast %rows : i64 to index
  %e = tensor.expand_shape %a [[0, 1]] output_shape [%r, 4] : tensor<?xf32> into tensor<?x4xf32>
  %s = arith.mulf %e, %e : tensor<?x4xf32>
  return %s : tensor<?x4xf32>
}

func.func @padded(%a: tensor<4xf32>, %lo: index, %hi: i64) -> tensor<?xf32> {
  %cst = arith.constant -1.0 : f32
  %h = arith.index_cast %hi : i64 to index
  %0 = tensor.pad %a low[%lo] high[%h] {
  ^bb0(%i: index):
    tensor.yield %cst : f32
  } : tensor<4xf32> to tensor<?xf32>
  return %0 : tensor<?xf32>
}

func.func @plus_two(%n: index) -> index {
  %c2 = arith.constant 2 : index
  %r = arith.addi %n, %c2 : index
  return %r : index
}
