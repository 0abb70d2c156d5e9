"""ireelab-run-module / -dump-module / -benchmark-module: IREE's formats, one-line errors."""

from __future__ import annotations

import numpy as np
import pytest

from ireelab.runtime.hal.string_util import format_array, parse_input
from ireelab.tools import benchmark_module, dump_module, run_module


@pytest.fixture
def module_path(matmul_bytes, tmp_path):
    path = tmp_path / "m.ilvm"
    path.write_bytes(matmul_bytes)
    return path


def test_run_module_prints_like_iree(module_path, capsys):
    # Same text as `iree-run-module` prints for this call (checked against IREE 3.13).
    code = run_module.main(
        [f"--module={module_path}", "--function=matmul", "--input=2x4xf32=1.5",
         "--input=4x2xf32=[1 2][3 4][5 6][7 8]"]
    )  # fmt: skip
    assert code == 0
    assert capsys.readouterr().out == (
        "EXEC @matmul\nresult[0]: hal.buffer_view\n2x2xf32=[24 30][24 30]\n"
    )


def test_run_module_npy_in_and_out(module_path, tmp_path, capsys):
    a = np.arange(8, dtype=np.float32).reshape(2, 4)
    np.save(tmp_path / "a.npy", a)
    (tmp_path / "b.bin").write_bytes(np.ones((4, 2), np.float32).tobytes())
    out = tmp_path / "out.npy"
    code = run_module.main(
        [f"--module={module_path}", "--function=matmul", f"--input=@{tmp_path / 'a.npy'}",
         f"--input=4x2xf32=@{tmp_path / 'b.bin'}", f"--output=@{out}", "--device=local-task"]
    )  # fmt: skip
    assert code == 0
    assert capsys.readouterr().out == "EXEC @matmul\nresult[0]: hal.buffer_view\n"
    np.testing.assert_array_equal(np.load(out), a @ np.ones((4, 2), np.float32))


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (
            ["--function=matmul", "--input=2x3xf32=1", "--input=4x2xf32=1"],
            "expected tensor<2x4xf32>",
        ),
        (["--function=matmul", "--input=2x4xq9=1"], "unsupported element type `q9`"),
        (["--function=matmul", "--input=2x4=1"], "invalid buffer view type"),
        (["--function=matmul", "--input=8xf32=1 2"], "2 values given for 8 elements"),
        (["--function=nope"], "no function 'nope'"),
    ],
)
def test_run_module_errors_are_one_line(module_path, capsys, args, needle):
    assert run_module.main([f"--module={module_path}", *args]) == 1
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1 and "Traceback" not in err


def test_run_module_rejects_missing_and_foreign_files(tmp_path, capsys):
    assert run_module.main([f"--module={tmp_path / 'x.ilvm'}", "--function=f"]) == 1
    assert "module file not found" in capsys.readouterr().err
    (tmp_path / "junk").write_bytes(b"hello")
    assert run_module.main([f"--module={tmp_path / 'junk'}", "--function=f"]) == 1
    assert "not an ireelab module file" in capsys.readouterr().err


def test_dump_module_sections(module_path, capsys):
    assert dump_module.main([str(module_path)]) == 0
    out = capsys.readouterr().out
    for text in (
        "Required Types:\n  [  0] i32\n  [  1] i64\n",
        "Module Dependencies:\n  hal, version >= 7, required",
        "hal.command_buffer.dispatch(!vm.ref<?>, !vm.ref<?>, i64, i32, i32, i32, i64, "
        "tuple<i32>..., tuple<i32, i32, !vm.ref<?>, i64, i64>...) -> ()",
        "[  0] matmul(!vm.ref<?>, !vm.ref<?>) -> (!vm.ref<?>)",
        "        iree.abi.declaration: sync func @matmul(",
        "Executables:",
        "      [0] matmul_dispatch_0_matmul_2x2x4_f32",
        "vm.func @matmul(%r0: !vm.ref<?>, %r1: !vm.ref<?>) -> (!vm.ref<?>) {",
    ):
        assert text in out


def test_dump_module_bad_file(tmp_path, capsys):
    (tmp_path / "empty").write_bytes(b"")
    assert dump_module.main([str(tmp_path / "empty")]) == 1
    assert capsys.readouterr().err.strip() == "ireelab-dump-module: error: module file is empty"


def test_benchmark_module_reports_median(module_path, capsys):
    code = benchmark_module.main(
        [f"--module={module_path}", "--function=matmul", "--input=2x4xf32=1",
         "--input=4x2xf32=1", "--benchmark_repetitions=2", "--benchmark_min_time=0.01"]
    )  # fmt: skip
    assert code == 0
    assert "BM_matmul/process_time/real_time_median" in capsys.readouterr().out


def test_output_formatting_matches_iree():
    # Each expected string was printed by iree-run-module 3.13 for the same data.
    full = np.full((2, 3, 4), 7, np.float32)
    assert format_array(full, 5) == "2x3x4xf32=[[7 7 7 7][7...][...]][[...][...][...]]"
    assert format_array(full, 4) == "2x3x4xf32=[[7 7 7 7][...][...]][[...][...][...]]"
    assert format_array(np.full(8, 7, np.float32), 3) == "8xf32=7 7 7..."
    thirds = np.arange(6, dtype=np.float32).reshape(2, 3) / 3
    assert format_array(thirds) == "2x3xf32=[0 0.333333 0.666667][1 1.33333 1.66667]"
    assert format_array(np.array([1e10, 1e-5, 3], np.float32)) == "3xf32=1E+10 1E-05 3"
    assert format_array(np.array(3.5, np.float32)) == "f32=3.5"
    assert format_array(np.full(4, -7, np.int32)) == "4xi32=-7 -7 -7 -7"


def test_input_parsing():
    np.testing.assert_array_equal(parse_input("2x2xf32=1.5"), np.full((2, 2), 1.5, np.float32))
    np.testing.assert_array_equal(parse_input("4xi32=[1 2][3 4]"), np.arange(1, 5, dtype=np.int32))
    assert parse_input("f32=2").shape == ()
