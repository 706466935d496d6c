"""The code base is ruff-clean (lint, including ruff's C901 complexity limit of 15 set in
pyproject.toml, and format) and has no module over 600 lines, as the project's standards
require."""

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


MAX_MODULE_LINES = 600
#: modules allowed over MAX_MODULE_LINES (path relative to the repository: reason); keep empty
LONG_MODULES: dict[str, str] = {}


def test_no_module_over_600_lines() -> None:
    too_long = {}
    for path in sorted((REPO / "mle_gym").rglob("*.py")):
        rel = str(path.relative_to(REPO))
        count = len(path.read_text(encoding="utf-8").splitlines())
        if count > MAX_MODULE_LINES and rel not in LONG_MODULES:
            too_long[rel] = count
    assert not too_long, f"split these modules (over {MAX_MODULE_LINES} lines): {too_long}"
    stale = [rel for rel in LONG_MODULES if not (REPO / rel).is_file()]
    assert not stale, f"LONG_MODULES names modules that no longer exist: {stale}"
