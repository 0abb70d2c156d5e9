"""A framework `Signature` kept in the module file, as a reflection string of the export.

IREE keeps what a front end knows about an exported function as string attributes in its
`iree.reflection` dictionary; the `.vmfb` stores them with the export and the runtime hands
them back (`VmFunction.reflection`), and IREE's Python binding reads one of them, `iree.abi`
(JSON describing results with the descriptors `sdict`, `stuple`, `slist`, `ndarray`), to give
results their structure. ireelab does the same: the module file's reflection table (section
REFL) holds, beside `iree.abi.declaration`, the key `ireelab.signature`, a JSON record of
the function's `Signature`:

    {"framework": "onnx", "inputs": ["left", "right"], "outputs": ["total", "product"]}
    {"framework": "torch", "results": ["sdict", ["sum", ["ndarray"]], ["pair", ["stuple", ...]]]}

The result structure is written with IREE's descriptor names; its leaves (`["ndarray"]`)
are the function's flat results in order (IREE's `iree.abi` means nested VM lists there,
which is why the key is ireelab's own). `ireelab.load` rebuilds the `Signature` without
importing the framework: arguments are flattened as the framework flattens them (tuples,
lists and dicts, `None` holding no leaf; torch keeps a dict's insertion order, JAX sorts its
keys) and results are put back in the saved structure.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from ireelab.frontends.signature import Signature, entry_function

KEY = "ireelab.signature"


class SignatureRecordError(ValueError):
    """A saved signature that cannot be read back (a damaged or foreign module file)."""


def describe(tree) -> list | None:
    """The descriptor of a result structure whose leaves are their flat positions (the
    framework's unflatten of `0, 1, ...`), or None when it is not tuples, lists, str-keyed
    dicts and `None` with the leaves in order."""
    counter = iter(range(1 << 62))

    def walk(node) -> list:
        if isinstance(node, int) and not isinstance(node, bool):
            if node != next(counter):
                raise ValueError("leaves out of order")
            return ["ndarray"]
        if node is None:
            return ["none"]
        if isinstance(node, dict) and all(isinstance(k, str) for k in node):
            return ["sdict", *[[k, walk(v)] for k, v in node.items()]]
        if isinstance(node, tuple | list):
            return ["stuple" if isinstance(node, tuple) else "slist", *map(walk, node)]
        raise ValueError(f"cannot describe {type(node).__name__}")

    try:
        return walk(tree)
    except ValueError:
        return None


def encode(signature: Signature, result_count: int) -> str | None:
    """The reflection string for `signature` of a function of `result_count` results, or
    None when it cannot be saved (a torch or JAX result structure `describe` does not
    cover)."""
    record: dict[str, object] = {"framework": signature.framework}
    if signature.input_names:
        record["inputs"] = list(signature.input_names)
    if signature.output_names:
        record["outputs"] = list(signature.output_names)
    if signature.unflatten is not None:
        try:
            results = describe(signature.unflatten(list(range(result_count))))
        except Exception:  # noqa: BLE001 - the framework's unflatten refused: not saved
            results = None
        if results is None:
            return None
        record["results"] = results
    return json.dumps(record, separators=(",", ":"))


def decode(text: str, result_count: int) -> Signature:
    """The `Signature` a saved record describes, for a function of `result_count` results."""
    try:
        record = json.loads(text)
        framework = str(record["framework"])
        inputs = tuple(str(n) for n in record.get("inputs", ()))
        outputs = tuple(str(n) for n in record.get("outputs", ()))
        results = record.get("results")
    except (ValueError, KeyError, TypeError, AttributeError) as err:
        raise SignatureRecordError(f"malformed {KEY}: {err}") from None
    if results is None:
        return Signature(framework, inputs, outputs)
    if _leaf_count(results) != result_count:
        raise SignatureRecordError(
            f"{KEY} describes a structure of other than {result_count} results"
        )
    sort_keys = framework == "jax"

    def flatten(args: tuple, kwargs: dict) -> list:
        return list(_leaves((args, kwargs), sort_keys))

    def unflatten(values: list):
        return _build(results, iter(values))

    return Signature(framework, inputs, outputs, flatten, unflatten)


def _leaf_count(descriptor) -> int:
    if not isinstance(descriptor, list) or not descriptor:
        raise SignatureRecordError(f"malformed {KEY}: {descriptor!r} is no descriptor")
    kind, *items = descriptor
    if kind == "ndarray":
        return 1
    if kind == "none":
        return 0
    if kind in ("stuple", "slist"):
        return sum(_leaf_count(d) for d in items)
    if kind == "sdict" and all(isinstance(i, list) and len(i) == 2 for i in items):
        return sum(_leaf_count(d) for _, d in items)
    raise SignatureRecordError(f"malformed {KEY}: unknown descriptor {kind!r}")


def _build(descriptor: list, leaves: Iterator):
    kind, *items = descriptor
    if kind == "ndarray":
        return next(leaves)
    if kind == "none":
        return None
    if kind == "sdict":
        return {key: _build(d, leaves) for key, d in items}
    built = [_build(d, leaves) for d in items]
    return tuple(built) if kind == "stuple" else built


def _leaves(node, sort_keys: bool) -> Iterator:
    if node is None:
        return
    if isinstance(node, dict):
        keys = sorted(node) if sort_keys else list(node)
        for key in keys:
            yield from _leaves(node[key], sort_keys)
        return
    if isinstance(node, tuple | list):
        for item in node:
            yield from _leaves(item, sort_keys)
        return
    yield node


def with_signature(data: bytes, name: str, signature: Signature) -> bytes:
    """The module file `data` with `signature` kept for its export `name` (unchanged when
    the signature cannot be saved)."""
    from ireelab.compiler.vm.module_file import with_reflection
    from ireelab.runtime.vm.module_file import read_module

    text = encode(signature, len(_results(read_module(data), name)))
    return data if text is None else with_reflection(data, name, {KEY: text})


def with_entry_signature(data: bytes, program: str, signature: Signature) -> bytes:
    """As `with_signature`, for the function an importer printed first in `program`."""
    name = entry_function(program)
    return data if name is None else with_signature(data, name, signature)


def saved_signatures(image) -> dict[str, Signature]:
    """Export name -> the `Signature` a loaded module image keeps."""
    from ireelab.runtime.errors import ModuleFileError

    found: dict[str, Signature] = {}
    for name, entries in image.reflection.items():
        if KEY not in entries:
            continue
        try:
            found[name] = decode(entries[KEY], len(_results(image, name)))
        except (SignatureRecordError, KeyError) as err:
            raise ModuleFileError(f"export '{name}': {err}") from None
    return found


def _results(image, name: str) -> tuple[str, ...]:
    for export in image.exports:
        if export["name"] == name:
            return image.functions[int(export["function"])].outputs
    raise KeyError(f"the module exports no function '{name}'")
