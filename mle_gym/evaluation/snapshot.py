"""Copy what an agent left in its workspace (code, submission) out of the sandbox.

:func:`snapshot_workspace` copies the regular files under the episode's host
workspace into ``dest`` before the env releases the workspace:

* the top-level ``data/`` folder (the read-only task data mount) is skipped;
* the agent's processes are stopped meanwhile (:func:`snapshot_env`), and every
  path is opened component by component relative to its folder's fd with
  no-follow (:mod:`mle_gym.sandbox.hostfs`), so no link is followed even one
  swapped in while the copy runs (a link made inside the sandbox could point at
  any host path); links, FIFOs, sockets and devices are listed as skipped;
* copies are new files with permission bits ``& 0o777`` (no setuid/setgid);
* a file larger than ``max_file_bytes`` is skipped, and copying stops adding
  files once ``max_total_bytes`` would be exceeded; the submission file (given
  in ``first``) is copied first, then the rest by size (small first) and path;
* at most ``max_files`` entries are considered.

Everything skipped is listed with the reason, so the record says what is missing.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mle_gym.sandbox import hostfs

MAX_FILE_BYTES = 20 * 2**20
MAX_TOTAL_BYTES = 100 * 2**20
MAX_FILES = 5000


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

    def skipped(path: str, reason: str) -> None:
        snap.skipped.append({"path": path, "reason": reason})

    try:
        for entry in hostfs.walk(root, exclude_top=exclude_top, max_entries=None, on_skip=skipped):
            if len(found) + len(snap.skipped) >= limit:
                skipped(entry.rel, f"more than {limit} entries")
                break
            if entry.is_dir:
                continue
            if entry.is_file:
                found.append((entry.rel, entry.st.st_size))
            elif entry.is_link:
                skipped(entry.rel, "symbolic link (not followed)")
            else:
                skipped(entry.rel, "not a regular file")
    except OSError as exc:
        skipped(".", f"unreadable folder: {exc}")
    return found


def _copy_one(root: Path, rel: str, dest: Path, limit: int) -> int:
    """Copy at most ``limit`` bytes of the regular file ``root/rel`` to ``dest/rel``
    without following any link on the way; return the size. HostFSError (an OSError) if
    it is not a regular file any more or grew past ``limit``."""
    parts = rel.split("/")
    src_dir = hostfs.open_dir(root, "/".join(parts[:-1]))
    try:
        dst_dir = hostfs.open_dir(dest, "/".join(parts[:-1]), create=True)
        try:
            return hostfs.copy_file_at(
                src_dir, parts[-1], dst_dir, max_bytes=limit, replace=True, path=rel
            )
        finally:
            os.close(dst_dir)
    finally:
        os.close(src_dir)


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
    """Copy the workspace's regular files into ``dest`` (see the module docstring).

    Call it with the agent's processes stopped (:func:`snapshot_env` does); the copy
    never follows a link even if they are not.
    """
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
            copied = _copy_one(Path(workspace), rel, dest, min(max_file_bytes, room))
        except OSError as exc:
            snap.skipped.append({"path": rel, "reason": f"not copied: {exc}"})
            continue
        snap.copied.append({"path": rel, "bytes": copied})
        snap.total_bytes += copied
    snap.copied.sort(key=lambda f: f["path"])
    return snap


def snapshot_env(env: Any, dest: Path, **kwargs: Any) -> Snapshot | None:
    """:func:`snapshot_workspace` of ``env``'s current workspace with every agent process
    of the episode stopped meanwhile (``MLEEnv.agent_stopped``); None without a workspace.
    ``first`` defaults to the episode's submission file (``MLEEnv.submission_path``)."""
    unwrapped = getattr(env, "unwrapped", env)
    workspace = getattr(unwrapped, "workspace", None)
    if workspace is None:
        return None
    submitted = getattr(unwrapped, "submission_path", None)
    if isinstance(submitted, str) and submitted.startswith("/workspace/"):
        kwargs.setdefault("first", (submitted.removeprefix("/workspace/"),))
    stopped = getattr(unwrapped, "agent_stopped", None)
    with stopped() if stopped is not None else contextlib.nullcontext():
        return snapshot_workspace(Path(workspace), dest, **kwargs)
