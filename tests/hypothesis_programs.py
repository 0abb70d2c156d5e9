"""A hypothesis strategy for valid random input programs, each with its numpy meaning.

`programs()` draws a `func.func @f` of linalg / tensor / arith / math ops on small static f32
shapes: elementwise chains (named `linalg.add/sub/mul/max/min` and `linalg.generic` bodies of
one or several scalar ops), broadcasts (a lower-rank operand read through a projected indexing
map, or `linalg.broadcast`), reductions (sum and max over one loop), matmuls, transposes, and
any mix of them over a DAG of values, with one or two results. Arguments are created on demand
with the shape an op needs.

Every op is mirrored in numpy as it is drawn, so a `Program` carries its own expected results:
an oracle independent of ireelab (and of `ireelab.eager`, which the tests check too).
Values stay bounded (|x| <= ~100) so f32 rounding, not overflow, decides the tolerance.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from hypothesis import strategies as st

MAX_RANK = 3
MAX_DIM = 5
KINDS = ("elementwise", "broadcast", "reduction", "matmul", "transpose")


@dataclass
class Value:
    name: str
    shape: tuple[int, ...]

    @property
    def type(self) -> str:
        return tensor_type(self.shape)


@dataclass
class Program:
    """A program's text, its arguments' shapes, and a numpy function giving its results."""

    source: str
    arg_shapes: list[tuple[int, ...]]
    expected: Callable[[list[np.ndarray]], list[np.ndarray]]
    kinds: frozenset[str]
    """Which op families the program uses (for `hypothesis.target`-free coverage checks)."""

    def inputs(self, seed: int) -> list[np.ndarray]:
        rng = np.random.default_rng(seed)
        return [rng.uniform(-2.0, 2.0, size=s).astype(np.float32) for s in self.arg_shapes]

    def __repr__(self) -> str:  # hypothesis prints this for a falsifying example
        return f"Program(arg_shapes={self.arg_shapes}, source=\n{self.source})"


def tensor_type(shape: tuple[int, ...]) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + "f32>"


def parallel(rank: int) -> str:
    return ", ".join(['"parallel"'] * rank)


def affine_map(rank: int, results: list[int]) -> str:
    dims = ", ".join(f"d{i}" for i in range(rank))
    return f"affine_map<({dims}) -> ({', '.join(f'd{i}' for i in results)})>"


# ---- scalar bodies: MLIR lines and numpy meaning ------------------------------------------

UNARY: dict[str, tuple[list[str], Callable[[np.ndarray], np.ndarray]]] = {
    "neg": (["%r = arith.negf %in : f32"], np.negative),
    "abs": (["%r = math.absf %in : f32"], np.abs),
    "tanh": (["%r = math.tanh %in : f32"], np.tanh),
    "relu": (
        ["%z = arith.constant 0.000000e+00 : f32", "%r = arith.maximumf %in, %z : f32"],
        lambda x: np.maximum(x, np.float32(0)),
    ),
    "half": (
        ["%h = arith.constant 5.000000e-01 : f32", "%r = arith.mulf %in, %h : f32"],
        lambda x: x * np.float32(0.5),
    ),
    "gauss": (  # exp(-x*x): a three-op body, bounded whatever x is
        ["%s = arith.mulf %in, %in : f32", "%n = arith.negf %s : f32", "%r = math.exp %n : f32"],
        lambda x: np.exp(-(x * x)),
    ),
}

BINARY: dict[str, tuple[str, str, Callable[[np.ndarray, np.ndarray], np.ndarray]]] = {
    # kind: (arith op, linalg named op or "", numpy)
    "add": ("arith.addf", "linalg.add", np.add),
    "sub": ("arith.subf", "linalg.sub", np.subtract),
    "mul": ("arith.mulf", "linalg.mul", np.multiply),
    "max": ("arith.maximumf", "linalg.max", np.maximum),
    "min": ("arith.minimumf", "", np.minimum),
}


@dataclass
class _Builder:
    """Accumulates the function body and the numpy mirror while ops are drawn."""

    draw: Callable
    lines: list[str] = field(default_factory=list)
    args: list[Value] = field(default_factory=list)
    values: list[Value] = field(default_factory=list)
    computed: list[Value] = field(default_factory=list)
    """The values ops produced (not the arguments), in order."""
    steps: list[Callable[[dict], None]] = field(default_factory=list)
    kinds: set[str] = field(default_factory=set)
    counter: int = 0
    dims: st.SearchStrategy[int] = st.integers(1, MAX_DIM)
    """Extents of new dimensions."""

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"%{prefix}{self.counter}"

    def new_arg(self, shape: tuple[int, ...]) -> Value:
        value = Value(f"%arg{len(self.args)}", shape)
        self.args.append(value)
        self.values.append(value)
        return value

    def emit(self, name: str, shape: tuple[int, ...], fn: Callable[[dict], np.ndarray]) -> Value:
        value = Value(name, shape)
        self.values.append(value)
        self.computed.append(value)
        self.steps.append(lambda env: env.__setitem__(name, fn(env)))
        return value

    def empty(self, shape: tuple[int, ...]) -> str:
        name = self.fresh("e")
        self.lines.append(f"{name} = tensor.empty() : {tensor_type(shape)}")
        return name

    def filled(self, shape: tuple[int, ...], value: str) -> str:
        empty = self.empty(shape)
        cst, name = self.fresh("c"), self.fresh("fill")
        t = tensor_type(shape)
        self.lines.append(f"{cst} = arith.constant {value} : f32")
        self.lines.append(f"{name} = linalg.fill ins({cst} : f32) outs({empty} : {t}) -> {t}")
        return name

    def pick(self, candidates: list[Value] | None = None) -> Value:
        """Mostly the newest value (chains), sometimes an older one (DAGs)."""
        pool = candidates if candidates is not None else [v for v in self.values if v.shape]
        if self.draw(st.booleans()):
            return pool[-1]
        return pool[self.draw(st.integers(0, len(pool) - 1))]


# ---- op families ----------------------------------------------------------------------------


def _unary(b: _Builder, x: Value) -> Value:
    kind = b.draw(st.sampled_from(sorted(UNARY)))
    body, fn = UNARY[kind]
    rank = len(x.shape)
    name, out = b.fresh("v"), b.empty(x.shape)
    ident = affine_map(rank, list(range(rank)))
    b.lines.append(
        f"{name} = linalg.generic {{indexing_maps = [{ident}, {ident}], iterator_types = "
        f"[{parallel(rank)}]}} ins({x.name} : {x.type}) outs({out} : {x.type}) {{"
    )
    b.lines.append("^bb0(%in: f32, %out: f32):")
    b.lines += [f"  {line}" for line in body]
    b.lines.append("  linalg.yield %r : f32")
    b.lines.append(f"}} -> {x.type}")
    return b.emit(name, x.shape, lambda env: fn(env[x.name]).astype(np.float32))


def _binary(b: _Builder, x: Value, y: Value, kept: list[int]) -> Value:
    """x op y, where y's dims are x's dims `kept` (a broadcast when y has lower rank)."""
    kind = b.draw(st.sampled_from(sorted(BINARY)))
    arith, named, fn = BINARY[kind]
    rank = len(x.shape)
    name, out = b.fresh("v"), b.empty(x.shape)
    if len(kept) == rank and named and b.draw(st.booleans()):
        b.lines.append(
            f"{name} = {named} ins({x.name}, {y.name} : {x.type}, {y.type}) "
            f"outs({out} : {x.type}) -> {x.type}"
        )
    else:
        ident = affine_map(rank, list(range(rank)))
        maps = f"{ident}, {affine_map(rank, kept)}, {ident}"
        b.lines.append(
            f"{name} = linalg.generic {{indexing_maps = [{maps}], iterator_types = "
            f"[{parallel(rank)}]}} ins({x.name}, {y.name} : {x.type}, "
            f"{y.type}) outs({out} : {x.type}) {{"
        )
        b.lines.append("^bb0(%in: f32, %in_0: f32, %out: f32):")
        b.lines.append(f"  %r = {arith} %in, %in_0 : f32")
        b.lines.append("  linalg.yield %r : f32")
        b.lines.append(f"}} -> {x.type}")

    def run(env: dict) -> np.ndarray:
        # y's axes are x's axes `kept`, in order: give the missing ones length 1.
        shape = [x.shape[i] if i in kept else 1 for i in range(rank)]
        return fn(env[x.name], env[y.name].reshape(shape)).astype(np.float32)

    return b.emit(name, x.shape, run)


def _elementwise(b: _Builder) -> Value:
    x = b.pick()
    if b.draw(st.booleans()):
        return _unary(b, x)
    same = [v for v in b.values if v.shape == x.shape]
    y = b.pick(same) if len(same) > 1 and b.draw(st.booleans()) else b.new_arg(x.shape)
    return _binary(b, x, y, list(range(len(x.shape))))


def _broadcast(b: _Builder) -> Value:
    x = b.pick()
    rank = len(x.shape)
    if rank < MAX_RANK and b.draw(st.booleans()):
        # linalg.broadcast: a new dimension of some size at some position.
        at, size = b.draw(st.integers(0, rank)), b.draw(b.dims)
        shape = x.shape[:at] + (size,) + x.shape[at:]
        name, out = b.fresh("v"), b.empty(shape)
        b.lines.append(
            f"{name} = linalg.broadcast ins({x.name} : {x.type}) outs({out} : "
            f"{tensor_type(shape)}) dimensions = [{at}]"
        )
        return b.emit(
            name, shape, lambda env: np.broadcast_to(np.expand_dims(env[x.name], at), shape).copy()
        )
    # a binary op whose second operand is a new lower-rank argument
    kept = sorted(b.draw(st.sets(st.integers(0, rank - 1), max_size=rank - 1)))
    y = b.new_arg(tuple(x.shape[i] for i in kept))
    return _binary(b, x, y, kept)


def _reduction(b: _Builder) -> Value:
    candidates = [v for v in b.values if len(v.shape) >= 2]
    x = b.pick(candidates) if candidates else b.new_arg((b.draw(b.dims), b.draw(b.dims)))
    rank = len(x.shape)
    dim = b.draw(st.integers(0, rank - 1))
    kind = b.draw(st.sampled_from(["sum", "max"]))
    kept = [i for i in range(rank) if i != dim]
    shape = tuple(x.shape[i] for i in kept)
    init = b.filled(shape, "0.000000e+00" if kind == "sum" else "-1.000000e+30")
    name = b.fresh("v")
    iterators = ", ".join('"reduction"' if i == dim else '"parallel"' for i in range(rank))
    maps = f"{affine_map(rank, list(range(rank)))}, {affine_map(rank, kept)}"
    t = tensor_type(shape)
    arith = "arith.addf" if kind == "sum" else "arith.maximumf"
    b.lines.append(
        f"{name} = linalg.generic {{indexing_maps = [{maps}], iterator_types = [{iterators}]}} "
        f"ins({x.name} : {x.type}) outs({init} : {t}) {{"
    )
    b.lines.append("^bb0(%in: f32, %out: f32):")
    b.lines.append(f"  %r = {arith} %in, %out : f32")
    b.lines.append("  linalg.yield %r : f32")
    b.lines.append(f"}} -> {t}")
    reduce = np.sum if kind == "sum" else np.max
    return b.emit(name, shape, lambda env: reduce(env[x.name], axis=dim).astype(np.float32))


def _matmul(b: _Builder) -> Value:
    candidates = [v for v in b.values if len(v.shape) == 2]
    x = b.pick(candidates) if candidates else b.new_arg((b.draw(b.dims), b.draw(b.dims)))
    m, k = x.shape
    rhs = [v for v in b.values if len(v.shape) == 2 and v.shape[0] == k]
    y = b.pick(rhs) if rhs and b.draw(st.booleans()) else b.new_arg((k, b.draw(b.dims)))
    shape = (m, y.shape[1])
    init = b.filled(shape, "0.000000e+00")
    name, t = b.fresh("v"), tensor_type(shape)
    b.lines.append(
        f"{name} = linalg.matmul ins({x.name}, {y.name} : {x.type}, {y.type}) "
        f"outs({init} : {t}) -> {t}"
    )
    return b.emit(name, shape, lambda env: (env[x.name] @ env[y.name]).astype(np.float32))


def _transpose(b: _Builder) -> Value:
    candidates = [v for v in b.values if len(v.shape) >= 2]
    x = b.pick(candidates) if candidates else b.new_arg((b.draw(b.dims), b.draw(b.dims)))
    rank = len(x.shape)
    perm = b.draw(st.permutations(range(rank)).filter(lambda p: list(p) != list(range(rank))))
    shape = tuple(x.shape[p] for p in perm)
    name, out = b.fresh("v"), b.empty(shape)
    if b.draw(st.booleans()):
        b.lines.append(
            f"{name} = linalg.transpose ins({x.name} : {x.type}) outs({out} : "
            f"{tensor_type(shape)}) permutation = [{', '.join(map(str, perm))}]"
        )
    else:  # the same as a generic reading the input through a permuted map
        inverse = [perm.index(i) for i in range(rank)]
        maps = f"{affine_map(rank, inverse)}, {affine_map(rank, list(range(rank)))}"
        t = tensor_type(shape)
        b.lines.append(
            f"{name} = linalg.generic {{indexing_maps = [{maps}], iterator_types = "
            f"[{parallel(rank)}]}} ins({x.name} : {x.type}) outs({out} : {t}) {{"
        )
        b.lines.append("^bb0(%in: f32, %out: f32):")
        b.lines.append("  linalg.yield %in : f32")
        b.lines.append(f"}} -> {t}")
    return b.emit(name, shape, lambda env: np.ascontiguousarray(np.transpose(env[x.name], perm)))


FAMILIES: dict[str, Callable[[_Builder], Value]] = {
    "elementwise": _elementwise,
    "broadcast": _broadcast,
    "reduction": _reduction,
    "matmul": _matmul,
    "transpose": _transpose,
}


@st.composite
def programs(draw, kinds: tuple[str, ...] = KINDS, max_ops: int = 5, min_dim: int = 1) -> Program:
    """A valid program using op families from `kinds` (every family when mixed), with
    dimensions of `min_dim` to `MAX_DIM` elements (1 includes unit dimensions)."""
    b = _Builder(draw, dims=st.integers(min_dim, MAX_DIM))
    rank = draw(st.integers(1, MAX_RANK))
    b.new_arg(tuple(draw(b.dims) for _ in range(rank)))
    for _ in range(draw(st.integers(1, max_ops))):
        kind = draw(st.sampled_from(kinds))
        b.kinds.add(kind)
        FAMILIES[kind](b)
    computed = b.computed
    results = [computed[-1]]
    if len(computed) > 1 and draw(st.booleans()):
        results.insert(0, b.pick(computed[:-1]))
    return _finish(b, results)


def _finish(b: _Builder, results: list[Value]) -> Program:
    params = ", ".join(f"{a.name}: {a.type}" for a in b.args)
    result_types = ", ".join(r.type for r in results)
    signature = result_types if len(results) == 1 else f"({result_types})"
    body = "\n".join(f"  {line}" for line in b.lines)
    ret = f"  return {', '.join(r.name for r in results)} : {result_types}"
    source = f"func.func @f({params}) -> {signature} {{\n{body}\n{ret}\n}}\n"
    arg_names = [a.name for a in b.args]
    steps = list(b.steps)
    result_names = [r.name for r in results]

    def expected(inputs: list[np.ndarray]) -> list[np.ndarray]:
        env = dict(zip(arg_names, inputs, strict=True))
        for step in steps:
            step(env)
        return [np.asarray(env[n], dtype=np.float32) for n in result_names]

    return Program(source, [a.shape for a in b.args], expected, frozenset(b.kinds))
