"""Results and arguments as the framework names them.

A compiled function takes and returns flat lists of arrays, as IREE's runtime does
(`iree.runtime` returns one array or a tuple, in the order of the function's results). The
framework knew more: ONNX names every graph input and output, `torch.export` records the
pytree of the module's arguments and result (a tuple, a dict, nested), `jax.jit(...).lower`
the same as `in_tree` / `out_tree`. A `Signature` keeps that and applies it at the call:

- ONNX: arguments by position or by graph input name (`mod.main_graph(data=x)`); one output
  comes back as the array, several as `NamedResults`, a tuple in graph order that is also
  indexed by output name (`out["logits"]`, `out.names`, `out.as_dict()`);
- torch and JAX: the result in the structure the function returns (`{"logits": ...,
  "features": (...)}` for a module returning that dict), arguments flattened as the framework
  flattens them (so nested inputs can be passed as nested).

Arrays stay numpy arrays. A module saved to a file keeps the signature as a reflection
string of its export and gets it back at load (`saved_signature.py`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np


class NamedResults(tuple):
    """A function's results in order, also indexed by the names the framework gave them."""

    names: tuple[str, ...]

    def __new__(cls, values: Sequence[np.ndarray], names: Sequence[str]):
        results = super().__new__(cls, values)
        results.names = tuple(names)
        return results

    def __getitem__(self, key):
        if isinstance(key, str):
            if key not in self.names:
                raise KeyError(f"no result named '{key}' (results: {', '.join(self.names)})")
            key = self.names.index(key)
        return super().__getitem__(key)

    def as_dict(self) -> dict[str, np.ndarray]:
        return dict(zip(self.names, self, strict=True))

    def __repr__(self) -> str:
        inner = ", ".join(f"{n}={v!r}" for n, v in zip(self.names, self, strict=True))
        return f"NamedResults({inner})"


@dataclass
class Signature:
    """How one exported function's arguments and results are named (see the module doc)."""

    framework: str
    input_names: tuple[str, ...] = ()
    output_names: tuple[str, ...] = ()
    flatten: Callable[[tuple, dict], list] | None = None
    """(args, kwargs) -> the flat arrays the compiled function takes (torch, JAX)."""
    unflatten: Callable[[list], object] | None = None
    """The flat results -> the framework's structure (torch, JAX)."""

    def bind(self, args: tuple, kwargs: dict) -> list:
        if self.flatten is not None:
            return [_array(a) for a in self.flatten(args, kwargs)]
        if not kwargs:
            return list(args)
        bound = list(args) + [None] * (len(self.input_names) - len(args))
        for name, value in kwargs.items():
            if name not in self.input_names:
                raise TypeError(f"no input named '{name}' (inputs: {', '.join(self.input_names)})")
            at = self.input_names.index(name)
            if at < len(args):
                raise TypeError(f"input '{name}' given by position and by name")
            bound[at] = value
        missing = [n for n, v in zip(self.input_names, bound, strict=True) if v is None]
        if missing:
            raise TypeError(f"missing input(s): {', '.join(missing)}")
        return bound

    def pack(self, results: Sequence[np.ndarray]):
        if self.unflatten is not None:
            return self.unflatten(list(results))
        if len(results) == 1:
            return results[0]
        names = self.output_names if len(self.output_names) == len(results) else ()
        return NamedResults(results, names) if names else tuple(results)


def _array(value):
    """A framework tensor as the numpy array the runtime takes (torch's CPU tensors and JAX
    arrays both convert without a copy where they can)."""
    if isinstance(value, np.ndarray):
        return value
    detach = getattr(value, "detach", None)
    if detach is not None:  # torch.Tensor
        return detach().cpu().numpy()
    return np.asarray(value)


_ENTRY = re.compile(r'^\s*func\.func (?:public )?@"?([^"(\s]+)', re.M)


def entry_function(text: str) -> str | None:
    """The name of the first function an importer printed: the one its signature is for."""
    match = _ENTRY.search(text)
    return match.group(1) if match else None


def onnx_signature(model) -> Signature:
    """Graph inputs (those not given by an initializer) and outputs, by name."""
    graph = model.graph
    initialized = {t.name for t in graph.initializer}
    inputs = tuple(i.name for i in graph.input if i.name not in initialized)
    return Signature("onnx", inputs, tuple(o.name for o in graph.output))


def torch_signature(exported_program) -> Signature:
    """From `torch.export`'s call spec: the argument and result pytrees."""
    import torch.utils._pytree as pytree

    spec = exported_program.call_spec
    out_spec = spec.out_spec

    def flatten(args: tuple, kwargs: dict) -> list:
        return pytree.tree_flatten((args, kwargs))[0]

    def unflatten(results: list):
        return pytree.tree_unflatten(results, out_spec)

    names = tuple(str(k) for k in (out_spec.context or ())) if out_spec.type is dict else ()
    return Signature("torch", (), names, flatten, unflatten)


def jax_signature(lowered) -> Signature:
    """From `jax.jit(fn).lower(...)`: `in_tree` / `out_tree`."""
    import jax

    out_tree = lowered.out_tree

    def flatten(args: tuple, kwargs: dict) -> list:
        return jax.tree_util.tree_leaves((args, kwargs))

    def unflatten(results: list):
        return jax.tree_util.tree_unflatten(out_tree, results)

    return Signature("jax", (), (), flatten, unflatten)
