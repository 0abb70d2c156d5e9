"""Binder and conda: the configuration mybinder.org builds, checked offline."""

from __future__ import annotations

import os
import shutil
import subprocess
import tomllib

import pytest
import yaml
from nb_helpers import REPO


def _env(path):
    return yaml.safe_load((REPO / path).read_text())


def test_binder_and_conda_environments_agree():
    binder, conda = _env("binder/environment.yml"), _env("environment.yml")
    assert binder["channels"] == conda["channels"] == ["conda-forge"]
    conda_packages = [d for d in conda["dependencies"] if isinstance(d, str)]
    assert binder["dependencies"] == conda_packages
    assert "graphviz" in conda_packages  # conda-forge's graphviz brings `dot`
    (pip,) = [d["pip"] for d in conda["dependencies"] if isinstance(d, dict)]
    assert pip == ["-e .[notebook]"]


def test_python_matches_the_project():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    required = project["requires-python"].removeprefix(">=")
    (python,) = [d for d in _env("environment.yml")["dependencies"] if str(d).startswith("python=")]
    assert tuple(map(int, python.split("=")[1].split("."))) >= tuple(map(int, required.split(".")))


def test_post_build_installs_the_package_with_the_notebook_extra():
    post_build = REPO / "binder" / "postBuild"
    assert os.access(post_build, os.X_OK)
    text = post_build.read_text()
    assert text.startswith("#!/bin/bash\n") and "set -euo pipefail" in text
    assert 'pip install --no-cache-dir -e ".[notebook]"' in text
    extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    assert "ipywidgets" in " ".join(extras["notebook"])


@pytest.mark.skipif(shutil.which("repo2docker") is None, reason="jupyter-repo2docker not installed")
def test_repo2docker_dockerfile_uses_binder_folder():
    # `--no-build` prints the Dockerfile mybinder.org would build, without docker or network.
    done = subprocess.run(
        ["repo2docker", "--no-build", "--no-run", "--debug", str(REPO)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    dockerfile = done.stdout
    assert "binder/environment.yml" in dockerfile
    assert "./binder/postBuild" in dockerfile
    assert "python=3.11" in done.stderr
