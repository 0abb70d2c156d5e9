"""Scalar `arith` / `math` ops as Python expressions numba compiles to the same LLVM IR.

Stands where IREE's `ConvertToLLVMPass` maps arith/math to LLVM instructions and libm calls
(its ArithToLLVM and MathToLLVM/MathToLibm patterns). Each entry turns one op into one Python
expression over already-named operands, keeping MLIR's semantics where Python's differ:

- fixed-width integers wrap: every iN result (N < 64) goes through `np.intN(...)`, an i1
  result keeps its low bit;
- `divsi` / `remsi` truncate toward zero (Python's `//` and `%` floor), via helpers;
- unsigned ops (`divui`, `remui`, `shrui`, `maxui`, `cmpi ult`, `extui`, ...) read their
  operands as unsigned numbers; signed ones read an i1 `true` as -1, as MLIR does;
- f16 values live in f32 registers (`f16_storage.py`): conversions to f16 round to it, and
  f16 arithmetic must have been widened by `ExpandF16OpToF32Pass`;
- `maximumf` / `minimumf` propagate NaN (and order -0 below +0, up to the kernels' `nsz`
  fast-math flag): they are LLVM's
  `llvm.maximum` / `llvm.minimum` (as in MLIR's ArithToLLVM), which the loop vectoriser turns
  into vector max/min with NaN fix-ups, so a softmax row max vectorises like a row sum;
  `maxnumf` / `minnumf` ignore NaN;
- comparisons follow the ordered / unordered predicate split of `arith.cmpf`.

Helpers live in `HELPERS` and are copied into a kernel module only when used.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerAttr,
    IntegerType,
)
from xdsl.ir import Attribute, Operation

from ireelab.compiler.codegen import packed_access
from ireelab.compiler.codegen.f16_storage import is_narrow_float, round_to, small_float
from ireelab.diagnostics import CompileError

SMALL_FLOATS = ("bf16", "f8E5M2", "f8E4M3FN", "f8E5M2FNUZ", "f8E4M3FNUZ", "f4E2M1FN", "f8E8M0FNU")

NUMPY_DTYPES: dict[str, str] = {
    "f16": "np.float32",  # the register type; buffers hold f16 bits (`f16_storage.py`)
    "f32": "np.float32",
    "f64": "np.float64",
    # bf16 and the 8-bit floats: f32 registers too; buffers hold their bits
    # (f4E2M1FN's bits packed two to a byte, `packed_access.py`; f8E8M0FNU an exponent)
    **{name: "np.float32" for name in SMALL_FLOATS},
    "i1": "np.bool_",
    # sub-byte integers: their value sign-extended into an int8 (`packed_access.py`)
    "i2": "np.int8",
    "i4": "np.int8",
    "i8": "np.int8",
    "i16": "np.int16",
    "i32": "np.int32",
    "i64": "np.int64",
    "index": "np.int64",
    # a pair of floats, as ComplexToLLVM's {f32, f32} (`convert_complex_to_standard.py`)
    "complex<f32>": "np.complex64",
    "complex<f64>": "np.complex128",
}


def type_key(t: Attribute) -> str:
    """`f32`, `i8`, `index`, ...: the key of a scalar type in `NUMPY_DTYPES`."""
    if isinstance(t, IndexType):
        return "index"
    if isinstance(t, IntegerType):
        return f"i{t.width.data}"
    if isinstance(t, Float16Type):
        return "f16"
    if isinstance(t, Float32Type):
        return "f32"
    if isinstance(t, Float64Type):
        return "f64"
    return str(t)


def numpy_dtype(t: Attribute, op: Operation | None = None) -> str:
    """The numpy scalar type (as Python text) that holds values of MLIR type `t`."""
    key = type_key(t)
    if key not in NUMPY_DTYPES:
        raise CompileError.at(op, f"element type {t} has no numba-cpu equivalent", stage="codegen")
    return NUMPY_DTYPES[key]


def element_bytes(t: Attribute, op: Operation | None = None) -> int:
    """Bytes per element in a binding, as numpy stores the type (i1 takes a byte)."""
    key = type_key(t)
    if key not in NUMPY_DTYPES:
        raise CompileError.at(op, f"element type {t} has no numba-cpu equivalent", stage="codegen")
    if key == "index":
        return 8
    if key in _COMPLEX_BYTES:
        return _COMPLEX_BYTES[key]
    if (f := small_float(t)) is not None:
        return f.width // 8
    return max(1, int(key[1:]) // 8)


_COMPLEX_BYTES = {"complex<f32>": 8, "complex<f64>": 16}


def wrap(t: Attribute, expr: str) -> str:
    """`expr` cast to the width of `t`, so integer arithmetic wraps as in MLIR."""
    key = type_key(t)
    if key in ("index", "i64"):
        return expr
    if key == "i1":
        return f"bool(({expr}) & 1)"
    if key in _SUB_BYTE:
        sign = 1 << (int(key[1:]) - 1)
        return f"np.int8(((({expr}) + {sign}) & {2 * sign - 1}) - {sign})"
    return f"{NUMPY_DTYPES[key]}({expr})"


_SUB_BYTE = ("i2", "i4")
"""Integer types narrower than a byte (other than i1): wrapped to their width by hand."""


HELPERS: dict[str, str] = {
    "_maxnumf": "def _maxnumf(a, b):\n    return a if (a > b or b != b) else b\n",
    "_minnumf": "def _minnumf(a, b):\n    return a if (a < b or b != b) else b\n",
    # floor division corrected toward zero (abs() of a minimum integer would overflow)
    "_divsi": "def _divsi(a, b):\n    q = a // b\n    return q + 1 if (q < 0 and q * b != a) else q\n",
    "_remsi": "def _remsi(a, b):\n    return a - b * _divsi(a, b)\n",
    "_ceildivsi": "def _ceildivsi(a, b):\n    q = a // b\n    return q + 1 if q * b != a else q\n",
    "_roundeven": "def _roundeven(x):\n    return np.rint(x)\n",
    # 1 / sqrt(x) at 0 and inf by hand: under the kernels' `arcp` LLVM computes the quotient
    # as an rsqrt estimate refined by a Newton step, which is NaN there (0 * inf)
    "_rsqrt": (
        "def _rsqrt(x):\n    if 0.0 < x < math.inf:\n        return 1.0 / math.sqrt(x)\n"
        "    return math.inf if x == 0.0 else (0.0 if x > 0.0 else math.nan)\n"
    ),
    "_round": ("def _round(x):\n    r = np.floor(abs(x) + 0.5)\n    return math.copysign(r, x)\n"),
}
"""Small njit helpers (inlined by numba) for ops with no single Python operator."""

HELPERS.update(packed_access.HELPERS)

HELPER_DEPENDENCIES = {"_remsi": ("_divsi",)}

_BITCAST_TEMPLATE = """\
@numba.extending.intrinsic
def _bitcast_to_{key}(typingctx, value):
    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], context.get_value_type(signature.return_type))

    return numba.types.{numba_type}(value), codegen
