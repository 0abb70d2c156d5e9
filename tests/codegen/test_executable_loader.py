"""The numba-python executable loader: validation, export lookup, and the on-disk kernel cache."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ireelab.runtime.hal.executable_loader import ExecutableLoadError, load_executable

SOURCE = """\
# ireelab numba-python executable test_loader
import numba
import numpy as np


@numba.njit(nogil=True, cache=True)
def dispatch_0(wg_begin, wg_end, wg_count_x, wg_count_y, wg_count_z, b0, b1):
    a = b0.view(np.float32)
    out = b1.view(np.float32)
    for wg in range(wg_begin, wg_end):
        out[wg] = a[wg] * np.float32(2.0)
"""


def _binary(**overrides) -> bytes:
    document = {
        "format": "numba-python",
        "version": 1,
        "exports": [
            {"name": "double_it", "ordinal": 0, "bindings": 2, "workgroup_size": [1, 1, 1]}
        ],
        "source": SOURCE,
    }
    document.update(overrides)
    return json.dumps(document).encode()


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("IREELAB_CACHE_DIR", str(tmp_path))
    return tmp_path


def test_loads_and_runs_by_ordinal(cache_dir: Path) -> None:
    executable = load_executable(_binary())
    assert executable.export_names == ("double_it",)
    assert executable.lookup("double_it") == 0
    a = np.arange(4, dtype=np.float32)
    out = np.zeros(4, np.float32)
    executable.functions[0](0, 4, 4, 1, 1, a.view(np.uint8), out.view(np.uint8))
    np.testing.assert_array_equal(out, a * 2)
    # the cache holds the module without its header comment (the executable's name)
    cached = (cache_dir / f"{executable.module_name}.py").read_text()
    assert cached == SOURCE.split("\n", 1)[1]


def test_equal_kernels_of_differently_named_executables_share_one_module(cache_dir: Path) -> None:
    # the same kernel under another executable's and export's name: one module, one compile
    renamed = SOURCE.replace("test_loader", "other_program")
    first = load_executable(_binary())
    second = load_executable(_binary(source="# other header line\n" + renamed))
    assert second.module_name == first.module_name
    assert second.functions[0] is first.functions[0]
    assert second.source.startswith("# other header line\n")  # the binary's own text is kept
    changed = load_executable(_binary(source=SOURCE.replace("2.0", "3.0")))
    assert changed.module_name != first.module_name


def test_unknown_export_name_is_a_key_error(cache_dir: Path) -> None:
    with pytest.raises(KeyError, match="no export named 'other'"):
        load_executable(_binary()).lookup("other")


@pytest.mark.parametrize(
    "binary, message",
    [
        (b"\xff\xfe", "not UTF-8 JSON"),
        (b"[1, 2]", "top level is not an object"),
        (_binary(format="embedded-elf"), "format is 'embedded-elf'"),
        (_binary(version=2), "version is 2"),
        (_binary(exports={}), "'exports' is not a list"),
        (_binary(source=""), "'source' is not a non-empty string"),
        (
            _binary(
                exports=[{"name": "", "ordinal": 0, "bindings": 1, "workgroup_size": [1, 1, 1]}]
            ),
            "name",
        ),
        (
            _binary(
                exports=[{"name": "a", "ordinal": 1, "bindings": 1, "workgroup_size": [1, 1, 1]}]
            ),
            "ordinals",
        ),
        (
            _binary(
                exports=[{"name": "a", "ordinal": 0, "bindings": -1, "workgroup_size": [1, 1, 1]}]
            ),
            "bindings",
        ),
        (
            _binary(exports=[{"name": "a", "ordinal": 0, "bindings": 1, "workgroup_size": [1, 1]}]),
            "workgroup_size",
        ),
        (_binary(source="x = (\n"), "kernel source refused: not valid Python"),
        (_binary(source="import numpy as np\n"), "no dispatch_0"),
    ],
)
def test_malformed_binaries_are_rejected_clearly(
    cache_dir: Path, binary: bytes, message: str
) -> None:
    with pytest.raises(ExecutableLoadError, match=message):
        load_executable(binary)


def test_second_process_loads_the_compiled_kernel_from_cache(cache_dir: Path) -> None:
    """numba's on-disk cache only works for importable modules: check it is hit."""
    script = (
        "import json, sys, numpy as np\n"
        "from ireelab.runtime.hal.executable_loader import load_executable\n"
        "e = load_executable(sys.stdin.buffer.read())\n"
        "a = np.ones(2, np.float32); o = np.zeros(2, np.float32)\n"
        "e.functions[0](0, 2, 2, 1, 1, a.view(np.uint8), o.view(np.uint8))\n"
        "print(len(e.functions[0].stats.cache_hits))\n"
    )
    environment = {**os.environ, "IREELAB_CACHE_DIR": str(cache_dir)}
    runs = [
        subprocess.run(
            [sys.executable, "-c", script],
            input=_binary(),
            capture_output=True,
            env=environment,
            check=True,
        ).stdout.strip()
        for _ in range(2)
    ]
    assert runs == [b"0", b"1"]
