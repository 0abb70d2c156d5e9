"""Rebuild the whole module after every pass of an `--mlir-print-ir-after-all` dump.

Without `--mlir-print-ir-module-scope`, MLIR prints only the op a pass ran on: a `util.func`
after a function pass, one `hal.executable.variant` after a codegen pass, the inner
`builtin.module` of a variant after LLVM lowering. IREE's pass manager runs those nested
pipelines op by op (and, with threading, in any order), so the dump is a sequence of fragments.
`ModuleRebuilder` keeps the last whole module and puts each fragment back where its op lives:
found by op name and symbol (`util.func @matmul`), and when several ops share both (every
executable has a `@embedded_elf_x86_64` variant) by the symbols the fragment defines inside
(export and function names are unique). The result is the module text the pass left, as
`--mlir-print-ir-module-scope` would have printed it, so every trace record holds a module.

Alias definitions need care: MLIR numbers `#map`, `#map1`... per print, so a fragment's `#map1`
may not be the module's `#map1`. Fragment aliases are matched to the module's by definition,
renamed when the name is taken by something else, and aliases nothing uses any more are dropped.
"""

from __future__ import annotations

import re

from ireelab.iree.printed_ir import (
    ALIAS_USE,
    MODULE_OPS,
    PrintedOp,
    defined_symbols,
    indent_of,
    op_end,
    op_head,
    split_printed_op,
)


class ModuleRebuilder:
    def __init__(self) -> None:
        self.module: PrintedOp | None = None

    def text(self) -> str:
        return self.module.text() if self.module else ""

    def update(self, printed: str) -> bool:
        """Take the IR one pass printed (a module or a fragment); False if it cannot be placed."""
        fragment = split_printed_op(printed)
        head = fragment.head
        if head is None:
            return False
        if self.module is None:
            if head[0] not in MODULE_OPS:
                return False
            self.module = fragment
            return True
        target = self._find_target(fragment, head)
        if target is None:
            return False
        if target == -1:
            self.module = fragment
            return True
        self._splice(fragment, target)
        return True

    # ---- where the fragment goes -----------------------------------------------------------
    def _find_target(self, fragment: PrintedOp, head: tuple[str, str | None]) -> int | None:
        """The line where the fragment's op starts in the module, -1 for the whole module."""
        lines = self.module.lines
        name, symbol = head
        if name in MODULE_OPS:
            return self._find_module(fragment)
        inner = defined_symbols(fragment.lines, 1, len(fragment.lines) - 1)
        candidates = [
            i for i, line in enumerate(lines) if name in line and op_head(line) == (name, symbol)
        ]
        if len(candidates) <= 1:
            return candidates[0] if candidates else None
        if inner:
            scored = [(self._overlap(i, inner), i) for i in candidates]
            best = max(scored)
            if best[0] > 0:
                return best[1]
        return max(candidates, key=lambda i: self._line_overlap(i, fragment.lines))

    def _find_module(self, fragment: PrintedOp) -> int:
        """A printed module is the whole program, or the inner `builtin.module` of one
        executable (variant): whichever holds more of the fragment's top-level symbols."""
        lines = self.module.lines
        children = defined_symbols(fragment.lines, 1, len(fragment.lines) - 1, indent=2)
        whole = len(children & defined_symbols(lines, 1, len(lines) - 1, indent=2))
        best, best_line = whole, -1
        for i in range(1, len(lines)):
            if "module" not in lines[i] or not _is_module_line(lines[i]):
                continue
            score = self._overlap(i, children, indent=indent_of(lines[i]) + 2)
            if score > best:
                best, best_line = score, i
        return best_line

    def _overlap(self, start: int, symbols: set[str], indent: int | None = None) -> int:
        lines = self.module.lines
        found = defined_symbols(lines, start + 1, op_end(lines, start) - 1, indent)
        return len(found & symbols)

    def _line_overlap(self, start: int, fragment_lines: list[str]) -> int:
        lines = self.module.lines
        here = {line.strip() for line in lines[start : op_end(lines, start) + 1]}
        return len(here & {line.strip() for line in fragment_lines})

    # ---- putting it there -----------------------------------------------------------------
    def _splice(self, fragment: PrintedOp, start: int) -> None:
        module = self.module
        renames = _merge_aliases(module.aliases, fragment.aliases)
        new_lines = _rename(fragment.lines, renames)
        old_first = module.lines[start]
        pad = " " * indent_of(old_first)
        spelled = _respell_module(new_lines[0], old_first)
        new_lines = [pad + spelled] + [pad + line if line else line for line in new_lines[1:]]
        end = op_end(module.lines, start)
        module.lines = module.lines[:start] + new_lines + module.lines[end + 1 :]
        if fragment.trailer:
            module.trailer = fragment.trailer
        module.aliases = _used_aliases(module.aliases, module.lines)


def _is_module_line(line: str) -> bool:
    head = op_head(line)
    return head is not None and head[0] in MODULE_OPS


def _respell_module(fragment_first: str, old_first: str) -> str:
    """A nested `builtin.module` prints as `module` on its own; keep the module's spelling."""
    new_head = op_head(fragment_first)
    old_head = op_head(old_first)
    if not (new_head and old_head and new_head[0] in MODULE_OPS and old_head[0] in MODULE_OPS):
        return fragment_first
    return old_head[0] + fragment_first[len(new_head[0]) :]


def _merge_aliases(module_aliases: dict[str, str], fragment_aliases: dict[str, str]):
    """Add the fragment's aliases to the module's; return fragment name -> module name."""
    by_definition = {definition: name for name, definition in module_aliases.items()}
    renames: dict[str, str] = {}
    for name, definition in fragment_aliases.items():
        definition = _rename([definition], renames)[0]
        if definition in by_definition:
            renames[name] = by_definition[definition]
            continue
        final = name if name not in module_aliases else _fresh(name, module_aliases)
        module_aliases[final] = definition
        by_definition[definition] = final
        renames[name] = final
    return {old: new for old, new in renames.items() if old != new}


def _fresh(name: str, taken: dict[str, str]) -> str:
    base = re.sub(r"\d+$", "", name)
    number = 1
    while f"{base}{number}" in taken:
        number += 1
    return f"{base}{number}"


def _rename(lines: list[str], renames: dict[str, str]) -> list[str]:
    if not renames:
        return lines
    pattern = re.compile(
        "|".join(re.escape(old) for old in sorted(renames, key=len, reverse=True)) + r"(?![\w$.\-])"
    )
    return [pattern.sub(lambda m: renames[m.group(0)], line) for line in lines]


def _used_aliases(aliases: dict[str, str], lines: list[str]) -> dict[str, str]:
    """The aliases the module's ops use, directly or through other aliases, in print order."""
    used = set()
    for line in lines:
        if "#" in line or "!" in line:
            used.update(ALIAS_USE.findall(line))
    pending = [name for name in aliases if name in used]
    while pending:
        name = pending.pop()
        for ref in ALIAS_USE.findall(aliases[name]):
            if ref in aliases and ref not in used:
                used.add(ref)
                pending.append(ref)
    return {name: definition for name, definition in aliases.items() if name in used}