"""

INTRINSICS: dict[str, str] = {
    f"_bitcast_to_{key}": _BITCAST_TEMPLATE.format(key=key, numba_type=numba_type)
    for key, numba_type in (
        ("f32", "float32"),
        ("i32", "int32"),
        ("f64", "float64"),
        ("i64", "int64"),
    )
}
"""numba intrinsics (LLVM instructions numba has no Python spelling for): `arith.bitcast` is
LLVM's `bitcast`, which the vectoriser keeps as a register reinterpretation."""

_MIN_MAX_TEMPLATE = """\
@numba.extending.intrinsic
def _f{kind}(typingctx, a, b):
    # llvm.{kind}: NaN if either operand is NaN, -0.0 ordered below +0.0 (arith.{kind}f)
    def codegen(context, builder, signature, args):
        from llvmlite import ir

        value_type = args[0].type
        function_type = ir.FunctionType(value_type, [value_type, value_type])
        suffix = "f32" if value_type == ir.FloatType() else "f64"
        name = "llvm.{kind}." + suffix
        function = numba.core.cgutils.get_or_insert_function(builder.module, function_type, name)
        return builder.call(function, args)

    if a != b or a not in (numba.types.float32, numba.types.float64):
        return None
    return a(a, b), codegen
"""

INTRINSICS.update(
    {f"_f{kind}": _MIN_MAX_TEMPLATE.format(kind=kind) for kind in ("maximum", "minimum")}
)

