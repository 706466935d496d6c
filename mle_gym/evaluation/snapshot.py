"""Copy what an agent left in its workspace (code, submission) out of the sandbox.

:func:`snapshot_workspace` copies the regular files under the episode's host
workspace into ``dest`` before the env releases the workspace:

* the top-level ``data/`` folder (the read-only task data mount) is skipped;
* symbolic links are never followed (a link made inside the sandbox could point
  at any host path) and files are opened with ``O_NOFOLLOW``; links, FIFOs,
  sockets and devices are listed as skipped, not copied;
* a file larger than ``max_file_bytes`` is skipped, and copying stops adding
  files once ``max_total_bytes`` would be exceeded; the submission file (given
  in ``first``) is copied first, then the rest by size (small first) and path;
* at most ``max_files`` entries are considered.

Everything skipped is listed with the reason, so the record says what is missing.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MAX_FILE_BYTES = 20 * 2**20
MAX_TOTAL_BYTES = 100 * 2**20
MAX_FILES = 5000
_CHUNK = 2**20


@dataclass
class Snapshot:
    """What was copied (relative paths and sizes) and what was skipped (and why)."""

    copied: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[dict[str, Any]] = field(default_factory=list)
    total_bytes: int = 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (stored in episode.json as ``final_files``)."""
        return {
            "copied": self.copied,
            "skipped": self.skipped,
            "total_bytes": self.total_bytes,
        }


def _walk(root: Path, exclude_top: set[str], limit: int, snap: Snapshot) -> list[tuple[str, int]]:
    """Regular files under ``root`` as (relative posix path, size), links never followed."""
    found: list[tuple[str, int]] = []
    stack: list[tuple[Path, str]] = [(root, "")]
    seen = 0
    while stack:
        folder, rel = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            snap.skipped.append({"path": rel or ".", "reason": f"unreadable folder: {exc}"})
            continue
        for entry in entries:
            path = f"{rel}/{entry.name}" if rel else entry.name
            if not rel and entry.name in exclude_top:
                continue
            seen += 1
            if seen > limit:
                snap.skipped.append({"path": path, "reason": f"more than {limit} entries"})
                return found
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError as exc:
                snap.skipped.append({"path": path, "reason": f"cannot stat: {exc}"})
                continue
            if stat.S_ISDIR(st.st_mode):
                stack.append((Path(entry.path), path))
            elif stat.S_ISREG(st.st_mode):
                found.append((path, st.st_size))
            elif stat.S_ISLNK(st.st_mode):
                snap.skipped.append({"path": path, "reason": "symbolic link (not followed)"})
            else:
                snap.skipped.append({"path": path, "reason": "not a regular file"})
    return found


def _copy_one(src: Path, dst: Path, limit: int) -> int:
    """Copy at most ``limit`` bytes of a regular file without following links; return
    the size, or raise ValueError if the file is not regular or grew past ``limit``."""
    fd = os.open(src, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ValueError("not a regular file")
        dst.parent.mkdir(parents=True, exist_ok=True)
        size = 0
        with open(dst, "wb") as out:
            while True:
                chunk = os.read(fd, _CHUNK)
                if not chunk:
                    break
                size += len(chunk)
                if size > limit:
                    raise ValueError(f"larger than {limit} bytes")
                out.write(chunk)
        return size
    except BaseException:
        dst.unlink(missing_ok=True)
        raise
    finally:
        os.close(fd)


def snapshot_workspace(
    workspace: Path,
    dest: Path,
    *,
    first: tuple[str, ...] = (),
    exclude_top: tuple[str, ...] = ("data",),
    max_file_bytes: int = MAX_FILE_BYTES,
    max_total_bytes: int = MAX_TOTAL_BYTES,
    max_files: int = MAX_FILES,
) -> Snapshot:
    """Copy the workspace's regular files into ``dest`` (see the module docstring)."""
    snap = Snapshot()
    dest.mkdir(parents=True, exist_ok=True)
    files = _walk(Path(workspace), set(exclude_top), max_files, snap)
    priority = {p: i for i, p in enumerate(first)}
    files.sort(key=lambda f: (priority.get(f[0], len(priority)), f[1], f[0]))
    for rel, size in files:
        if size > max_file_bytes:
            snap.skipped.append(
                {"path": rel, "reason": f"{size} bytes is over the {max_file_bytes}-byte cap"}
            )
            continue
        room = max_total_bytes - snap.total_bytes
        if size > room:
            snap.skipped.append(
                {"path": rel, "reason": f"the {max_total_bytes}-byte total cap is reached"}
            )
            continue
        try:
            copied = _copy_one(Path(workspace) / rel, dest / rel, min(max_file_bytes, room))
        except (OSError, ValueError) as exc:
            snap.skipped.append({"path": rel, "reason": f"not copied: {exc}"})
            continue
        snap.copied.append({"path": rel, "bytes": copied})
        snap.total_bytes += copied
    snap.copied.sort(key=lambda f: f["path"])
    return snap
