"""The code base is ruff-clean (lint, including ruff's C901 complexity limit of 15 set in
pyproject.toml, and format) and has no module over 600 lines, as the project's standards
require; mypy passes and the import layers of pyproject.toml hold."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

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


def _tool(name: str) -> list[str]:
    """The venv's console script ``name`` (tests run with the venv's python)."""
    exe = shutil.which(name, path=str(Path(sys.executable).parent))
    assert exe, f"{name} is not installed: pip install -e '.[dev]'"
    return [exe]


@pytest.mark.slow
def test_type_check() -> None:
    """mypy, configured in pyproject.toml ([tool.mypy]), passes on the package."""
    done = subprocess.run(
        [*_tool("mypy"), "--no-error-summary"], cwd=REPO, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_import_layers() -> None:
    """The layer contracts of pyproject.toml ([tool.importlinter]) hold."""
    done = subprocess.run(
        [*_tool("lint-imports"), "--no-cache"], cwd=REPO, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout, done.stdout