INTRINSICS["_ffma"] = """\
@numba.extending.intrinsic
def _ffma(typingctx, a, b, c):
    # llvm.fma: a * b + c rounded once (math.fma), one vector instruction once vectorised
    def codegen(context, builder, signature, args):
        from llvmlite import ir

        value_type = args[0].type
        function_type = ir.FunctionType(value_type, [value_type, value_type, value_type])
        suffix = "f32" if value_type == ir.FloatType() else "f64"
        name = "llvm.fma." + suffix
        function = numba.core.cgutils.get_or_insert_function(builder.module, function_type, name)
        return builder.call(function, args)

    if a != b or a != c or a not in (numba.types.float32, numba.types.float64):
        return None
    return a(a, b, c), codegen
"""


_FLOAT_BINARY = {
    "arith.addf": "{0} + {1}",
    "arith.subf": "{0} - {1}",
    "arith.mulf": "{0} * {1}",
    "arith.divf": "{0} / {1}",
    "arith.remf": "np.fmod({0}, {1})",  # C's fmod (numba has no math.fmod)
    "arith.maximumf": "_fmaximum({0}, {1})",
    "arith.minimumf": "_fminimum({0}, {1})",
    "arith.maxnumf": "_maxnumf({0}, {1})",
    "arith.minnumf": "_minnumf({0}, {1})",
    "math.powf": "{0} ** {1}",
    "math.fpowi": "{0} ** {1}",  # an integer exponent: numba multiplies, as llvm.powi does
    "math.atan2": "math.atan2({0}, {1})",
    "math.copysign": "math.copysign({0}, {1})",
}

_INT_BINARY = {
    "arith.addi": "{0} + {1}",
    "arith.subi": "{0} - {1}",
    "arith.muli": "{0} * {1}",
    "arith.divsi": "_divsi({0}, {1})",
    "arith.remsi": "_remsi({0}, {1})",
    "arith.floordivsi": "{0} // {1}",
    "arith.ceildivsi": "_ceildivsi({0}, {1})",
    "arith.andi": "{0} & {1}",
    "arith.ori": "{0} | {1}",
    "arith.xori": "{0} ^ {1}",
}

_UNSIGNED_BINARY = {
    "arith.divui": "{0} // {1}",
    "arith.remui": "{0} % {1}",
    "arith.ceildivui": "({0} // {1} + ({0} % {1} != 0))",
}
"""Ops on unsigned readings of their operands (`_unsigned_value`)."""

_SHIFTS = {"arith.shli": "<<", "arith.shrsi": ">>", "arith.shrui": ">>"}
"""Shifts by a count read as unsigned. A count of at least the bit width is poison in MLIR;
ireelab gives what IREE's vectorised x86 code does (`vpsllvd` / `vpsrlvd` / `vpsravd`): 0,
or for `shrsi` the sign in every bit (ONNX's BitShift by a negative int32 is 0)."""

_UNSIGNED_SELECT = {"arith.maxui": ">", "arith.minui": "<"}
_SIGNED_SELECT = {"arith.maxsi": ">", "arith.minsi": "<"}

