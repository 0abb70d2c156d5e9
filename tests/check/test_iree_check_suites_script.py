"""`benchmarks/iree_check_suites.py` on a stand-in IREE checkout: it finds the llvm-cpu check
suites' files in the CMake lists, compiles and runs each, and ranks the first errors."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent

CMAKE = """
iree_check_single_backend_test_suite(
  NAME
    check_llvm-cpu_local-task
  SRCS
    "passes.mlir"
    "fails.mlir"
    "unparsable.mlir"
  TARGET_BACKEND
    "llvm-cpu"
  DRIVER
    "local-task"
)

iree_check_single_backend_test_suite(
  NAME
    check_vulkan
  SRCS
    "gpu_only.mlir"
  TARGET_BACKEND
    "vulkan-spirv"
  DRIVER
    "vulkan"
)
"""


def _script():
    spec = importlib.util.spec_from_file_location(
        "iree_check_suites", ROOT / "benchmarks" / "iree_check_suites.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fake_checkout(tmp_path: Path) -> Path:
    suite = tmp_path / "tests" / "e2e" / "tensor_ops"
    suite.mkdir(parents=True)
    for name in ("linalg", "linalg_ext_ops", "math", "regression"):
        (tmp_path / "tests" / "e2e" / name).mkdir()
        (tmp_path / "tests" / "e2e" / name / "CMakeLists.txt").write_text("")
    (suite / "CMakeLists.txt").write_text(CMAKE)
    shutil.copy(HERE / "tensor_casts.mlir", suite / "passes.mlir")
    shutil.copy(HERE / "failing" / "changed_expectations.mlir", suite / "fails.mlir")
    (suite / "unparsable.mlir").write_text("func.func @f() {\n  %x = foo.bar : i32\n}\n")
    return tmp_path


def test_runs_the_llvm_cpu_files_and_ranks_first_errors(tmp_path, capsys):
    script = _script()
    root = _fake_checkout(tmp_path)
    assert script.llvm_cpu_check_files(root) == [
        "tensor_ops/fails.mlir",
        "tensor_ops/passes.mlir",
        "tensor_ops/unparsable.mlir",
    ]
    assert script.main([str(root)]) == 0
    out = capsys.readouterr().out
    assert "tensor_ops/passes.mlir" in out and "PASS" in out
    assert "run: Expected 0 to be nonzero." in out
    assert "compile: unknown operation 'foo.bar': dialect 'foo' is not supported" in out
    assert "1 of 3 files pass" in out


FLAGGED_CMAKE = """
iree_check_single_backend_test_suite(
  NAME
    plain
  SRCS
    "a.mlir"
  TARGET_BACKEND
    "llvm-cpu"
  COMPILER_FLAGS
    "--iree-llvmcpu-target-cpu=generic"
)

iree_check_single_backend_test_suite(
  NAME
    reassoc
  SRCS
    "a.mlir"
    "b.mlir"
  TARGET_BACKEND
    "llvm-cpu"
  COMPILER_FLAGS
    "--iree-llvmcpu-reassociate-fp-reductions=false"
    "--iree-dispatch-creation-fuse-multi-use"
)
"""


def test_each_suites_flags_ireelab_has_are_passed_and_the_others_named(tmp_path):
    script = _script()
    for name in ("linalg", "tensor_ops", "linalg_ext_ops", "math"):
        (tmp_path / "tests" / "e2e" / name).mkdir(parents=True)
        (tmp_path / "tests" / "e2e" / name / "CMakeLists.txt").write_text("")
    (tmp_path / "tests" / "e2e" / "regression").mkdir()
    (tmp_path / "tests" / "e2e" / "regression" / "CMakeLists.txt").write_text(FLAGGED_CMAKE)
    suites = script.llvm_cpu_suites(tmp_path)
    assert suites == {
        "regression/a.mlir": [
            ("--iree-llvmcpu-target-cpu=generic",),
            (
                "--iree-llvmcpu-reassociate-fp-reductions=false",
                "--iree-dispatch-creation-fuse-multi-use",
            ),
        ],
        "regression/b.mlir": [
            (
                "--iree-llvmcpu-reassociate-fp-reductions=false",
                "--iree-dispatch-creation-fuse-multi-use",
            )
        ],
    }
    runs, left_out = script.accepted_flags(suites["regression/a.mlir"])
    assert runs == [
        ("--iree-llvmcpu-target-cpu=generic",),
        ("--iree-llvmcpu-reassociate-fp-reductions=false",),
    ]
    assert left_out == ("--iree-dispatch-creation-fuse-multi-use",)
