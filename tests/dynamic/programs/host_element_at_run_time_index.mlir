// Host reads and writes of one element at indices computed at run time: the host computes
// the byte offset (`(i * 4 + j) * 4`) and copies or fills those bytes, as IREE does.
func.func @read(%a: tensor<3x4xf32>, %n: i32, %m: i32) -> f32 {
  %i = arith.index_cast %n : i32 to index
  %j = arith.index_cast %m : i32 to index
  %0 = tensor.extract %a[%i, %j] : tensor<3x4xf32>
  return %0 : f32
}

func.func @write(%a: tensor<3x4xf32>, %n: i32, %v: f32) -> tensor<3x4xf32> {
  %i = arith.index_cast %n : i32 to index
  %c1 = arith.constant 1 : index
  %0 = tensor.insert %v into %a[%i, %c1] : tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

func.func @write_i64(%a: tensor<5xi64>, %n: i32, %v: i64) -> tensor<5xi64> {
  %i = arith.index_cast %n : i32 to index
  %0 = tensor.insert %v into %a[%i] : tensor<5xi64>
  return %0 : tensor<5xi64>
}

func.func @read_i64(%a: tensor<5xi64>, %n: i32) -> i64 {
  %i = arith.index_cast %n : i32 to index
  %0 = tensor.extract %a[%i] : tensor<5xi64>
  return %0 : i64
}