_FLOAT_UNARY = {
    "arith.negf": "-{0}",
    "math.absf": "abs({0})",
    "math.exp": "math.exp({0})",
    "math.exp2": "2.0 ** {0}",
    "math.expm1": "math.expm1({0})",
    "math.log": "math.log({0})",
    "math.log2": "math.log2({0})",
    "math.log10": "math.log10({0})",
    "math.log1p": "math.log1p({0})",
    "math.sqrt": "math.sqrt({0})",
    "math.rsqrt": "_rsqrt({0})",
    "math.cbrt": "np.cbrt({0})",
    "math.tanh": "math.tanh({0})",
    "math.sinh": "math.sinh({0})",
    "math.cosh": "math.cosh({0})",
    "math.sin": "math.sin({0})",
    "math.cos": "math.cos({0})",
    "math.tan": "math.tan({0})",
    "math.asin": "math.asin({0})",
    "math.acos": "math.acos({0})",
    "math.atan": "math.atan({0})",
    "math.asinh": "math.asinh({0})",
    "math.acosh": "math.acosh({0})",
    "math.atanh": "math.atanh({0})",
    "math.erf": "math.erf({0})",
    "math.floor": "np.floor({0})",
    "math.ceil": "np.ceil({0})",
    "math.trunc": "np.trunc({0})",
    "math.round": "_round({0})",
    "math.roundeven": "_roundeven({0})",
}

_CMPF = (
    "false",
    "{0} == {1}",  # oeq
    "{0} > {1}",  # ogt
    "{0} >= {1}",  # oge
    "{0} < {1}",  # olt
    "{0} <= {1}",  # ole
    "({0} < {1} or {0} > {1})",  # one
    "({0} == {0} and {1} == {1})",  # ord
    "not ({0} < {1} or {0} > {1})",  # ueq
    "not ({0} <= {1})",  # ugt
    "not ({0} < {1})",  # uge
    "not ({0} >= {1})",  # ult
    "not ({0} > {1})",  # ule
    "{0} != {1}",  # une
    "({0} != {0} or {1} != {1})",  # uno
    "True",
)
"""`arith.cmpf` predicates in MLIR's enum order; Python's comparisons are the ordered ones."""

_CMPI_SIGNED = ("{0} == {1}", "{0} != {1}", "{0} < {1}", "{0} <= {1}", "{0} > {1}", "{0} >= {1}")
_CMPI_UNSIGNED_OPS = ("<", "<=", ">", ">=")


_WIDENING = ("**", "1.0", "2.0", "np.")


def _keep_width(t: Attribute, expr: str) -> str:
    """`expr` cast back to `t` where numba would widen it (float literals, `**`, numpy ufuncs)."""
    if any(token in expr for token in _WIDENING):
        return f"{numpy_dtype(t)}({expr})"
    return expr


def _unsigned(t: Attribute, name: str) -> str:
    """`name` reinterpreted as an unsigned number that Python ints compare correctly."""
    key = type_key(t)
    if key in ("index", "i64"):
        return f"({name} ^ -9223372036854775808)"
    width = int(key[1:])
    return f"({name} & {(1 << width) - 1})"


def _unsigned_value(t: Attribute, name: str) -> str:
    """`name` as an unsigned number to compute with: a masked int64 below 64 bits, a
    `uint64` at 64 (numba mixes uint64 with int64 into float64, so both operands convert)."""
    key = type_key(t)
    if key == "index":
        return name  # index values ireelab produces are never negative
    if key == "i64":
        return f"np.uint64({name})"
    width = int(key[1:])
    return f"({name} & {(1 << width) - 1})"


def _signed(t: Attribute, name: str) -> str:
    """`name` as a signed number: an i1 `true` is -1 (its one bit is the sign bit)."""
    return f"(-np.int64({name}))" if type_key(t) == "i1" else name


def _unsigned_binary(op: Operation, a: str, b: str) -> str:
    t = op.results[0].type
    expr = _UNSIGNED_BINARY[op.name].format(_unsigned_value(t, a), _unsigned_value(t, b))
    if type_key(t) == "i64":
        return f"np.int64({expr})"
    return wrap(t, expr)


def _shift(op: Operation, a: str, b: str) -> str:
    t = op.results[0].type
    key = type_key(t)
    width = 64 if key == "index" else int(key[1:])
    count = _unsigned_value(t, b)
    if op.name == "arith.shrui":
        value = _unsigned_value(t, a)
        shifted = f"{value} >> {count}"
        if key == "i64":
            shifted = f"np.int64({shifted})"
    else:
        shifted = f"{a} {_SHIFTS[op.name]} {b}"
    constant = op.operands[1].owner
    value = constant.value if isinstance(constant, arith.ConstantOp) else None
    if isinstance(value, IntegerAttr) and 0 <= value.value.data < width:
        return wrap(t, shifted)  # a count in range (MathTransform's exponent shifts): no test
    too_far = f"({a} >> {width - 1})" if op.name == "arith.shrsi" else "0"
    return wrap(t, f"({too_far} if {count} >= {width} else {shifted})")


