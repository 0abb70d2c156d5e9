// CASE: prose instead of MLIR
// EXPECT: 3:1: error: expected an operation (dialect.op), found 'Please'
Please compute the matrix product of A and B.
