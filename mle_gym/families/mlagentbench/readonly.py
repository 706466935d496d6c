"""Read-only workspace files: refused by every file tool, and verified at grading.

The file tools go through :class:`ReadOnlyGuard`, which refuses to write any
path matching the task's ``read_only`` globs (relative to /workspace). Commands
run by the agent could still change such a file, so :func:`fingerprint` records
their sha256 at reset and :func:`changed` names any that differ at the end; the
family then grades the episode invalid. Files under /workspace/data are also
on a read-only mount.
"""

from __future__ import annotations

import fnmatch
import hashlib
import os
import posixpath
from pathlib import Path

from mle_gym.data.store import sha256_file
from mle_gym.sandbox.base import WORKSPACE
from mle_gym.tools.fs import FsError, Resolved, SandboxFS


def _matches(rel: str, globs: tuple[str, ...]) -> bool:
    return any(fnmatch.fnmatchcase(rel, g) for g in globs)


class ReadOnlyGuard(SandboxFS):
    """Wraps a :class:`SandboxFS`; writes to paths matching ``globs`` raise FsError."""

    def __init__(self, inner: SandboxFS, globs: tuple[str, ...]) -> None:
        super().__init__(inner.mounts, inner.owner)
        self.inner = inner
        self.globs = globs

    def resolve(self, path: str, *, follow_last: bool = True, must_exist: bool = True) -> Resolved:
        return self.inner.resolve(path, follow_last=follow_last, must_exist=must_exist)

    def read_bytes(self, path: str, max_bytes: int) -> tuple[bytes, int]:
        return self.inner.read_bytes(path, max_bytes)

    def list_dir(self, path: str, depth: int, max_entries: int) -> tuple[list[str], bool]:
        return self.inner.list_dir(path, depth, max_entries)

    def write_bytes(self, path: str, data: bytes) -> Resolved:
        res = self.inner.resolve(path, must_exist=False)
        rel = posixpath.relpath(res.virtual, WORKSPACE)
        if not rel.startswith("..") and _matches(rel, self.globs):
            raise FsError(f"cannot write file {path} because it is a read-only file")
        return self.inner.write_bytes(path, data)


def fingerprint(workspace: Path, globs: tuple[str, ...]) -> dict[str, str]:
    """sha256 of every regular file in ``workspace`` matching ``globs`` (the data mount
    point excluded: it is read-only anyway)."""
    out: dict[str, str] = {}
    if not globs:
        return out
    for dirpath, dirnames, filenames in os.walk(workspace):
        rel_dir = os.path.relpath(dirpath, workspace)
        if rel_dir == ".":
            dirnames[:] = [d for d in dirnames if d != "data"]
        for name in filenames:
            rel = name if rel_dir == "." else f"{rel_dir}/{name}"
            full = Path(dirpath) / name
            if _matches(rel, globs) and full.is_file() and not full.is_symlink():
                out[rel] = sha256_file(full)
    return out


def changed(fs: SandboxFS, recorded: dict[str, str], max_bytes: int = 2**31) -> list[str]:
    """Read-only files (recorded at reset) that are now missing or different, read
    through the sandbox's own view of paths (no host symlink is followed)."""
    bad = []
    for rel, digest in sorted(recorded.items()):
        try:
            data, size = fs.read_bytes(f"{WORKSPACE}/{rel}", max_bytes)
        except FsError:
            bad.append(rel)
            continue
        if size != len(data) or hashlib.sha256(data).hexdigest() != digest:
            bad.append(rel)
    return bad
