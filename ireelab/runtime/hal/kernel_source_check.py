"""Refuse kernel module sources that ireelab's code generator could not have written.

A "numba-python" executable carries Python source, and loading it imports that source (and
numba later compiles it). IREE's loaders map native code they trust the compiler to have
produced; ireelab can do better for the Python half of that trust: before the loader writes or
imports anything, `check_kernel_source` parses the source with `ast` and accepts only the
constructs `ConvertToNumbaPass` emits (`compiler/codegen/kernel_emitter.py`,
`executable_source.py`, `scalar_ops.py`, `f16_storage.py`, `ukernel_library.py`):

- top level: the fixed imports (`math`, `numba`, `numba.extending`, `numpy as np`,
  `from llvmlite import ir as _llvm_ir`, the micro-kernels `from ireelab.runtime.hal.ukernels
  import ...`), assignments of one name (the jit options, constant
  buffers from hex bytes, the BLAS external functions), and functions with exactly one
  decorator, `@numba.njit(...)` with the emitter's options or `@numba.extending.intrinsic`;
  nothing else (no statement that runs code at import beyond those);
- inside functions: assignments, `for ... in range(...)`, `if`, `return`, `pass`, calls as
  statements; nested functions and `from llvmlite import ir` only inside an intrinsic (its
  LLVM code generator);
- expressions: arithmetic, comparisons, calls, subscripts, tuples; no lambda, comprehension,
  f-string, `with`, `while`, `try`, `raise`, `global`, class, `await` or `yield`;
- names: only ones the source binds itself plus `range int bool abs max min dict bytes
  float`, so no `eval`, `exec`, `open`, `__import__`, `getattr`, `globals`; no identifier
  containing `__` (no dunder attribute games);
- attributes: an allow-list (numpy dtypes and the math functions the emitter calls, array
  `view / reshape / transpose / T / shape / strides / itemsize / ctypes.data / dtype`,
  `numba.types.*` signatures, the llvmlite builder calls of the intrinsics);
- strings: only where the emitter writes them, and only its values: the jit options
  (`error_model="numpy"`, `inline="always"`, the fast-math flag set), the three BLAS symbol
  names in `numba.types.ExternalFunction(...)`, hex digits in `bytes.fromhex(...)`, and the
  LLVM intrinsic name parts inside an intrinsic (which may subscript only `args[<int>]`);
- jit options: only `nogil`, `cache`, `error_model`, `fastmath`, `inline` (no object mode).

What this does not prove: that the kernels are memory-safe. numba indexes arrays without
bounds checks and the micro-kernels hand raw pointers to BLAS, so a hand-made kernel within
these rules can still read or write outside its buffers, as a hand-made native `.vmfb` can.
It does prove that loading runs no Python beyond numba definitions and that the kernels call
nothing outside the emitter's vocabulary (no process, file, network or import access).
"""

from __future__ import annotations

import ast
import re

from ireelab.schemas.ukernel_names import BLAS_SYMBOLS as _BLAS
from ireelab.schemas.ukernel_names import UKERNEL_MODULE, UKERNELS

UKERNEL_NAMES = frozenset(UKERNELS)
"""The micro-kernels a kernel module may import (`runtime/hal/ukernels.py`)."""

IMPORTS = {
    ("import", "math", None),
    ("import", "numba", None),
    ("import", "numba.extending", None),
    ("import", "numpy", "np"),
    ("from", "llvmlite", ("ir", "_llvm_ir")),
    *(("from", UKERNEL_MODULE, (name, None)) for name in UKERNEL_NAMES),
}
"""The module-level imports the emitter writes: (kind, module, alias)."""

INTRINSIC_IMPORTS = {("from", "llvmlite", ("ir", None))}
"""Imports an intrinsic's code generator may make (`from llvmlite import ir`)."""

BUILTINS = frozenset(
    {"range", "int", "bool", "abs", "max", "min", "dict", "bytes", "float", "complex"}
)

