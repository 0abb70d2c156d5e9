"""The layout of MLIR's printed IR, as `iree-compile` prints it into a pass dump.

MLIR's printer indents every nested op by two spaces, opens an op's regions at the end of its
first line (`{`) and closes them on a line of their own at the op's indentation (`}` or
`} -> tensor<..>`, or `} else {` between two regions). A module is preceded by the alias
definitions it uses (`#map = affine_map<..>`) and may be followed by a resource block
(`{-# dialect_resources: .. #-}`). This module reads that layout: where an op starts and ends,
its name and the symbol it defines, and the alias header. It does not parse what ops mean; that
is xDSL's job (`ireelab.viz.ir_source.parse_ir`) once the text is whole again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_ALIAS_DEF = re.compile(r"^([#!][A-Za-z_][\w$.\-]*) = (.*)$")
_OP_HEAD = re.compile(r"^(?:%[^=\"]*=\s*)?(\"?)([A-Za-z_][\w.$\-]*)\1")
_SYMBOL_DEF = re.compile(
    r"\s*(?:(?:public|private|nested|mutable|internal|external|weak|linkonce)\s+)*"
    r"@(\"[^\"]*\"|[\w$.\-]+)(?!::)"
)
ALIAS_USE = re.compile(r"[#!][A-Za-z_][\w$.\-]*")

MODULE_OPS = frozenset({"module", "builtin.module"})

_DEFINING_SUFFIXES = (
    "func",
    "executable",
    "export",
    "variant",
    "module",
    "global",
    "rodata",
    "import",
    "initializer",
)
"""Op name endings of symbol definitions (a `util.call @f` uses a symbol, it defines none)."""


def indent_of(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def op_head(line: str) -> tuple[str, str | None] | None:
    """(op name, symbol it defines or None) for a line that starts an op, else None."""
    text = line.strip()
    if not text or text[0] in "}^/#!{":
        return None
    match = _OP_HEAD.match(text)
    if match is None:
        return None
    name = match.group(2)
    symbol = None
    if name.endswith(_DEFINING_SUFFIXES):
        sym = _SYMBOL_DEF.match(text, match.end())
        symbol = sym.group(1).strip('"') if sym else None
    return name, symbol


def op_end(lines: list[str], start: int) -> int:
    """The index of the last line of the op that starts at `lines[start]`."""
    first = lines[start].rstrip()
    if not first.endswith("{"):
        return start
    indent = indent_of(lines[start])
    for j in range(start + 1, len(lines)):
        line = lines[j]
        stripped = line.strip()
        if not stripped:
            continue
        here = indent_of(line)
        if here < indent:
            return j - 1
        if here == indent and stripped.startswith("}"):
            if stripped.endswith("{"):  # `} else {`, `}, {`: the op's next region
                continue
            return j
    return len(lines) - 1


def defined_symbols(lines: list[str], start: int, end: int, indent: int | None = None) -> set[str]:
    """Symbols defined by ops within lines[start..end] (functions, exports, executables...),
    only by ops at `indent` when given (the direct children of a module)."""
    symbols: set[str] = set()
    for line in lines[start : end + 1]:
        if "@" not in line or (indent is not None and indent_of(line) != indent):
            continue
        head = op_head(line)
        if head and head[1]:
            symbols.add(head[1])
    return symbols


@dataclass
class PrintedOp:
    """One printed top-level op: the aliases before it, its lines, and what follows it."""

    aliases: dict[str, str] = field(default_factory=dict)
    """`#name` / `!name` -> definition text, in print order."""
    lines: list[str] = field(default_factory=list)
    trailer: list[str] = field(default_factory=list)
    """A `{-# ... #-}` resource block after the op, if any."""

    @property
    def head(self) -> tuple[str, str | None] | None:
        return op_head(self.lines[0]) if self.lines else None

    def text(self) -> str:
        header = [f"{name} = {definition}" for name, definition in self.aliases.items()]
        return "\n".join(header + self.lines + self.trailer)


def split_printed_op(text: str) -> PrintedOp:
    """Read one printed op (a whole module or a function, executable, variant...)."""
    lines = text.splitlines()
    result = PrintedOp()
    i = 0
    while i < len(lines):
        line = lines[i]
        match = _ALIAS_DEF.match(line)
        if match:
            result.aliases[match.group(1)] = match.group(2)
        elif line.strip():
            break
        i += 1
    if i == len(lines):
        return result
    end = op_end(lines, i)
    result.lines = lines[i : end + 1]
    rest = lines[end + 1 :]
    if any(line.startswith("{-#") for line in rest):
        start = next(k for k, line in enumerate(rest) if line.startswith("{-#"))
        result.trailer = rest[start:]
    return result


def typed_alias_type(definition: str) -> str | None:
    """The `: type` part of an alias of a typed attribute (`#hal.device.target<..> : !hal.device`)."""
    depth = 0
    quoted = False
    for k, char in enumerate(definition):
        if char == '"' and (k == 0 or definition[k - 1] != "\\"):
            quoted = not quoted
        elif quoted:
            continue
        elif char in "<[({":
            depth += 1
        elif char in ">])}":
            depth -= 1
        elif depth == 0 and definition.startswith(" : ", k):
            return definition[k + 3 :]
    return None


def inline_typed_aliases(printed: PrintedOp) -> PrintedOp:
    """Write aliases of typed attributes out where they are used.

    MLIR may alias a typed attribute (`#device_target_local = #hal.device.target<..> :
    !hal.device`); xDSL's parser does not read such an alias, and `iree-compile
    --compile-to=...` prints the attribute in place anyway. Same IR, parseable by ireelab.
    """
    typed = {n: d for n, d in printed.aliases.items() if typed_alias_type(d) is not None}
    if not typed:
        return printed
    pattern = re.compile(
        "|".join(re.escape(n) for n in sorted(typed, key=len, reverse=True)) + r"(?![\w$.\-])"
    )

    def expand(text: str) -> str:
        for _ in range(len(typed) + 1):  # aliases may refer to aliases
            new = pattern.sub(lambda m: typed[m.group(0)], text)
            if new == text:
                return new
            text = new
        return text

    aliases = {n: expand(d) for n, d in printed.aliases.items() if n not in typed}
    lines = [expand(line) if "#" in line or "!" in line else line for line in printed.lines]
    return PrintedOp(aliases, lines, printed.trailer)
