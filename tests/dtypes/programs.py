"""Small programs that exercise one element type each, for ireelab and the real IREE.

Each program puts many scalar ops in one `linalg.generic` with one result per op, so a whole
op table costs one dispatch (one numba compile) per output element type. The results are
grouped by element type into separate generics: IREE's CPU codegen rejects one dispatch that
writes i1 next to wider integers, and a dispatch can have at most 32 bindings.

A multi-result `linalg.generic` spells its result types as MLIR does, `-> (t1, t2)`, which both
ireelab and IREE read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_MAP = "affine_map<(d0) -> (d0)>"


@dataclass(frozen=True)
class Result:
    name: str
    element: str
    line: str
    """The body line defining `%<name>`; operands are the block's scalar names."""
    output: bool = True
    """False for a body value only other results use (a scalar constant)."""


@dataclass(frozen=True)
class Program:
    function: str
    inputs: tuple[tuple[str, str], ...]
    """(block argument name, element type) for each input tensor, in order."""
    results: tuple[Result, ...]
    size: int
    constants: tuple[tuple[str, str, str], ...] = ()
    """(block argument name, element type, dense literal): tensor constants of the function
    read by every generic like an input."""

    @property
    def names(self) -> list[str]:
        return [r.name for r in self.groups_in_order()]

    def groups(self) -> list[list[Result]]:
        by_type: dict[str, list[Result]] = {}
        for result in self.results:
            if result.output:
                by_type.setdefault(result.element, []).append(result)
        return list(by_type.values())

    def groups_in_order(self) -> list[Result]:
        return [r for group in self.groups() for r in group]

    def source(self) -> str:
        tensor = self._tensor
        inputs = ", ".join(f"%in_{name}: {tensor(e)}" for name, e in self.inputs)
        all_types = ", ".join(tensor(r.element) for r in self.groups_in_order())
        lines = [f"func.func @{self.function}({inputs}) -> ({all_types}) {{"]
        lines += [
            f"  %in_{name} = arith.constant dense<{value}> : {tensor(e)}"
            for name, e, value in self.constants
        ]
        returned = []
        for g, group in enumerate(self.groups()):
            lines += self._generic(g, group)
            returned += [f"%g{g}#{i}" for i in range(len(group))]
        lines.append(f"  return {', '.join(returned)} : {all_types}")
        lines.append("}")
        return "\n".join(lines) + "\n"

    def _tensor(self, element: str) -> str:
        return f"tensor<{self.size}x{element}>"

    def _generic(self, g: int, group: list[Result]) -> list[str]:
        tensor = self._tensor
        lines = [f"  %e{g}_{r.name} = tensor.empty() : {tensor(r.element)}" for r in group]
        types = ", ".join(tensor(r.element) for r in group)
        operands = [*self.inputs, *((name, e) for name, e, _ in self.constants)]
        maps = ", ".join([_MAP] * (len(operands) + len(group)))
        ins = ", ".join(f"%in_{name}" for name, _ in operands)
        in_types = ", ".join(tensor(e) for _, e in operands)
        outs = ", ".join(f"%e{g}_{r.name}" for r in group)
        arguments = [f"%{name}: {e}" for name, e in operands]
        arguments += [f"%out_{r.name}: {r.element}" for r in group]
        lines.append(
            f"  %g{g}:{len(group)} = linalg.generic {{indexing_maps = [{maps}], "
            f'iterator_types = ["parallel"]}} ins({ins} : {in_types}) '
            f"outs({outs} : {types}) {{"
        )
        lines.append(f"  ^bb0({', '.join(arguments)}):")
        lines += [f"    {r.line}" for r in _needed(self.results, group)]
        yielded = ", ".join(f"%{r.name}" for r in group)
        lines.append(f"    linalg.yield {yielded} : {', '.join(r.element for r in group)}")
        result_types = f"({types})" if len(group) > 1 else types
        lines.append(f"  }} -> {result_types}")
        return lines


def _needed(results: tuple[Result, ...], group: list[Result]) -> list[Result]:
    """The body lines a group's results depend on, in program order."""
    wanted = {r.name for r in group}
    needed: list[Result] = []
    for result in reversed(results):
        if result.name in wanted:
            needed.append(result)
            wanted |= set(re.findall(r"%(\w+)", result.line.split("=", 1)[1]))
    return list(reversed(needed))


# ---- integers -----------------------------------------------------------------------------

INTEGER_BINARY = (
    "addi", "subi", "muli", "divsi", "remsi", "divui", "remui", "floordivsi", "ceildivsi",
    "ceildivui", "maxsi", "minsi", "maxui", "minui", "andi", "ori", "xori",
)  # fmt: skip
SHIFTS = ("shli", "shrsi", "shrui")
CMPI_PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")


