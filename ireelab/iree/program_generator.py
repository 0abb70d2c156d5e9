"""Random programs for differential testing against the real IREE.

`random_program(seed)` writes a small, valid input program (linalg on tensors, static f32
shapes, the style of the reference programs) from a seed: a chain of steps drawn from the
patterns IREE's dispatch formation cares about — elementwise producers and consumers, unary
math, fill + matmul roots, bias broadcasts, transposes, row reductions — over values of
matching shapes, returning one or two results. The same seed always gives the same text, so a
failing case is reproducible by its number.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

DIMS = (4, 8, 16, 32)
BINARY = ("arith.addf", "arith.subf", "arith.mulf", "arith.maximumf")
UNARY = ("math.tanh", "arith.negf", "relu")
STEPS = ("binary", "binary", "unary", "matmul", "bias", "transpose", "reduce")


@dataclass(frozen=True)
class Value:
    name: str
    shape: tuple[int, ...]

    @property
    def type(self) -> str:
        return "tensor<" + "x".join(str(d) for d in self.shape) + "xf32>"


@dataclass
class ProgramBuilder:
    """Writes a `func.func` op by op; every method returns the value it defines."""

    name: str
    args: list[Value] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    counter: int = 0
    zero: str | None = None

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"%{prefix}{self.counter}"

    def arg(self, shape: tuple[int, ...]) -> Value:
        value = Value(f"%arg{len(self.args)}", shape)
        self.args.append(value)
        return value

    def _zero(self) -> str:
        if self.zero is None:
            self.zero = self.fresh("c")
            self.lines.append(f"  {self.zero} = arith.constant 0.0 : f32")
        return self.zero

    def _empty(self, shape: tuple[int, ...]) -> Value:
        value = Value(self.fresh("e"), shape)
        self.lines.append(f"  {value.name} = tensor.empty() : {value.type}")
        return value

    def _filled(self, shape: tuple[int, ...]) -> Value:
        empty = self._empty(shape)
        zero = self._zero()
        value = Value(self.fresh("f"), shape)
        self.lines.append(
            f"  {value.name} = linalg.fill ins({zero} : f32) outs({empty.name} : {empty.type})"
            f" -> {value.type}"
        )
        return value

    def _generic(
        self,
        ins: list[tuple[Value, str]],
        out: Value,
        out_map: str,
        iterators: list[str],
        body: list[str],
        dims: int,
    ) -> Value:
        names = ", ".join(f"d{k}" for k in range(dims))
        maps = [f"affine_map<({names}) -> ({m})>" for _, m in ins] + [
            f"affine_map<({names}) -> ({out_map})>"
        ]
        iters = ", ".join(f'"{it}"' for it in iterators)
        in_names = ", ".join(v.name for v, _ in ins)
        in_types = ", ".join(v.type for v, _ in ins)
        block = ", ".join([f"%in{k}: f32" for k in range(len(ins))] + ["%out: f32"])
        value = Value(self.fresh("g"), out.shape)
        self.lines += [
            f"  {value.name} = linalg.generic {{indexing_maps = [{', '.join(maps)}], "
            f"iterator_types = [{iters}]}} ins({in_names} : {in_types}) "
            f"outs({out.name} : {out.type}) {{",
            f"  ^bb0({block}):",
            *[f"    {line}" for line in body],
            f"  }} -> {value.type}",
        ]
        return value

    def binary(self, op: str, a: Value, b: Value) -> Value:
        identity = _identity(len(a.shape))
        out = self._empty(a.shape)
        body = [f"%r = {op} %in0, %in1 : f32", "linalg.yield %r : f32"]
        return self._generic(
            [(a, identity), (b, identity)], out, identity, _par(a), body, len(a.shape)
        )

    def unary(self, op: str, a: Value) -> Value:
        identity = _identity(len(a.shape))
        out = self._empty(a.shape)
        if op == "relu":
            body = [f"%r = arith.maximumf %in0, {self._zero()} : f32"]
        else:
            body = [f"%r = {op} %in0 : f32"]
        body.append("linalg.yield %r : f32")
        return self._generic([(a, identity)], out, identity, _par(a), body, len(a.shape))

    def matmul(self, a: Value, b: Value) -> Value:
        acc = self._filled((a.shape[0], b.shape[1]))
        value = Value(self.fresh("mm"), acc.shape)
        self.lines.append(
            f"  {value.name} = linalg.matmul ins({a.name}, {b.name} : {a.type}, {b.type}) "
            f"outs({acc.name} : {acc.type}) -> {value.type}"
        )
        return value

    def add_row(self, a: Value, bias: Value) -> Value:
        out = self._empty(a.shape)
        body = ["%r = arith.addf %in0, %in1 : f32", "linalg.yield %r : f32"]
        return self._generic([(a, "d0, d1"), (bias, "d1")], out, "d0, d1", _par(a), body, 2)

    def transpose(self, a: Value) -> Value:
        out = self._empty((a.shape[1], a.shape[0]))
        body = ["linalg.yield %in0 : f32"]
        return self._generic([(a, "d1, d0")], out, "d0, d1", _par(out), body, 2)

    def row_sum(self, a: Value) -> Value:
        acc = self._filled((a.shape[0],))
        body = ["%r = arith.addf %in0, %out : f32", "linalg.yield %r : f32"]
        return self._generic([(a, "d0, d1")], acc, "d0", ["parallel", "reduction"], body, 2)

    def text(self, results: list[Value]) -> str:
        params = ", ".join(f"{a.name}: {a.type}" for a in self.args)
        types = ", ".join(r.type for r in results)
        result_types = types if len(results) == 1 else f"({types})"
        names = ", ".join(r.name for r in results)
        return "\n".join(
            [f"func.func @{self.name}({params}) -> {result_types} {{", *self.lines]
            + [f"  return {names} : {types}", "}", ""]
        )


def _identity(rank: int) -> str:
    return ", ".join(f"d{k}" for k in range(rank))


def _par(value: Value) -> list[str]:
    return ["parallel"] * len(value.shape)


def random_program(seed: int, name: str | None = None) -> str:
    """A random valid program; the same seed gives the same program."""
    rng = random.Random(seed)
    builder = ProgramBuilder(name or f"gen{seed}")
    m, n = rng.choice(DIMS), rng.choice(DIMS)
    live = [builder.arg((m, n))]
    if rng.random() < 0.6:
        live.append(builder.arg((m, n)))
    reductions: list[Value] = []
    for _ in range(rng.randint(2, 5)):
        value = _step(builder, rng, rng.choice(STEPS), live)
        if len(value.shape) == 1:  # a reduction ends its chain: it is returned
            reductions.append(value)
        else:
            live.append(value)
    if live[-1] in builder.args:
        live.append(builder.unary(rng.choice(UNARY), live[-1]))
    results = [*reductions[-1:], live[-1]]
    extra = live[-2]
    if len(results) < 2 and extra not in builder.args and rng.random() < 0.4:
        results.insert(0, extra)
    return builder.text(results)


def _step(builder: ProgramBuilder, rng: random.Random, step: str, live: list[Value]) -> Value:
    current = live[-1]
    if step == "binary":
        partners = [v for v in live[:-1] if v.shape == current.shape]
        other = rng.choice(partners) if partners else builder.arg(current.shape)
        return builder.binary(rng.choice(BINARY), current, other)
    if step == "unary":
        return builder.unary(rng.choice(UNARY), current)
    if step == "matmul":
        weight = builder.arg((current.shape[1], rng.choice(DIMS)))
        return builder.matmul(current, weight)
    if step == "bias":
        return builder.add_row(current, builder.arg((current.shape[1],)))
    if step == "transpose":
        return builder.transpose(current)
    return builder.row_sum(current)
