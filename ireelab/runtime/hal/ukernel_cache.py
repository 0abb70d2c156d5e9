"""numba's on-disk cache keyed on every source file a cached kernel's code comes from.

numba (0.68) stamps a cached function with a hash of the one file that defines it, but the
cached machine code also holds the code of every jitted function it calls, inlined or linked
in. So `_uk_mmt4d` (in `ukernels.py`) would keep running the old tile kernel after only
`ukernels_mmt4d.py` changed, and a generated kernel module (`k_<digest>.py`, whose source does
not change when the library does) the old `_uk_pack`. IREE has no counterpart: its ukernels
are bitcode linked into each executable when it is compiled, so a new compiler links new code.

`track_library(files)` makes the stamp of every cached function defined in one of `files`
(`_LibraryLocator`) numba's own stamp plus a hash of all of `files`; the kernel cache folder's
modules (`executable_loader.cache_dir()`) get the micro-kernel library's hash too. A change to
any library file then misses the cache of every function whose code may hold it, and numba
compiles again. Other files whose cached kernels call into another file's jitted code say so
the same way (`native_tasks.py` with `spin_wait.py`). The locator is put first in numba's locator list when this module is imported,
which each micro-kernel module does before its first `@numba.njit(cache=True)`.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from pathlib import Path

from numba.core import caching

_LIBRARIES: dict[str, tuple[str, ...]] = {}
"""Real path of a tracked file -> the files of its library (real paths, sorted)."""

UKERNEL_LIBRARY = tuple(
    sorted(
        str(p.resolve())
        for p in (
            *Path(__file__).parent.glob("ukernels*.py"),
            Path(__file__).parent / "native_intrinsics.py",
        )
    )
)
"""The micro-kernel library: `ukernels.py`, the modules it takes kernels from, and the
intrinsics its kernels are compiled with (`native_intrinsics.unit_stride_row`: an
intrinsic's code is written into each caller's)."""


def track_library(files: Iterable[str | os.PathLike]) -> None:
    """Stamp numba's cache of every function defined in one of `files` with all their
    contents."""
    library = tuple(sorted(str(Path(f).resolve()) for f in files))
    for path in library:
        _LIBRARIES[path] = library


def library_digest(library: tuple[str, ...]) -> str:
    """A hash of the contents of `library`'s files (a missing file counts as empty)."""
    digest = hashlib.sha256()
    for path in library:
        digest.update(path.encode("utf-8") + b"\0")
        try:
            digest.update(Path(path).read_bytes())
        except OSError:
            pass
        digest.update(b"\0")
    return digest.hexdigest()


def _library_of(py_file: str) -> tuple[str, ...] | None:
    path = Path(py_file).resolve()
    library = _LIBRARIES.get(str(path))
    if library is not None:
        return library
    try:
        from ireelab.runtime.hal.executable_loader import cache_dir
    except ImportError:  # the loader is still being imported: no kernel module loads yet
        return None
    if path.parent == cache_dir().resolve():
        return UKERNEL_LIBRARY
    return None


class _LibraryLocator(caching._CacheLocator):
    """numba's locator for the function (the first standard one that applies), with the
    library's hash added to its source stamp."""

    def __init__(self, inner: caching._CacheLocator, library: tuple[str, ...]):
        self._inner = inner
        self._library = library

    def ensure_cache_path(self):
        self._inner.ensure_cache_path()

    def get_cache_path(self):
        return self._inner.get_cache_path()

    def get_source_stamp(self):
        return (self._inner.get_source_stamp(), library_digest(self._library))

    def get_disambiguator(self):
        return self._inner.get_disambiguator()

    @property
    def _py_file(self):
        # numba's warning for a function it cannot cache (dynamic globals, e.g. at NUMBA_OPT=0)
        # names the file from here; without it that warning was an AttributeError in the kernel.
        return self._inner._py_file

    @classmethod
    def from_function(cls, py_func, py_file):
        library = _library_of(py_file)
        if library is None:
            return None
        for locator_class in caching.CacheImpl._locator_classes:
            if locator_class is cls:
                continue
            inner = locator_class.from_function(py_func, py_file)
            if inner is not None:
                return cls(inner, library)
        return None


def _install() -> None:
    locators = caching.CacheImpl._locator_classes
    if _LibraryLocator not in locators:
        locators.insert(0, _LibraryLocator)


_install()
track_library(UKERNEL_LIBRARY)
