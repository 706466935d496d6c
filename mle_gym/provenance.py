"""Where a result came from: the software that produced it.

:func:`software` is the block every result file carries (``episode.json``,
``grade.json``, ``report.json``): mle_gym's version and, when it runs from a git
checkout, the commit; the Python version; and the versions of the libraries whose
behaviour a grade depends on (pandas, numpy, scikit-learn, scipy). The commit is read
from ``.git`` files; whether the checkout has uncommitted changes to tracked files
(``dirty``) asks ``git status`` once, when git is installed. Cached per process.
"""

from __future__ import annotations

import functools
import importlib.metadata as md
import platform
from pathlib import Path
from typing import Any

__all__ = [
    "GRADING_LIBRARIES",
    "package_version",
    "software",
    "source_commit",
    "source_dirty",
]

#: libraries whose versions can change a grade (CSV parsing, metrics)
GRADING_LIBRARIES = ("pandas", "numpy", "scikit-learn", "scipy")


def package_version() -> str:
    """mle_gym's installed version (``importlib.metadata``)."""
    try:
        return md.version("mle-gym")
    except md.PackageNotFoundError:  # imported from a source tree that was never installed
        return "unknown (not installed)"


def _git_dir(start: Path) -> Path | None:
    for folder in (start, *start.parents):
        candidate = folder / ".git"
        if candidate.is_dir():
            return candidate
        if candidate.is_file():  # a worktree: "gitdir: PATH"
            text = candidate.read_text(errors="replace").strip()
            if text.startswith("gitdir:"):
                return (folder / text.removeprefix("gitdir:").strip()).resolve()
    return None


def _resolve_ref(git_dir: Path, ref: str) -> str | None:
    common = git_dir
    commondir = git_dir / "commondir"
    if commondir.is_file():
        common = (git_dir / commondir.read_text().strip()).resolve()
    for base in (git_dir, common):
        loose = base / ref
        if loose.is_file():
            return loose.read_text().strip() or None
    packed = common / "packed-refs"
    if packed.is_file():
        for line in packed.read_text(errors="replace").splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[1] == ref:
                return parts[0]
    return None


@functools.cache
def source_commit() -> str | None:
    """The commit (40 hex digits) of the git checkout mle_gym is imported from, or None
    (an installed wheel, or no readable ``.git``). Read from ``.git`` files directly."""
    git_dir = _git_dir(Path(__file__).resolve().parent.parent)
    if git_dir is None:
        return None
    try:
        head = (git_dir / "HEAD").read_text().strip()
        commit = (
            _resolve_ref(git_dir, head.removeprefix("ref:").strip())
            if head.startswith("ref:")
            else head
        )
    except OSError:
        return None
    if commit and len(commit) == 40 and all(c in "0123456789abcdef" for c in commit):
        return commit
    return None


def _version(dist: str) -> str | None:
    try:
        return md.version(dist)
    except md.PackageNotFoundError:
        return None


@functools.cache
def source_dirty() -> bool | None:
    """Whether tracked files of the checkout differ from :func:`source_commit` (None when
    there is no checkout or git cannot tell)."""
    import shutil
    import subprocess

    root = Path(__file__).resolve().parent.parent
    if source_commit() is None or shutil.which("git") is None:
        return None
    try:
        done = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return bool(done.stdout.strip()) if done.returncode == 0 else None


@functools.cache
def _software() -> tuple[tuple[str, Any], ...]:
    libraries = {name: _version(name) for name in GRADING_LIBRARIES}
    return (
        ("mle_gym", package_version()),
        ("commit", source_commit()),
        ("dirty", source_dirty()),
        ("python", platform.python_version()),
        ("libraries", tuple(sorted(libraries.items()))),
    )


def software() -> dict[str, Any]:
    """``{"mle_gym", "commit", "dirty", "python", "libraries": {name: version}}`` (a fresh
    dict)."""
    out = dict(_software())
    out["libraries"] = dict(out["libraries"])
    return out
