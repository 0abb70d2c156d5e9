"""What a compile did, read from its Flow and Stream IR: the facts `compare` puts side by side.

The same reading serves both compilers, because ireelab prints IREE's syntax:

- dispatch sites (`flow.dispatch` at `--compile-to=flow`; `stream.async.dispatch` /
  `stream.cmd.dispatch` at `--compile-to=stream`), in program order, each with the executable
  and export it launches (IREE's dispatch names, `mlp_layer_dispatch_0_matmul_256x512x512_f32`)
  and the ops fused into it (the export function's body without the load/store plumbing);
- executables (after deduplication) and exports;
- the stream schedule: execute regions, concurrent blocks, host awaits on timepoints.

It reads ops by name and symbol from the printed layout (`printed_ir`), so IR holding ops
ireelab's dialects do not define (IREE prints many) is still read, and nothing is parsed twice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ireelab.iree.printed_ir import indent_of, op_end, op_head

SITE_OPS = frozenset(
    {"flow.dispatch", "stream.tensor.dispatch", "stream.async.dispatch", "stream.cmd.dispatch"}
)
EXECUTABLE_OPS = frozenset({"flow.executable", "stream.executable", "hal.executable"})
EXPORT_OPS = frozenset(
    {"flow.executable.export", "stream.executable.export", "hal.executable.export"}
)
PLUMBING_OPS = frozenset(
    {
        "iree_tensor_ext.dispatch.tensor.load",
        "iree_tensor_ext.dispatch.tensor.store",
        "flow.dispatch.tensor.load",
        "flow.dispatch.tensor.store",
        "stream.binding.subspan",
        "hal.interface.binding.subspan",
        "tensor.empty",
        "tensor.dim",
        "arith.constant",
        "arith.index_cast",
        "arith.index_castui",
        "iree_tensor_ext.dispatch.workload.ordinal",
        "flow.dispatch.workload.ordinal",
        "flow.dispatch.tie_shape",
        "return",
        "func.return",
    }
)
"""Ops in a dispatch body that move data in and out, make scratch or carry dynamic sizes in:
not what the dispatch computes."""

_ENTRY = re.compile(r"@([\w$.\-]+|\"[^\"]*\")((?:::@(?:[\w$.\-]+|\"[^\"]*\"))+)")


@dataclass(frozen=True)
class DispatchSite:
    executable: str
    export: str
    ops: tuple[str, ...]
    """The fused ops, in body order (`linalg.fill`, `linalg.matmul`, `linalg.generic`)."""


@dataclass(frozen=True)
class DispatchSummary:
    sites: tuple[DispatchSite, ...]
    executables: tuple[str, ...]
    exports: tuple[str, ...]

    @property
    def dispatch_sites(self) -> int:
        return len(self.sites)

    def contents(self) -> dict[str, list[str]]:
        """Executable -> its fused ops (as `iree-3.13.json`'s `dispatch_contents`)."""
        return {site.executable: list(site.ops) for site in self.sites}


@dataclass(frozen=True)
class ScheduleSummary:
    execute_regions: int
    concurrent_blocks: int
    timepoint_awaits: int
    dispatches: int


def summarize_dispatches(ir: str) -> DispatchSummary:
    """The dispatch sites, executables and exports of a module at the Flow or Stream level."""
    lines = ir.splitlines()
    heads = _heads(lines)
    inside = _executable_lines(lines, heads)
    bodies = _export_bodies(lines, heads)
    sites = []
    for i, head in heads.items():
        if head[0] not in SITE_OPS or i in inside:
            continue
        entry = _ENTRY.search(lines[i])
        if entry is None:
            continue
        executable = entry.group(1).strip('"')
        export = entry.group(2).rsplit("::@", 1)[-1].strip('"')
        sites.append(DispatchSite(executable, export, bodies.get((executable, export), ())))
    executables = tuple(h[1] for h in heads.values() if h[0] in EXECUTABLE_OPS and h[1])
    exports = tuple(h[1] for h in heads.values() if h[0] in EXPORT_OPS and h[1])
    return DispatchSummary(tuple(sites), executables, exports)


def summarize_schedule(ir: str) -> ScheduleSummary:
    """Execute regions, concurrent blocks, timepoint awaits and dispatches of Stream IR."""
    lines = ir.splitlines()
    heads = _heads(lines)
    inside = _executable_lines(lines, heads)
    counts: dict[str, int] = {}
    for i, (name, _) in heads.items():
        if i not in inside:
            counts[name] = counts.get(name, 0) + 1
    return ScheduleSummary(
        execute_regions=counts.get("stream.async.execute", 0) + counts.get("stream.cmd.execute", 0),
        concurrent_blocks=counts.get("stream.async.concurrent", 0)
        + counts.get("stream.cmd.concurrent", 0),
        timepoint_awaits=counts.get("stream.timepoint.await", 0),
        dispatches=sum(counts.get(name, 0) for name in SITE_OPS if name != "flow.dispatch"),
    )


def _heads(lines: list[str]) -> dict[int, tuple[str, str | None]]:
    heads = {}
    for i, line in enumerate(lines):
        head = op_head(line)
        if head is not None:
            heads[i] = head
    return heads


def _executable_lines(lines: list[str], heads: dict[int, tuple[str, str | None]]) -> set[int]:
    inside: set[int] = set()
    for i, (name, _) in heads.items():
        if name in EXECUTABLE_OPS:
            inside.update(range(i, op_end(lines, i) + 1))
    return inside


def _export_bodies(
    lines: list[str], heads: dict[int, tuple[str, str | None]]
) -> dict[tuple[str, str], tuple[str, ...]]:
    """(executable, export) -> the non-plumbing ops at the top of the export function's body."""
    bodies: dict[tuple[str, str], tuple[str, ...]] = {}
    for i, (name, symbol) in heads.items():
        if name not in EXECUTABLE_OPS or symbol is None:
            continue
        end = op_end(lines, i)
        exports = {
            heads[j][1] for j in range(i, end + 1) if j in heads and heads[j][0] in EXPORT_OPS
        }
        for j in range(i + 1, end + 1):
            head = heads.get(j)
            if head and head[0] in {"func.func", "func"} and head[1] in exports:
                bodies[(symbol, head[1])] = _body_ops(lines, heads, j)
    return bodies


def _body_ops(lines: list[str], heads: dict[int, tuple[str, str | None]], start: int):
    depth = indent_of(lines[start]) + 2
    ops = []
    for j in range(start + 1, op_end(lines, start)):
        head = heads.get(j)
        if head and indent_of(lines[j]) == depth and head[0] not in PLUMBING_OPS:
            ops.append(head[0])
    return tuple(ops)


_INDEX_CONSTANT = re.compile(r"(%[\w$.\-]+) = arith\.constant (-?\d+) : index")


def summarize_workgroups(ir: str) -> dict[str, str]:
    """Export name -> its workgroup count (`1, 1, 1`) from the `hal.executable.export` count
    regions, which codegen has folded to constants by `--compile-to=executable-targets`;
    counts still symbolic are kept as printed."""
    lines = ir.splitlines()
    counts: dict[str, str] = {}
    for i, line in enumerate(lines):
        head = op_head(line)
        if head is None or head[0] != "hal.executable.export" or head[1] is None:
            continue
        end = op_end(lines, i)
        constants = dict(_INDEX_CONSTANT.findall("\n".join(lines[i : end + 1])))
        for j in range(i + 1, end + 1):
            text = lines[j].strip()
            if text.startswith("hal.return "):
                operands = text[len("hal.return ") :].split(" : ", 1)[0].split(", ")
                counts[head[1]] = ", ".join(constants.get(v, v) for v in operands)
                break
    return counts
