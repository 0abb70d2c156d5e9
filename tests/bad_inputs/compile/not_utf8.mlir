// CASE: bytes that are not UTF-8 text
// EXPECT: 3:16: error: invalid UTF-8 byte 0xff: the input must be UTF-8 text
func.func @f() ÿþ
