"""The code base is ruff-clean (lint and format), as the project's standards require."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _ruff() -> list[str]:
    exe = shutil.which("ruff", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, "-m", "ruff"]


def test_ruff_check() -> None:
    done = subprocess.run([*_ruff(), "check", "."], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_format() -> None:
    done = subprocess.run(
        [*_ruff(), "format", "--check", "."], cwd=REPO, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
