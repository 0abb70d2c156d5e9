"""numba's cache of the micro-kernels follows every file of the library (`ukernel_cache`).

Without it, a change to `ukernels_mmt4d.py` alone left `_uk_mmt4d` (in `ukernels.py`) running
the old tile kernel from numba's on-disk cache (measured: 4.0 instead of 5.0 below).
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import ireelab
from ireelab.runtime.hal import ukernel_cache

_PROBE = """
import numpy as np
from ireelab.runtime.hal.executable_loader import register_ukernel_symbols
register_ukernel_symbols()
from ireelab.runtime.hal.ukernels import _uk_mmt4d
lhs = np.ones((1, 4, 16, 1), np.float32)
rhs = np.ones((1, 4, 16, 1), np.float32)
out = np.ones((1, 1, 16, 16), np.float32)
_uk_mmt4d(lhs, rhs, out, 0)
print(float(out[0, 0, 0, 0]), len(_uk_mmt4d.stats.cache_hits))
"""


def _probe(root: Path) -> tuple[float, int]:
    environment = {
        **os.environ,
        "PYTHONPATH": str(root / "pkg"),
        "NUMBA_CACHE_DIR": str(root / "numba"),
        "IREELAB_CACHE_DIR": str(root / "kernels"),
    }
    result = subprocess.run(
        [sys.executable, "-c", _PROBE],
        cwd=root,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    value, hits = result.stdout.split()
    return float(value), int(hits)


def test_editing_a_dependency_of_uk_mmt4d_misses_the_cache(tmp_path):
    package = Path(ireelab.__file__).parent
    shutil.copytree(
        package, tmp_path / "pkg" / "ireelab", ignore=shutil.ignore_patterns("__pycache__")
    )
    # 4 steps of 1 * 1 overwrite the ones in out: 4.0, compiled then loaded from the cache
    assert _probe(tmp_path) == (4.0, 0)
    assert _probe(tmp_path) == (4.0, 1)
    # only the tile kernel's file changes: it now always accumulates into out (1 + 4)
    tiles = tmp_path / "pkg" / "ireelab" / "runtime" / "hal" / "ukernels_mmt4d.py"
    head = "def _uk_mmt4d_f32_tiles(lhs, rhs, out, accumulate):\n"
    source = tiles.read_text(encoding="utf-8")
    assert head in source
    tiles.write_text(source.replace(head, head + "    accumulate = 1\n"), encoding="utf-8")
    assert _probe(tmp_path) == (5.0, 0)
    assert _probe(tmp_path) == (5.0, 1)


def test_kernel_cache_modules_are_stamped_with_the_library(tmp_path, monkeypatch):
    monkeypatch.setenv("IREELAB_CACHE_DIR", str(tmp_path))
    module = tmp_path / "k_probe.py"
    module.write_text("def f():\n    return 1\n", encoding="utf-8")
    assert ukernel_cache._library_of(str(module)) == ukernel_cache.UKERNEL_LIBRARY
    assert ukernel_cache._library_of(str(tmp_path.parent / "elsewhere.py")) is None
    names = {Path(p).name for p in ukernel_cache.UKERNEL_LIBRARY}
    assert {"ukernels.py", "ukernels_mmt4d.py", "ukernels_pack.py"} <= names
    # the depthwise kernels are compiled with its intrinsics (unit_stride_row)
    assert "native_intrinsics.py" in names


def test_library_digest_follows_each_file(tmp_path):
    first, second = tmp_path / "a.py", tmp_path / "b.py"
    first.write_text("x = 1\n", encoding="utf-8")
    second.write_text("y = 1\n", encoding="utf-8")
    library = (str(first), str(second))
    before = ukernel_cache.library_digest(library)
    second.write_text("y = 2\n", encoding="utf-8")
    assert ukernel_cache.library_digest(library) != before


def test_native_plans_are_stamped_with_the_spin_wait_intrinsics():
    from ireelab.runtime.hal import native_intrinsics, native_tasks, spin_wait

    library = ukernel_cache._library_of(native_tasks.__file__)
    assert library is not None
    assert str(Path(spin_wait.__file__).resolve()) in library
    assert str(Path(native_intrinsics.__file__).resolve()) in library  # call_entry_at


def test_an_uncachable_kernel_is_named_by_its_file():
    """numba's "cannot cache" warning (`CacheImpl.check_cachable`) reads the locator's
    `_py_file`: the library locator has it, the kernel's file (without it the warning was an
    AttributeError that failed the dispatch)."""
    import inspect

    from ireelab.runtime.hal.ukernels import _uk_mmt4d

    py_file = inspect.getfile(_uk_mmt4d.py_func)
    locator = ukernel_cache._LibraryLocator.from_function(_uk_mmt4d.py_func, py_file)
    assert locator is not None
    assert locator._py_file == py_file  # what numba's warning names
