"""`--iree-input-type`: which input conversion a program needs, detected as IREE detects it.

Mirrors IREE's `AutoInputConversionPipelinePass` (`InputConversion/Common`) and the
`populateDetectedCustomInputConversionTypes` hook of its input plugins: each plugin looks at
the program and names the input types it sees; one type selects that plugin's conversion
pipeline, none leaves the program alone, more than one is an error. The plugins' rules:

- torch: an op of the `torch` or `torch_c` dialect, or a `func.func` whose argument or result
  types are torch types; a `func.func` carrying `torch.onnx_meta.opset_version` makes it
  `onnx` instead (ONNX is imported to torch ops, then converted with one extra step first);
  an op of `tm_tensor` adds `tm_tensor`;
- StableHLO: an op of `stablehlo`, `chlo` or `vhlo` (`stablehlo_xla` when one of them uses
  tuples);
- TOSA: an op of `tosa`.

IREE walks the parsed module; ireelab cannot parse those dialects (that is the real IREE's
job, run only once a type is detected), so it reads the same facts from the text: op names
where an op starts (after its results, as MLIR prints one op per line, generic form included)
and `func.func` lines. Comments, strings and the `{-# ... #-}` resource section are skipped.
"""

from __future__ import annotations

import re

from ireelab.diagnostics import CompileError

INPUT_TYPES = ("auto", "none", "torch", "stablehlo", "tosa", "onnx")
"""The values of `--iree-input-type` ireelab accepts, as IREE names them."""

FRAMEWORK_TYPES = frozenset({"torch", "onnx", "tm_tensor", "stablehlo", "stablehlo_xla", "tosa"})
"""Input types that need the real IREE's input conversion (the `frontends` extra)."""

_DIALECT_TYPES = {
    "torch": "torch",
    "torch_c": "torch",
    "tm_tensor": "tm_tensor",
    "stablehlo": "stablehlo",
    "chlo": "stablehlo",
    "vhlo": "stablehlo",
    "tosa": "tosa",
}
"""Op dialect -> the input type its plugin reports."""

_OP_START = re.compile(
    r"""^\s*(?:%[\w$.\-]+(?::\d+)?(?:\s*,\s*%[\w$.\-]+(?::\d+)?)*\s*=\s*)?"""
    r"""(?P<quote>"?)(?P<dialect>[A-Za-z_][\w$]*)\.(?P<op>[\w$.]+)(?P=quote)(?=[\s(<{:]|$)"""
)
_FUNC = re.compile(r"^\s*func\.func\b")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_TUPLE = re.compile(r"\btuple<")
_ONNX_OPSET = "torch.onnx_meta.opset_version"


def detect_input_type(text: str) -> str:
    """`none` or the one input type `text` needs, by IREE's rule; a mixture is a
    `CompileError`, as in IREE."""
    found = _detected(text)
    if len(found) > 1:
        names = " ".join(f"'{name}'" for name in sorted(found))
        raise CompileError(
            "mixture of input types not yet implemented, set '--iree-input-type=[type]' "
            f"explicitly instead of using 'auto' (detected: {names})",
            stage="input",
        )
    return next(iter(found), "none")


def _detected(text: str) -> set[str]:
    torch = onnx = False
    stablehlo = tuples = False
    found: set[str] = set()
    for line in _code_lines(text):
        if _FUNC.match(line):
            unquoted = _STRING.sub('""', line)
            torch |= "!torch." in unquoted
            onnx |= _ONNX_OPSET in unquoted
            continue
        match = _OP_START.match(line)
        kind = _DIALECT_TYPES.get(match.group("dialect")) if match else None
        if kind == "torch":
            torch = True
        elif kind == "stablehlo":
            stablehlo = True
            tuples |= bool(_TUPLE.search(_STRING.sub('""', line)))
        elif kind is not None:
            found.add(kind)
    if onnx:
        found.add("onnx")
    elif torch:
        found.add("torch")
    if stablehlo:
        found.add("stablehlo_xla" if tuples else "stablehlo")
    return found


def _code_lines(text: str):
    """The lines of `text` outside the resource section, without `//` comments."""
    in_resources = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("{-#"):
            in_resources = True
        if in_resources:
            in_resources = "#-}" not in stripped
            continue
        yield _strip_comment(line)


def _strip_comment(line: str) -> str:
    if "//" not in line:
        return line
    unquoted = _STRING.sub(lambda m: "x" * len(m.group(0)), line)
    at = unquoted.find("//")
    return line if at < 0 else line[:at]
