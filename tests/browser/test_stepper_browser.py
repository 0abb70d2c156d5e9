"""The pass stepper in a real browser: JupyterLab headless on localhost, Debian's Chromium
driven by Playwright, the slider moved, the view checked to change, a screenshot kept.

Needs `pip install playwright` (the Python package only; the browser is the system's) and
`apt-get install -y chromium`; skipped cleanly where either is missing. Deselect with
`-m "not browser"`.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
REPO = Path(__file__).resolve().parents[2]
REFERENCE = REPO.parent / "shared" / "reference" / "iree-3.13-ir"
if not REFERENCE.exists():
    REFERENCE = Path("/work/shared/reference/iree-3.13-ir")
ARTIFACTS = Path(os.environ.get("IREELAB_ARTIFACTS", REPO / "test-artifacts")) / "browser"

NOTEBOOK_CODE = """
import sys
sys.path.insert(0, {repo!r})
from pathlib import Path
from ireelab.compiler.trace import PassRecord, Trace
from ireelab.notebook.stepper import Stepper

ref = Path({reference!r})
ir = {{p: (ref / f"a0_matmul_tiny.{{p}}.mlir").read_text() for p in ("input", "abi", "flow", "stream")}}
rows = [("input", "WrapEntryPointsPass", "iree-abi-wrap-entry-points", ir["abi"]),
        ("flow", "OutlineDispatchRegionsPass", "iree-flow-outline-dispatch-regions", ir["flow"]),
        ("stream", "ConvertToStreamPass", "iree-stream-conversion", ir["stream"])]
records, before = [], ir["input"]
for i, (stage, name, flag, text) in enumerate(rows):
    records.append(PassRecord(i, stage, name, flag, text, text != before, 0.001))
    before = text
stepper = Stepper(Trace(input_ir=ir["input"], records=records))
stepper
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _notebook(path: Path) -> None:
    source = NOTEBOOK_CODE.format(repo=str(REPO), reference=str(REFERENCE)).strip()
    nb = {
        "cells": [
            {
                "cell_type": "code",
                "execution_count": None,
                "metadata": {},
                "outputs": [],
                "source": source,
            }
        ],
        "metadata": {
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path.write_text(json.dumps(nb))


@pytest.fixture
def jupyterlab(tmp_path):
    """A JupyterLab server on localhost serving tmp_path; yields its notebook URL."""
    pytest.importorskip("jupyterlab")
    pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (apt-get install -y chromium)")
    if not REFERENCE.exists():
        pytest.skip("reference IR not found")
    _notebook(tmp_path / "stepper.ipynb")
    port, token = _free_port(), secrets.token_hex(16)
    command = [
        sys.executable,
        "-m",
        "jupyter",
        "lab",
        "--no-browser",
        f"--port={port}",
        "--ip=127.0.0.1",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={tmp_path}",
        "--LabApp.expose_app_in_browser=True",
        "--LabApp.news_url=",
        "--ServerApp.open_browser=False",
        "--allow-root",  # CI runs as root
    ]
    log = open(tmp_path / "jupyterlab.log", "w")
    server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=tmp_path)
    try:
        _wait_http(f"http://127.0.0.1:{port}/api/status?token={token}", server, tmp_path)
        yield f"http://127.0.0.1:{port}/lab/tree/stepper.ipynb?token={token}"
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


def _wait_http(url: str, server: subprocess.Popen, logs: Path, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            tail = (logs / "jupyterlab.log").read_text()[-2000:]
            pytest.fail(f"jupyter lab exited with {server.returncode}:\n{tail}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.5)
    pytest.fail("jupyter lab did not start")


def test_stepper_slider_changes_the_view(jupyterlab):
    from playwright import sync_api

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(jupyterlab, wait_until="domcontentloaded", timeout=90_000)
            page.wait_for_function("window.jupyterapp !== undefined", timeout=90_000)
            page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=90_000)
            page.wait_for_function(
                "() => { const w = window.jupyterapp.shell.currentWidget;"
                " return w && w.sessionContext && w.sessionContext.session"
                " && w.sessionContext.session.kernel"
                " && w.sessionContext.session.kernel.connectionStatus === 'connected'; }",
                timeout=90_000,
            )
            page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
            page.wait_for_selector(".ireelab-stepper .ireelab-ir", timeout=120_000)
            ir = page.locator(".ireelab-stepper .ireelab-ir")
            before_ir = ir.inner_text()
            before_info = page.locator(".ireelab-stepper .widget-html").first.inner_text()
            assert "WrapEntryPointsPass" in before_info
            page.screenshot(path=str(ARTIFACTS / "stepper-before.png"), full_page=True)

            handle = page.locator(".ireelab-stepper .widget-slider .noUi-handle").first
            handle.focus()
            page.keyboard.press("ArrowRight")
            page.wait_for_function(
                "(old) => { const e = document.querySelector('.ireelab-stepper .ireelab-ir');"
                " return e && e.innerText !== old; }",
                arg=before_ir,
                timeout=60_000,
            )
            after_info = page.locator(".ireelab-stepper .widget-html").first.inner_text()
            assert "OutlineDispatchRegionsPass" in after_info
            assert "flow.dispatch" in ir.inner_text()
            # from Flow on the stepper draws the dispatch graph of the current IR
            page.wait_for_selector(".ireelab-stepper .ireelab-graph svg", timeout=60_000)
            page.screenshot(path=str(ARTIFACTS / "stepper-after.png"), full_page=True)
        finally:
            browser.close()
    assert (ARTIFACTS / "stepper-after.png").stat().st_size > 0
