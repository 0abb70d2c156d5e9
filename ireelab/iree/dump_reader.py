"""Split the stderr of `iree-compile --mlir-print-ir-after-all` into its sections.

MLIR's IR printer instrumentation writes one section per pass execution:

    // -----// IR Dump After CSEPass: cse //----- //
    util.func public @matmul(...) { ... }

IREE 3.13 names the pass by its class and then its flag with options (`canonicalize{max-iterations=10
...}`). `--mlir-print-ir-module-scope` appends the op the pass ran on (`('util.func' operation:
@matmul)`) and prints the whole module; without it only that op is printed. Before-dumps
(`--mlir-print-ir-before-all`) and failed passes (`... Failed`) use the same header. Anything
outside a section (warnings, remarks) is kept apart as diagnostics.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_HEADER = re.compile(r"^// -----// IR Dump (After|Before) (.*?) //----- //[ \t]*$", re.MULTILINE)
_SCOPE = re.compile(r"\s+\('([\w.$\-]+)' operation(?:: @(.*?))?\)$")
_FAILED = " Failed"


@dataclass(frozen=True)
class DumpSection:
    when: str
    """`After` or `Before`."""
    name: str
    """The pass class name (`CSEPass`); IREE's nested adaptor prints a C++ qualified name."""
    flag: str
    """The pass flag with its options, as printed (`canonicalize{max-iterations=10 ...}`)."""
    scope_op: str | None
    """The op the pass ran on, when the dump was printed with module scope."""
    scope_symbol: str | None
    failed: bool
    ir: str


@dataclass(frozen=True)
class Dump:
    sections: list[DumpSection]
    preamble: str
    """Text before the first section (warnings, remarks); empty for a clean dump."""

    @property
    def module_scope(self) -> bool:
        return any(s.scope_op is not None for s in self.sections)


def read_dump(text: str) -> Dump:
    matches = list(_HEADER.finditer(text))
    preamble = text[: matches[0].start()] if matches else text
    sections = []
    for k, match in enumerate(matches):
        end = matches[k + 1].start() if k + 1 < len(matches) else len(text)
        body = text[match.end() : end].strip("\n")
        sections.append(_section(match.group(1), match.group(2), body))
    return Dump(sections, preamble.strip())


def _section(when: str, title: str, body: str) -> DumpSection:
    scope_op = scope_symbol = None
    scope = _SCOPE.search(title)
    if scope:
        scope_op, scope_symbol = scope.group(1), scope.group(2)
        title = title[: scope.start()]
    name, _, flag = title.partition(": ")
    # MLIR marks a failed pass after its name (or, in older releases, after the whole title).
    failed = name.endswith(_FAILED) or flag.endswith(_FAILED)
    name = name.removesuffix(_FAILED)
    flag = flag.removesuffix(_FAILED)
    return DumpSection(when, name.strip(), flag.strip(), scope_op, scope_symbol, failed, body)
