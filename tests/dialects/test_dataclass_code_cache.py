"""`@dataclass`'s generated functions from a code cache (`ireelab.dialects.dataclass_code_cache`):
a second process compiles none of the functions the first one compiled, the classes behave as
the builtin `exec` would make them, and a damaged cache file is only an empty cache."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys

import pytest

from ireelab.dialects import dataclass_code_cache

PROBE = (
    "import ireelab.compiler.driver, xdsl.dialects.builtin\n"
    "from ireelab.dialects import dataclass_code_cache as c\n"
    "print(len(c._new), len(c._codes), c.cache_path())\n"
)


def _probe(cache: str) -> tuple[int, int, str]:
    env = dict(os.environ, IREELAB_CACHE_DIR=cache)
    env.pop("PYTHONPYCACHEPREFIX", None)
    env.pop("IREELAB_DATACLASS_CACHE", None)
    done = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True
    )
    new, known, path = done.stdout.split()
    return int(new), int(known), path


def test_a_second_process_compiles_nothing_again(tmp_path):
    cache = str(tmp_path / "kernels")
    new, known, path = _probe(cache)
    assert new > 300 and known == new  # xDSL's and ireelab's dataclasses, compiled once
    assert os.path.isfile(path) and path.startswith(str(tmp_path))
    new, known, _ = _probe(cache)
    assert new == 0 and known > 300


def test_a_damaged_file_is_an_empty_cache(tmp_path):
    cache = str(tmp_path / "kernels")
    _, _, path = _probe(cache)
    with open(path, "wb") as f:
        f.write(b"not marshal data")
    new, known, _ = _probe(cache)
    assert new > 300 and known == new


def test_classes_are_made_as_exec_makes_them():
    assert dataclasses.exec is dataclass_code_cache._cached_exec  # installed by the import

    @dataclasses.dataclass(frozen=True)
    class Point:
        x: int
        y: int = 2

    p = Point(1)
    assert p == Point(1, 2) and hash(p) == hash(Point(1, 2)) and p != Point(2)
    assert repr(p).endswith("Point(x=1, y=2)")
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 3
    assert Point.__init__.__qualname__.endswith("Point.__init__")
    # compiled without this module's `from __future__ import annotations`, as `exec` does
    assert Point.__init__.__annotations__["return"] is None


def test_a_full_file_keeps_what_the_process_used(tmp_path, monkeypatch):
    path = tmp_path / "codes.marshal"
    code = compile("x = 1", "<string>", "exec")
    monkeypatch.setattr(dataclass_code_cache, "_path", path)
    monkeypatch.setattr(dataclass_code_cache, "_codes", {"a": code, "b": code, "c": code})
    monkeypatch.setattr(dataclass_code_cache, "_new", {"a": code, "b": code, "c": code})
    monkeypatch.setattr(dataclass_code_cache, "_used", {"b"})
    dataclass_code_cache._save()
    assert set(dataclass_code_cache._load(path)) == {"a", "b", "c"}  # under the limit
    monkeypatch.setattr(dataclass_code_cache, "LIMIT", 2)
    monkeypatch.setattr(dataclass_code_cache, "_new", {"c": code})
    dataclass_code_cache._save()
    assert set(dataclass_code_cache._load(path)) == {"b"}
