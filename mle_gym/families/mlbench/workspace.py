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

The agent's workspace (and the grading tree after its run) is read and written only
through :mod:`mle_gym.sandbox.hostfs`: every component opened relative to its folder's
fd with no-follow, so a link planted or swapped in by a process the agent left running
is copied as a link (it only ever resolves inside the grading sandbox) and never
followed on the host. The caller stops the agent's processes while this runs
(``Sandbox.frozen``); the fd-relative access holds even if it did not.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import stat
from pathlib import Path

from mle_gym.sandbox import hostfs

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


#: Bounds of the grading tree taken from the agent's workspace (beyond them the rest is
#: left out and logged; the grading run then sees what fits).
MAX_ADDED_ENTRIES = 100_000
MAX_ADDED_BYTES = 4 * 2**30


def build_grading_tree(repo: Path, workspace: Path, dest: Path) -> list[str]:
    """Fill ``dest`` with a fresh copy of ``repo`` plus the agent's added files.

    Returns the relative paths copied from the workspace (added files and links). Files
    and links the repository has are never taken from the workspace; a link the agent
    made is copied as a link, and nothing below it is created (its folder is not a
    real folder of the tree). FIFOs, sockets and devices are left out, permission bits
    are ``& 0o777``.
    """
    copy_repository(repo, dest)

    def accept(entry: hostfs.Entry) -> bool:
        if entry.is_dir:
            return True  # folders of the repository too: the agent may add files in them
        return not entry.rel.endswith(".pyc") and not os.path.lexists(repo / entry.rel)

    report = hostfs.copy_tree(
        workspace,
        dest,
        links="copy",
        skip_dirs=SKIP_DIRS,
        accept=accept,
        merge=True,
        max_entries=MAX_ADDED_ENTRIES,
        max_bytes=MAX_ADDED_BYTES,
        on_limit="skip",
    )
    for rel, reason in report.skipped:
        log.info("not copied to the grading tree: %s (%s)", rel, reason)
    return sorted(report.files + report.links)


def remove_path(root: Path, rel: str) -> None:
    """Delete ``root/rel`` without following links: if a folder on the way is a link, the
    link is removed (what it points to is never touched); a folder is removed whole."""
    hostfs.remove_tree(root, rel)


def write_new_file(root: Path, rel: str, text: str) -> None:
    """Write ``root/rel`` as a new regular file, replacing whatever is there (a link is
    removed, not followed; a folder removed whole). The parent folders must be real
    folders under ``root`` (HostFSError, an OSError, otherwise)."""
    hostfs.remove_tree(root, rel)
    hostfs.write_file(root, rel, text.encode("utf-8"))


def code_fingerprint(root: Path) -> dict[str, str]:
    """``{relative path: sha256}`` of the code files (``.py``, ``.sh``) under ``root``
    (regular files only, opened no-follow; links and unreadable files are absent)."""
    out: dict[str, str] = {}
    for entry in hostfs.walk(root, max_entries=None):
        if entry.is_dir and entry.name in SKIP_DIRS:
            entry.descend = False
            continue
        if not (entry.is_file and entry.rel.endswith(CODE_SUFFIXES)):
            continue
        try:
            fd = hostfs.open_file_at(entry.dir_fd, entry.name, entry.rel)
        except OSError:
            continue
        h = hashlib.sha256()
        try:
            while chunk := os.read(fd, 1 << 20):
                h.update(chunk)
        finally:
            os.close(fd)
        out[entry.rel] = h.hexdigest()
    return out


def changed_code(before: dict[str, str], root: Path) -> list[str]:
    """Code files of ``before`` that are now different or gone under ``root``."""
    after = code_fingerprint(root)
    return sorted(rel for rel, digest in before.items() if after.get(rel) != digest)
