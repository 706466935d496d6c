"""The runtime requirements are listed once; the registry-free image has what agents need."""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

import pytest

from mle_gym.sandbox.image import REQUIREMENTS_FILE, runtime_requirements

REPO = Path(__file__).resolve().parents[1]


def test_runtime_extra_mirrors_the_requirements_file() -> None:
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text())
    extra = pyproject["project"]["optional-dependencies"]["runtime"]
    names = sorted(re.split(r"[<>=!~ ;\[]", r, maxsplit=1)[0].lower() for r in extra)
    assert names == sorted(n.lower() for n in runtime_requirements())


def test_dockerfile_uses_the_same_requirements_file() -> None:
    dockerfile = (REPO / "envs" / "Dockerfile").read_text()
    rel = REQUIREMENTS_FILE.relative_to(REPO)
    assert f"COPY {rel} " in dockerfile
    assert "useradd --uid 1000" in dockerfile


@pytest.mark.only_backend("docker")
def test_built_image_runs_the_runtime_without_mle_gym(docker_image: str) -> None:
    code = (
        "import numpy, pandas, sklearn, scipy, sqlite3, ssl, lzma, ctypes;"
        "import importlib.util as u; print(u.find_spec('mle_gym') is None)"
    )
    done = subprocess.run(
        [
            "docker",
            "run",
            "--rm",
            "--network",
            "none",
            "-u",
            "1000:1000",
            docker_image,
            "sh",
            "-c",
            f"python -c \"{code}\" && id -un && ls / | tr '\\n' ' '",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "True" and lines[1] == "agent"
    assert "workspace" in lines[2] and "opt" in lines[2]