_NUMPY = {
    "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
    "uint64", "bool_", "empty", "frombuffer", "nan", "inf", "floor", "ceil", "trunc", "rint",
    "cbrt", "ascontiguousarray", "complex64", "complex128", "fmod",
}  # fmt: skip
_MATH = {
    "exp", "expm1", "log", "log2", "log10", "log1p", "sqrt", "tanh", "sinh", "cosh", "sin",
    "cos", "tan", "asin", "acos", "atan", "asinh", "acosh", "atanh", "erf", "fmod", "atan2",
    "copysign", "frexp", "inf", "nan",
}  # fmt: skip
_ARRAY = {"view", "reshape", "transpose", "T", "shape", "strides", "itemsize", "ctypes",
          "data", "dtype", "fromhex", "real", "imag"}  # fmt: skip
_NUMBA = {"njit", "extending", "intrinsic", "types", "core", "cgutils",
          "get_or_insert_function", "float32", "float64", "int32", "int64", "uint16", "intp",
          "intc", "void", "ExternalFunction"}  # fmt: skip
_LLVM = {"bitcast", "fpext", "fptrunc", "call", "module", "HalfType", "FloatType", "IntType",
         "FunctionType", "get_value_type", "return_type", "type"}  # fmt: skip
ATTRIBUTES = frozenset(_NUMPY | _MATH | _ARRAY | _NUMBA | _LLVM)

JIT_OPTIONS = frozenset({"nogil", "cache", "error_model", "fastmath", "inline"})
OPTION_STRINGS = frozenset({"numpy", "always"})
FASTMATH_FLAGS = frozenset({"contract", "reassoc", "nsz", "arcp", "afn"})
BLAS_SYMBOLS = frozenset(_BLAS)
INTRINSIC_STRINGS = frozenset({"llvm.maximum.", "llvm.minimum.", "llvm.fma.", "f32", "f64"})
_HEX = re.compile(r"[0-9a-f]*")
_DECORATORS = ("numba.njit", "numba.extending.intrinsic")

_NODES = (
    ast.Module, ast.Import, ast.ImportFrom, ast.alias, ast.Assign, ast.FunctionDef,
    ast.arguments, ast.arg, ast.Return, ast.If, ast.For, ast.Expr, ast.Pass, ast.Name, ast.Load,
    ast.Store, ast.Constant, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp,
    ast.Call, ast.keyword, ast.Attribute, ast.Subscript, ast.Slice, ast.Tuple, ast.List,
    ast.Set, ast.Starred, ast.operator, ast.unaryop, ast.boolop, ast.Eq, ast.NotEq, ast.Lt,
    ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn,
)  # fmt: skip
"""Every node type the emitter's Python uses (operators as their abstract classes)."""


class KernelSourceError(ValueError):
    """The source holds something ireelab's code generator does not write."""


def check_kernel_source(source: str) -> None:
    """Raise `KernelSourceError` (one line, with the source line) unless `source` is made only
    of the constructs ireelab's numba code generator emits."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError) as err:
        raise KernelSourceError(f"not valid Python ({err.__class__.__name__})") from None
    _Checker(tree).run()


def _dotted(node: ast.expr) -> str | None:
    """`a.b.c` for a chain of attributes over a name, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


def _import_key(node: ast.Import | ast.ImportFrom) -> set[tuple]:
    if isinstance(node, ast.Import):
        return {("import", a.name, a.asname) for a in node.names}
    if node.level:
        return {("relative", node.module, None)}
    return {("from", node.module, (a.name, a.asname)) for a in node.names}


