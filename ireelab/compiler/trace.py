"""The record of a compile: every pass, its stage, the IR after it, whether it changed, time.

This is what `--mlir-print-ir-after-all` prints in IREE, kept as data so the notebook stepper,
the graphs and `ireelab.iree.import_dump` can all read one type.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from typing import TextIO

from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer

from ireelab.dialects import builtin_resources


class _ResourcePrinter(Printer):
    """Notes the `dense_resource` handles it prints, for the trailing blob section."""

    def __init__(self, stream: TextIO):
        super().__init__(stream=stream)
        self.resource_keys: set[str] = set()

    def print_resource_handle(self, dialect: str, handle: str) -> None:
        self.resource_keys.add(handle)
        self.print_string(handle)


def print_ir(module: ModuleOp) -> str:
    """The module as MLIR text, as the dumps print it, with the `dialect_resources` section of
    the blobs it names."""
    out = io.StringIO()
    printer = _ResourcePrinter(out)
    printer.print_op(module)
    return out.getvalue() + builtin_resources.metadata_section(printer.resource_keys)


class PassRecord:
    """One pass execution. `ir` is the module after the pass as text; a compile hands in a
    snapshot (a clone of the module, printed the first time `ir` is read, because printing
    every pass's IR costs more than running the passes) or, when nothing was printed during
    the compile, a `LazySnapshot` that replays the pipeline the first time any record's IR is
    read (cloning the module after every pass costs more than the passes too). `changed` is
    likewise worked out on demand by comparing with the IR before the pass."""

    __slots__ = ("index", "stage", "name", "flag", "_ir", "_changed", "seconds", "_before", "tool")

    def __init__(
        self,
        index: int,
        stage: str,
        name: str,
        flag: str,
        ir,
        changed: bool | None = None,
        seconds: float = 0.0,
        before=None,
        tool: str = "ireelab",
    ):
        self.index = index
        self.stage = stage
        """One of `pipeline.STAGES`."""
        self.name = name
        """IREE's pass class name, e.g. `ConvertToStreamPass`."""
        self.flag = flag
        """The pass's command-line flag with options, e.g. `iree-stream-conversion`."""
        self._ir = ir
        self._changed = changed
        self.seconds = seconds
        self._before = before
        """The previous PassRecord or the input IR (text, or a function making it), for
        working out `changed`."""
        self.tool = tool
        """Who ran the pass: `ireelab`, or `iree` for a pass of the real IREE read from its dump
        (a framework program's input conversion, `ireelab.frontends`)."""

    @property
    def ir(self) -> str:
        """The module after the pass, as text."""
        if not isinstance(self._ir, str):
            snapshot = self._ir
            if snapshot is NOT_KEPT:
                return not_kept()
            if isinstance(snapshot, LazySnapshot):
                snapshot = snapshot.module()
            self._ir = print_ir(snapshot)
        return self._ir

    @property
    def changed(self) -> bool:
        if self._changed is None:
            before = self._before
            if isinstance(before, PassRecord):
                before_ir = before.ir
            else:  # the input: its text, or the function that prints it
                before_ir = before if isinstance(before, str) else before()
            self._changed = self.ir != before_ir
            self._before = None
        return self._changed

    def __repr__(self) -> str:
        return f"PassRecord({self.index}, {self.stage!r}, {self.name!r}, {self.flag!r})"

    def header(self, module_scope: bool = False, before: bool = False) -> str:
        scope = " ('builtin.module' operation)" if module_scope else ""
        when = "Before" if before else "After"
        return f"// -----// IR Dump {when} {self.name}: {self.flag}{scope} //----- //"

    def op_counts(self) -> dict[str, int]:
        """How many times each op name occurs in `ir` (for per-pass deltas)."""
        counts: dict[str, int] = {}
        for line in self.ir.splitlines():
            name = _op_name(line)
            if name:
                counts[name] = counts.get(name, 0) + 1
        return counts


def not_kept() -> str:
    """What reading a pass's IR raises when the compile was told not to keep it."""
    raise ValueError(
        "this compile did not keep each pass's IR (CompileOptions.keep_ir=False); "
        "compile again with it on to step through the passes"
    )


NOT_KEPT = object()
"""A record's IR when the compile did not keep it (`not_kept` says so when it is read)."""


class LazySnapshot:
    """The module after pass `index` of a compile, made only when asked for: `replay` (the
    driver's `Replay`) runs the compile's passes again on a copy of its input, once, keeping
    a clone after each."""

    __slots__ = ("replay", "index")

    def __init__(self, replay, index: int):
        self.replay = replay
        self.index = index

    def module(self):
        return self.replay.snapshot(self.index)


def _op_name(line: str) -> str | None:
    text = line.strip()
    if "=" in text.split(" ", 1)[0] or text.startswith("%"):
        _, _, text = text.partition("= ")
    head = text.split(" ", 1)[0].split("(", 1)[0].split("<", 1)[0]
    if "." in head and head[0].isalpha() and head.replace(".", "").replace("_", "").isalnum():
        return head
    return None


class Trace:
    """The records of a compile, and the IR it started from. `input_ir` may be handed in as a
    function that makes the text (the driver's `Replay.input_ir`: printing a large input costs
    as much as several passes, and a compile nobody inspects need not print it)."""

    def __init__(
        self, input_ir: str | Callable[[], str] = "", records: list[PassRecord] | None = None
    ):
        self._input_ir = input_ir
        self.records: list[PassRecord] = [] if records is None else records

    @property
    def input_ir(self) -> str:
        if not isinstance(self._input_ir, str):
            self._input_ir = self._input_ir()
        return self._input_ir

    @input_ir.setter
    def input_ir(self, text: str) -> None:
        self._input_ir = text

    def __repr__(self) -> str:
        return f"Trace({len(self.records)} records)"

    def __iter__(self) -> Iterator[PassRecord]:
        return iter(self.records)

    def __len__(self) -> int:
        return len(self.records)

    def __getitem__(self, index: int) -> PassRecord:
        return self.records[index]

    def stage(self, stage: str) -> list[PassRecord]:
        return [r for r in self.records if r.stage == stage]

    def find(self, name: str) -> list[PassRecord]:
        """Records whose class name or flag (without options) is `name`."""
        return [r for r in self.records if name in (r.name, r.flag.split("{", 1)[0])]

    def ir_before(self, index: int) -> str:
        return self.records[index - 1].ir if index > 0 else self.input_ir

    def summary(self) -> list[tuple[str, int, int, float]]:
        """(stage, passes, passes that changed the IR, seconds) per stage, in order."""
        rows: dict[str, list] = {}
        for r in self.records:
            row = rows.setdefault(r.stage, [r.stage, 0, 0, 0.0])
            row[1] += 1
            row[2] += int(r.changed)
            row[3] += r.seconds
        return [tuple(row) for row in rows.values()]
