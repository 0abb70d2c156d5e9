"""The functions `@dataclass` generates, compiled once and kept on disk as `.pyc` files are.

Not an IREE concept: MLIR's ops and attributes are C++ classes, built when the compiler is.
xDSL's attributes, constraints and IRDL definitions and ireelab's passes are dataclasses, and
Python 3.11's `@dataclass` writes each class's `__init__`, `__repr__`, `__eq__`, `__hash__` and
(frozen) `__setattr__` / `__delattr__` as source text and compiles it with `exec`: about 1,900
compiles for the ~390 dataclasses a compile imports, 0.2 s CPU of every `ireelab-compile`
(three quarters of making the classes). The text is all a compile depends on, and ~900 of
the texts are distinct, so the same text gives the same code object every time.

`install()` gives `dataclasses` an `exec` that looks the text up in a cache of code objects
(one `marshal` file per Python version, in the kernel cache folder, or under
`sys.pycache_prefix` when that is set) and compiles only what it has not seen, as `exec`
would (`dont_inherit`: no `__future__` flags of this module); new entries are merged into
the file when the process ends (a file grown past `LIMIT` keeps what that process used).
Anything else `exec` is given goes to the builtin. A missing, unreadable or foreign file is
an empty cache. `IREELAB_DATACLASS_CACHE=0` turns it off.
"""

from __future__ import annotations

import atexit
import builtins
import dataclasses
import marshal
import os
import sys
import tempfile
from pathlib import Path

LIMIT = 3_000
"""Entries kept at most (about 25 ms to load): past it, a process that adds entries keeps
only the ones it used itself (a compile uses about 900)."""

_codes: dict[str, object] = {}
_new: dict[str, object] = {}
_used: set[str] = set()
_path: Path | None = None


def cache_path() -> Path:
    version = f"{sys.implementation.cache_tag}-{sys.version_info.releaselevel}"
    name = f"dataclass-code-{version}-{sys.hexversion:x}.marshal"
    if sys.pycache_prefix:
        return Path(sys.pycache_prefix) / "ireelab" / name
    # the kernel cache folder, as `runtime.hal.executable_loader.cache_dir()` finds it (the
    # dialects do not import the runtime); a dot folder, so no import finds it on sys.path
    configured = os.environ.get("IREELAB_CACHE_DIR")
    kernels = Path(configured) if configured else Path.home() / ".cache" / "ireelab" / "kernels"
    return kernels / ".dataclass-code" / name


def _load(path: Path) -> dict[str, object]:
    try:
        with open(path, "rb") as f:
            codes = marshal.loads(f.read())  # `marshal.load(f)` reads object by object
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    return codes if isinstance(codes, dict) else {}


def _cached_exec(source, globals=None, locals=None, /):
    if type(source) is not str:
        return builtins.exec(source, globals, locals)
    code = _codes.get(source)
    if code is None:
        code = compile(source, "<string>", "exec", dont_inherit=True)
        _codes[source] = _new[source] = code
    _used.add(source)
    return builtins.exec(code, globals, locals)


def _save() -> None:
    if not _new or _path is None:
        return
    merged = {**_load(_path), **_new}
    if len(merged) > LIMIT:
        merged = {source: _codes[source] for source in _used}
    scratch = None
    try:
        _path.parent.mkdir(parents=True, exist_ok=True)
        fd, scratch = tempfile.mkstemp(dir=_path.parent, prefix=".dataclass-code-")
        with os.fdopen(fd, "wb") as f:
            marshal.dump(merged, f)
        os.replace(scratch, _path)  # whole files only: a reader never sees half of one
    except OSError:  # a read-only home: compile again next time
        if scratch is not None and os.path.exists(scratch):
            os.unlink(scratch)
        return
    _new.clear()


def install() -> None:
    """Make `@dataclass` take its generated functions from the cache (once per process)."""
    global _path
    if _path is not None or os.environ.get("IREELAB_DATACLASS_CACHE") == "0":
        return
    _path = cache_path()
    _codes.update(_load(_path))
    dataclasses.exec = _cached_exec
    atexit.register(_save)