class _Checker:
    def __init__(self, tree: ast.Module):
        self.tree = tree
        self.parents: dict[ast.AST, ast.AST] = {}
        self.bound: set[str] = set()
        self.intrinsics: set[ast.AST] = set()
        """Nodes inside a `@numba.extending.intrinsic` function (Python run by numba)."""

    def fail(self, node: ast.AST, what: str) -> KernelSourceError:
        line = getattr(node, "lineno", None)
        where = f" (line {line})" if line is not None else ""
        return KernelSourceError(f"{what}{where}")

    def run(self) -> None:
        for node in ast.walk(self.tree):
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node
            self._check_node(node)
        for statement in self.tree.body:
            self._check_top_level(statement)
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                if node.id not in self.bound and node.id not in BUILTINS:
                    raise self.fail(node, f"name '{node.id}' is not one the kernels use")
            elif isinstance(node, ast.Constant):
                self._check_constant(node)
            elif isinstance(node, ast.Subscript) and node in self.intrinsics:
                if not (
                    isinstance(node.value, ast.Name)
                    and isinstance(node.slice, ast.Constant)
                    and type(node.slice.value) is int
                ):
                    raise self.fail(node, "an intrinsic may subscript only its args[<int>]")

    # ---- every node -------------------------------------------------------------------
    def _check_node(self, node: ast.AST) -> None:
        if not isinstance(node, _NODES):
            raise self.fail(node, f"'{type(node).__name__}' is not a construct of ireelab kernels")
        for name in self._identifiers(node):
            if "__" in name:
                raise self.fail(node, f"identifier '{name}' is not allowed in a kernel")
        if isinstance(node, ast.Attribute) and node.attr not in ATTRIBUTES:
            raise self.fail(node, f"attribute '.{node.attr}' is not one the kernels use")
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            self.bound.add(node.id)
        elif isinstance(node, ast.arg):
            self.bound.add(node.arg)
        elif isinstance(node, ast.FunctionDef):
            self.bound.add(node.name)
            self._check_signature(node)
        elif isinstance(node, ast.alias):
            self.bound.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.For):
            if node.orelse or not (
                isinstance(node.iter, ast.Call) and _dotted(node.iter.func) == "range"
            ):
                raise self.fail(node, "loops must be 'for ... in range(...)'")
        elif isinstance(node, ast.Expr) and not isinstance(node.value, ast.Call):
            raise self.fail(node, "an expression statement must be a call")
        elif isinstance(node, ast.Starred) and not isinstance(node.value, ast.BinOp | ast.List):
            raise self.fail(node, "'*' unpacks only a list of types")

    @staticmethod
    def _identifiers(node: ast.AST) -> list[str]:
        names = []
        for field in ("id", "attr", "arg", "name", "asname", "module"):
            value = getattr(node, field, None)
            if isinstance(value, str):
                names.append(value)
        return names

    def _check_signature(self, node: ast.FunctionDef) -> None:
        args = node.args
        if (
            args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs or args.defaults
            or args.kw_defaults or node.returns or any(a.annotation for a in args.args)
        ):  # fmt: skip
            raise self.fail(node, f"function '{node.name}' has a signature kernels do not use")

    # ---- structure ----------------------------------------------------------------------
    def _check_top_level(self, node: ast.stmt) -> None:
        if isinstance(node, ast.Import | ast.ImportFrom):
            if not _import_key(node) <= IMPORTS:
                raise self.fail(
                    node, "imports other than math, numba, numpy, llvmlite.ir, ukernels"
                )
            return
        if isinstance(node, ast.Assign):
            if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
                raise self.fail(node, "a module-level assignment must bind one name")
            self._check_module_calls(node.value)
            return
        if isinstance(node, ast.FunctionDef):
            self._check_function(node)
            return
        raise self.fail(node, f"module-level '{type(node).__name__}' is not allowed")

    def _check_module_calls(self, value: ast.expr) -> None:
        """Module-level code runs at import: it may build constant arrays and types only."""
        allowed = {"dict", "np.frombuffer", "bytes.fromhex", "numba.types.void",
                   "numba.types.intc", "numba.types.ExternalFunction"}  # fmt: skip
        for node in ast.walk(value):
            if not isinstance(node, ast.Call):
                continue
            callee = _dotted(node.func)
            is_reshape = isinstance(node.func, ast.Attribute) and node.func.attr == "reshape"
            if callee not in allowed and not is_reshape:
                raise self.fail(node, "module-level code may not call this")
            if callee == "dict":
                self._check_options(node)

    def _check_options(self, call: ast.Call) -> None:
        if call.args:
            raise self.fail(call, "jit options are keywords")
        for keyword in call.keywords:
            if keyword.arg not in JIT_OPTIONS:
                raise self.fail(call, f"jit option '{keyword.arg}' is not one the kernels use")
            value = keyword.value
            ok = isinstance(value, ast.Constant) or (
                isinstance(value, ast.Set) and all(isinstance(e, ast.Constant) for e in value.elts)
            )
            if not ok:
                raise self.fail(call, "jit options are constants")

    def _check_function(self, node: ast.FunctionDef) -> None:
        if len(node.decorator_list) != 1:
            raise self.fail(node, f"function '{node.name}' must have exactly one decorator")
        decorator = node.decorator_list[0]
        if isinstance(decorator, ast.Call):
            if _dotted(decorator.func) != "numba.njit" or decorator.args:
                raise self.fail(node, "the only decorators are numba.njit and intrinsic")
            options = [k for k in decorator.keywords if k.arg is not None]
            spread = [k for k in decorator.keywords if k.arg is None]
            self._check_options(ast.Call(decorator.func, [], options))
            if any(not (isinstance(k.value, ast.Name) and k.value.id == "_JIT_OPTIONS")
                   for k in spread):  # fmt: skip
                raise self.fail(node, "numba.njit takes **_JIT_OPTIONS or constant options")
            self._check_body(node.body, intrinsic=False)
        elif _dotted(decorator) == "numba.extending.intrinsic":
            self.intrinsics.update(ast.walk(node))
            self._check_body(node.body, intrinsic=True)
        else:
            raise self.fail(node, "the only decorators are numba.njit and intrinsic")

    def _check_body(self, body: list[ast.stmt], intrinsic: bool) -> None:
        plain = (ast.Assign, ast.For, ast.If, ast.Return, ast.Expr, ast.Pass)
        for statement in body:
            if isinstance(statement, ast.FunctionDef) and intrinsic:
                if statement.decorator_list:
                    raise self.fail(statement, "nested functions take no decorator")
                self._check_body(statement.body, intrinsic)
            elif isinstance(statement, ast.ImportFrom) and intrinsic:
                if not _import_key(statement) <= INTRINSIC_IMPORTS:
                    raise self.fail(statement, "an intrinsic may import only llvmlite.ir")
            elif not isinstance(statement, plain):
                raise self.fail(statement, f"'{type(statement).__name__}' inside a function")
            for field in ("body", "orelse"):
                nested = getattr(statement, field, None)
                if isinstance(nested, list) and not isinstance(statement, ast.FunctionDef):
                    self._check_body(nested, intrinsic)

    # ---- strings ------------------------------------------------------------------------
    def _check_constant(self, node: ast.Constant) -> None:
        value = node.value
        if value is None or type(value) in (bool, int, float):
            return
        if not isinstance(value, str):
            raise self.fail(node, f"constant of type {type(value).__name__}")
        parent = self.parents.get(node)
        grand = self.parents.get(parent) if parent is not None else None
        if node in self.intrinsics:
            allowed = value in INTRINSIC_STRINGS
        elif isinstance(parent, ast.keyword):
            allowed = parent.arg in ("error_model", "inline") and value in OPTION_STRINGS
        elif isinstance(parent, ast.Set) and isinstance(grand, ast.keyword):
            allowed = grand.arg == "fastmath" and value in FASTMATH_FLAGS
        elif isinstance(parent, ast.Call) and parent.args and parent.args[0] is node:
            callee = _dotted(parent.func)
            allowed = (callee == "numba.types.ExternalFunction" and value in BLAS_SYMBOLS) or (
                callee == "bytes.fromhex" and _HEX.fullmatch(value) is not None
            )
        else:
            allowed = False
        if not allowed:
            shown = value if len(value) <= 24 else value[:21] + "..."
            raise self.fail(node, f"string {shown!r} is not one the kernels use")
