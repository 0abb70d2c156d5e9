"""Progress lines: one display, updated in place, cleared at the end."""

from __future__ import annotations

from IPython.utils.capture import capture_output

from ireelab.notebook import progress
from ireelab.notebook.progress import PassProgress, status


def test_pass_progress_updates_one_line(shell, monkeypatch):
    monkeypatch.setattr(progress, "_QUIET_FOR", 0.0)
    monkeypatch.setattr(progress, "_EVERY", 0.0)
    with capture_output() as captured:
        p = PassProgress("compiling mm", enabled=True)
        p(0, 3, "CanonicalizerPass")
        p(1, 3, "WrapEntryPointsPass")
        p.close()
    first, second, cleared = captured._outputs
    assert first["data"]["text/plain"] == "compiling mm: pass 1/3 CanonicalizerPass"
    assert "<progress" in first["data"]["text/html"]
    assert not first["update"] and second["update"] and cleared["update"]
    assert first["transient"]["display_id"] == second["transient"]["display_id"]
    assert cleared["data"] == {"text/plain": ""}


def test_fast_work_shows_nothing(shell):
    with capture_output() as captured:
        p = PassProgress("compiling mm", enabled=True)
        p(0, 3, "CanonicalizerPass")  # within the quiet period
        p.close()
    assert captured.outputs == []


def test_no_frontend_no_output(shell, monkeypatch):
    monkeypatch.setattr(progress, "_QUIET_FOR", 0.0)
    with capture_output() as captured:
        p = PassProgress("compiling mm")  # a plain InteractiveShell has no kernel
        p(0, 1, "CSEPass")
        with status("first call"):
            pass
    assert captured.outputs == []


def test_status_is_shown_then_cleared(shell):
    with capture_output() as captured, status("numba compiles", enabled=True):
        pass
    shown, cleared = captured._outputs
    assert shown["data"]["text/plain"] == "numba compiles"
    assert cleared["update"] and cleared["data"] == {"text/plain": ""}


def test_status_counts_kernels_compiled_meanwhile(shell):
    from ireelab.runtime.hal import kernel_pool

    with capture_output() as captured, status("first call", enabled=True):
        report = kernel_pool._REPORTERS[-1]  # what a kernel compile waited for here reports to
        report(3, 4)
    shown, counted, cleared = captured._outputs
    assert (
        counted["update"] and counted["data"]["text/plain"] == "first call: compiling kernels 3/4"
    )
    assert "<progress value='0.750'" in counted["data"]["text/html"]
    assert not kernel_pool._REPORTERS