def _select_by(op: Operation, a: str, b: str, signed: bool) -> str:
    """`maxsi` / `minsi` / `maxui` / `minui`: pick an operand by a signed / unsigned test."""
    t = op.results[0].type
    table, reading = (_SIGNED_SELECT, _signed) if signed else (_UNSIGNED_SELECT, _unsigned)
    return f"({a} if {reading(t, a)} {table[op.name]} {reading(t, b)} else {b})"


def _cmpi(op: Operation, a: str, b: str) -> str:
    predicate = op.predicate.value.data
    if predicate < 2:
        return _CMPI_SIGNED[predicate].format(a, b)
    t = op.operands[0].type
    if predicate < 6:
        return _CMPI_SIGNED[predicate].format(_signed(t, a), _signed(t, b))
    return f"{_unsigned(t, a)} {_CMPI_UNSIGNED_OPS[predicate - 6]} {_unsigned(t, b)}"


def _cast(op: Operation, args: list[str]) -> str:
    """Conversions between scalar types: the target type's constructor does the rounding."""
    result_type = op.results[0].type
    source_type = op.operands[0].type
    if is_narrow_float(result_type) and str(result_type) != str(source_type):
        # to f64 first (exact from f32 and from integers up to 2**53), then round once
        return round_to(result_type, _convert(op, args[0], source_type, Float64Type()))
    return _convert(op, args[0], source_type, result_type)


def _convert(op: Operation, source: str, source_type: Attribute, result_type: Attribute) -> str:
    match op.name:
        case "arith.extui":
            return _unsigned(source_type, source)
        case "arith.uitofp":
            return f"{numpy_dtype(result_type, op)}({_unsigned_value(source_type, source)})"
        case "arith.extsi" | "arith.sitofp" if type_key(source_type) == "i1":
            return f"{numpy_dtype(result_type, op)}({_signed(source_type, source)})"
        case "arith.trunci" if type_key(result_type) in ("i1", *_SUB_BYTE):
            return wrap(result_type, source)
        case "arith.index_cast" | "arith.index_castui" if type_key(result_type) == "index":
            return f"int({source})"
        case "arith.fptoui":
            # toward zero through int64, then wrapped to the (signless) width: exact for every
            # value the target holds unsigned below 2**63 (out of range is poison in MLIR)
            return wrap(result_type, f"np.int64({source})")
        case _:
            return f"{numpy_dtype(result_type, op)}({source})"


_COMPLEX_PARTS = {
    "complex.create": "{2}(complex({0}, {1}))",
    "complex.re": "{0}.real",
    "complex.im": "{0}.imag",
}
"""What ConvertComplexToStandardPass leaves of complex numbers: a pair built, its halves read."""

_F16_PASS_THROUGH = {"arith.select", "arith.extf", "arith.truncf", "arith.sitofp", "arith.uitofp",
                     "arith.fptosi", "arith.fptoui", "arith.scaling_extf",
                     "arith.scaling_truncf"}  # fmt: skip
"""Ops that may see f16 values in the kernel emitter: conversions and moves, no arithmetic."""

_CASTS = {
    "arith.extf",
    "arith.truncf",
    "arith.sitofp",
    "arith.uitofp",
    "arith.fptosi",
    "arith.fptoui",
    "arith.extsi",
    "arith.extui",
    "arith.trunci",
    "arith.index_cast",
    "arith.index_castui",
}


