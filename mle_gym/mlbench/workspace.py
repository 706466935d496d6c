"""Copies of a repository checkout: the agent's workspace and the grading run's.

* :func:`copy_repository` — the checkout without its ``.git`` folder, symlinks kept as
  links (never followed), special files skipped.
* :func:`build_grading_tree` — what the grading run sees: a fresh copy of the checkout,
  plus the files the agent *added* in its workspace (helper files, configs, its
  ``run.sh``). Files of the repository the agent modified or deleted are restored,
  so a solution cannot pass by editing the repository's own scripts during the
  episode.
* :func:`code_fingerprint` / :func:`changed_code` — hashes of the repository's code
  files (``.py``, ``.sh``) before and after the grading run, to catch a submission
  that rewrites them while it runs.

The agent's workspace is read from the host with ``os.walk`` (links not followed) and
``lstat``, so links planted by the agent are copied as links and only ever resolve
inside the grading sandbox.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import stat
from pathlib import Path

log = logging.getLogger(__name__)

SKIP_DIRS = frozenset({".git", "__pycache__"})
CODE_SUFFIXES = (".py", ".sh")


def copy_repository(src: Path, dest: Path) -> None:
    """Copy the checkout ``src`` to ``dest`` (created), without ``.git``/``__pycache__``."""

    def ignore(folder: str, names: list[str]) -> set[str]:
        out = set()
        for name in names:
            if name in SKIP_DIRS or name.endswith(".pyc"):
                out.add(name)
                continue
            mode = os.lstat(os.path.join(folder, name)).st_mode
            if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
                out.add(name)
        return out

    shutil.copytree(src, dest, symlinks=True, ignore=ignore, dirs_exist_ok=True)


def _walk(root: Path):
    """(relative path, lstat) of every entry under ``root``, links not followed."""
    for folder, dirs, files in os.walk(root, followlinks=False):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
        rel_folder = os.path.relpath(folder, root)
        for name in dirs + files:
            rel = name if rel_folder == "." else os.path.join(rel_folder, name)
            try:
                yield rel, os.lstat(os.path.join(folder, name))
            except FileNotFoundError:
                continue


def build_grading_tree(repo: Path, workspace: Path, dest: Path) -> list[str]:
    """Fill ``dest`` with a fresh copy of ``repo`` plus the agent's added files.

    Returns the relative paths copied from the workspace (added files and links).
    """
    copy_repository(repo, dest)
    added: list[str] = []
    for rel, st in _walk(workspace):
        if os.path.lexists(repo / rel) or rel.endswith(".pyc"):
            continue
        target = dest / rel
        try:
            if _link_on_the_way(dest, rel):
                continue  # under a link the agent made: the link itself is copied
            if stat.S_ISDIR(st.st_mode):
                target.mkdir(parents=True, exist_ok=True)
            elif stat.S_ISLNK(st.st_mode):
                target.parent.mkdir(parents=True, exist_ok=True)
                if not os.path.lexists(target):
                    os.symlink(os.readlink(workspace / rel), target)
                added.append(rel)
            elif stat.S_ISREG(st.st_mode):
                target.parent.mkdir(parents=True, exist_ok=True)
                _copy_regular(workspace / rel, target)
                added.append(rel)
        except OSError as exc:  # unreadable, or clashes with the repository's layout
            log.info("not copied to the grading tree: %s (%s)", rel, exc)
    return added


def _link_on_the_way(root: Path, rel: str) -> bool:
    """Whether a parent folder of ``root/rel`` (below ``root``) is a symbolic link."""
    cur = root
    for part in Path(rel).parts[:-1]:
        cur = cur / part
        if cur.is_symlink():
            return True
    return False


def remove_path(root: Path, rel: str) -> None:
    """Delete ``root/rel`` without following links: if a folder on the way is a link, the
    link is removed (what it points to is never touched); a folder is removed whole."""
    cur = root
    parts = Path(rel).parts
    for part in parts[:-1]:
        cur = cur / part
        if cur.is_symlink():
            cur.unlink()
            return
        if not cur.is_dir():
            return
    target = cur / parts[-1]
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        target.unlink()
    elif target.is_dir():
        shutil.rmtree(target)


def write_new_file(root: Path, rel: str, text: str) -> None:
    """Write ``root/rel`` as a new regular file, replacing whatever is there (a link is
    removed, not followed). The parent folders must be real folders under ``root``."""
    if _link_on_the_way(root, rel):
        raise OSError(f"a folder on the way to {rel} is a symbolic link")
    remove_path(root, rel)
    fd = os.open(root / rel, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)


def _copy_regular(src: Path, dest: Path) -> None:
    """Copy one regular file without following a link swapped in at the last moment."""
    fd = os.open(src, os.O_RDONLY | os.O_NOFOLLOW)
    try:
        with os.fdopen(fd, "rb") as fin, open(dest, "wb") as fout:
            fd = -1
            shutil.copyfileobj(fin, fout, 1 << 20)
    finally:
        if fd != -1:
            os.close(fd)


def code_fingerprint(root: Path) -> dict[str, str]:
    """``{relative path: sha256}`` of the code files (``.py``, ``.sh``) under ``root``."""
    out: dict[str, str] = {}
    for rel, st in _walk(root):
        if stat.S_ISREG(st.st_mode) and rel.endswith(CODE_SUFFIXES):
            h = hashlib.sha256()
            with open(root / rel, "rb") as f:
                for chunk in iter(lambda: f.read(1 << 20), b""):
                    h.update(chunk)
            out[rel] = h.hexdigest()
    return out


def changed_code(before: dict[str, str], root: Path) -> list[str]:
    """Code files of ``before`` that are now different or gone under ``root``."""
    after = code_fingerprint(root)
    return sorted(rel for rel, digest in before.items() if after.get(rel) != digest)