def integer_program(t: str, size: int = 16) -> Program:
    """Every integer op of the issue on `%x`, `%y` (nonzero) and `%s` (a shift amount)."""
    results = [Result(op, t, f"%{op} = arith.{op} %x, %y : {t}") for op in INTEGER_BINARY]
    results += [Result(op, t, f"%{op} = arith.{op} %x, %s : {t}") for op in SHIFTS]
    results += [
        Result(f"cmp_{p}", "i1", f"%cmp_{p} = arith.cmpi {p}, %x, %y : {t}")
        for p in CMPI_PREDICATES
    ]
    results += [
        Result("select", t, f"%select = arith.select %cmp_slt, %x, %y : {t}"),
        Result("absi", t, f"%absi = math.absi %x : {t}"),
        Result("sitofp", "f32", f"%sitofp = arith.sitofp %x : {t} to f32"),
        Result("uitofp", "f32", f"%uitofp = arith.uitofp %x : {t} to f32"),
        Result("fptosi", t, f"%fptosi = arith.fptosi %sitofp : f32 to {t}"),
        Result("low_bit", "i1", f"%low_bit = arith.trunci %x : {t} to i1"),
        Result("low_bit_extsi", t, f"%low_bit_extsi = arith.extsi %low_bit : i1 to {t}"),
        Result("low_bit_extui", t, f"%low_bit_extui = arith.extui %low_bit : i1 to {t}"),
        Result("i1_addi", "i1", "%i1_addi = arith.addi %low_bit, %cmp_slt : i1"),
        Result("i1_maxsi", "i1", "%i1_maxsi = arith.maxsi %low_bit, %cmp_slt : i1"),
        Result("i1_slt", "i1", "%i1_slt = arith.cmpi slt, %low_bit, %cmp_slt : i1"),
    ]
    if t != "i64":
        results += [
            Result("extsi", "i64", f"%extsi = arith.extsi %x : {t} to i64"),
            Result("extui", "i64", f"%extui = arith.extui %x : {t} to i64"),
        ]
    if t != "i8":
        results.append(Result("trunci", "i8", f"%trunci = arith.trunci %x : {t} to i8"))
    inputs = (("x", t), ("y", t), ("s", t))
    return Program(f"ops_{t}", inputs, tuple(results), size)


# ---- f16 ----------------------------------------------------------------------------------

F16_APPROXIMATE = ("exp", "tanh")
"""Transcendentals: each compiler computes them in f32 its own way, then rounds to f16."""


def f16_program(size: int = 16) -> Program:
    f = "f16"
    results = [
        Result(op, f, f"%{op} = arith.{op} %x, %y : {f}")
        for op in ("addf", "subf", "mulf", "divf", "maximumf", "minimumf")
    ]
    results += [
        Result("negf", f, f"%negf = arith.negf %x : {f}"),
        Result("absf", f, f"%absf = math.absf %x : {f}"),
        Result("sqrt", f, f"%sqrt = math.sqrt %absf : {f}"),
        Result("exp", f, f"%exp = math.exp %x : {f}"),
        Result("tanh", f, f"%tanh = math.tanh %x : {f}"),
        Result("tenth", f, "%tenth = arith.constant 1.000000e-01 : f16", output=False),
        Result("scaled", f, f"%scaled = arith.mulf %x, %tenth : {f}"),
        Result("cmp_olt", "i1", f"%cmp_olt = arith.cmpf olt, %x, %y : {f}"),
        Result("cmp_oeq", "i1", f"%cmp_oeq = arith.cmpf oeq, %x, %y : {f}"),
        Result("cmp_une", "i1", f"%cmp_une = arith.cmpf une, %x, %y : {f}"),
        Result("cmp_uno", "i1", f"%cmp_uno = arith.cmpf uno, %x, %y : {f}"),
        Result("select", f, f"%select = arith.select %cmp_olt, %x, %y : {f}"),
        Result("sitofp", f, f"%sitofp = arith.sitofp %n : i32 to {f}"),
        Result("truncf", f, f"%truncf = arith.truncf %w : f32 to {f}"),
        Result("fptosi", "i32", f"%fptosi = arith.fptosi %y : {f} to i32"),
        Result("extf", "f32", f"%extf = arith.extf %x : {f} to f32"),
        Result("constant_add", f, f"%constant_add = arith.addf %x, %k : {f}"),
    ]
    inputs = (("x", f), ("y", f), ("n", "i32"), ("w", "f32"))
    constant = ", ".join(f"{0.25 * i - 1.5:e}" for i in range(size))
    return Program("ops_f16", inputs, tuple(results), size, (("k", f, f"[{constant}]"),))