def scalar_expression(op: Operation, args: list[str]) -> str:
    """The Python expression computing `op`'s single result from its operand names.

    Raises `CompileError` for an op numba-cpu cannot express.
    """
    name = op.name
    result_type = op.results[0].type if op.results else None
    narrow = [v.type for v in (*op.operands, *op.results) if is_narrow_float(v.type)]
    if name not in _F16_PASS_THROUGH and name != "arith.bitcast" and narrow:
        raise CompileError.at(
            op,
            f"'{name}' on {narrow[0]} must be widened to f32 first (ExpandF16OpToF32Pass): "
            "numba has no arithmetic of that type",
            stage="codegen",
        )
    if name in _FLOAT_BINARY:
        return _keep_width(result_type, _FLOAT_BINARY[name].format(*args))
    if name in _FLOAT_UNARY:
        return _keep_width(result_type, _FLOAT_UNARY[name].format(*args))
    if name == "math.fma":
        return _keep_width(result_type, f"_ffma({args[0]}, {args[1]}, {args[2]})")
    if name in _INT_BINARY:
        return wrap(result_type, _INT_BINARY[name].format(*args))
    if name in _UNSIGNED_BINARY:
        return _unsigned_binary(op, *args)
    if name in _SHIFTS:
        return _shift(op, *args)
    if name in _SIGNED_SELECT or name in _UNSIGNED_SELECT:
        return wrap(result_type, _select_by(op, *args, signed=name in _SIGNED_SELECT))
    if name == "math.absi":
        return wrap(result_type, f"abs({args[0]})")
    if name == "arith.select":
        return f"({args[1]} if {args[0]} else {args[2]})"
    if name == "arith.cmpf":
        return _CMPF[op.predicate.value.data].format(*args)
    if name == "arith.cmpi":
        return _cmpi(op, *args)
    if name in _CASTS:
        return _cast(op, args)
    if name == "arith.bitcast":
        return _bitcast(op, args[0])
    if name in ("arith.scaling_extf", "arith.scaling_truncf"):
        return _scaling(op, *args)
    if name in _COMPLEX_PARTS:
        return _COMPLEX_PARTS[name].format(*args, numpy_dtype(result_type, op))
    raise CompileError.at(
        op, f"'{name}' is not supported by the numba-cpu backend", stage="codegen"
    )


def _scaling(op: Operation, value: str, scale: str) -> str:
    """MLIR's expansion: `extf(x) * extf(scale)`, or `truncf(x / extf(scale))`. Registers of
    narrow floats hold their f32 values, the scale's is `2**e`."""
    if str(op.operands[1].type) != "f8E8M0FNU":
        raise CompileError.at(
            op, f"'{op.name}' with a {op.operands[1].type} scale is not supported by numba-cpu "
            "(f8E8M0FNU scales only)", stage="codegen",
        )  # fmt: skip
    result_type = op.results[0].type
    if op.name == "arith.scaling_extf":
        product = f"np.float64({value}) * np.float64({scale})"
        if is_narrow_float(result_type):
            return round_to(result_type, product)
        return f"{numpy_dtype(result_type, op)}({product})"
    quotient = f"{numpy_dtype(op.operands[0].type, op)}({value} / {scale})"
    return round_to(result_type, quotient) if is_narrow_float(result_type) else quotient


def _bitcast(op: Operation, source: str) -> str:
    # a small float's register holds its value: bitcasts go through its bits
    if (f := small_float(op.operands[0].type)) is not None:
        return wrap(op.results[0].type, f"_f32_to_{f.key}({source})")
    if (f := small_float(op.results[0].type)) is not None:
        return f"_{f.key}_to_f32({f.storage}({source}))"
    key = type_key(op.results[0].type)
    if f"_bitcast_to_{key}" not in INTRINSICS:
        raise CompileError.at(
            op, f"bitcast to {key} is not supported by numba-cpu", stage="codegen"
        )
    return f"_bitcast_to_{key}({source})"


def intrinsics_used(source: str) -> list[str]:
    """Names of `INTRINSICS` that `source` calls, in definition order."""
    return [name for name in INTRINSICS if f"{name}(" in source]


def helpers_used(source: str) -> list[str]:
    """Names of `HELPERS` that `source` calls, with their dependencies, definition order."""
    used = {name for name in HELPERS if f"{name}(" in source}
    for name in list(used):
        used.update(HELPER_DEPENDENCIES.get(name, ()))
    return [name for name in HELPERS if name in used]


ScalarEmitter = Callable[[Operation, list[str]], str]
