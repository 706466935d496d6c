"""Episode folders on the host (see :class:`~mle_gym.env.MLEEnv`): the folders of dead
host processes removed, an episode folder removed or its workspace kept. Every host
access goes through :mod:`mle_gym.sandbox.hostfs`: no link the agent planted is
followed."""

from __future__ import annotations

import logging
import os
import re
from pathlib import Path

from mle_gym.sandbox import hostprocs, quota
from mle_gym.sandbox.hostfs import copy_tree, remove_tree

log = logging.getLogger("mle_gym.env")

KEEP_MARKER = ".keep"
_ORPHAN = re.compile(r"\.pid(\d+)\.")


def remove_orphan_workspaces(root: Path) -> None:
    """Delete episode folders left by host processes that died without close()."""
    for entry in root.iterdir():
        m = _ORPHAN.search(entry.name)
        if not m or not entry.is_dir() or (entry / KEEP_MARKER).exists():
            continue
        pid = int(m.group(1))
        if pid == os.getpid():
            continue
        if not hostprocs.pid_exists(pid):
            quota.unmount_stale(entry)
            remove_quietly(entry)


def remove_quietly(folder: Path) -> None:
    """Delete an episode folder however deep the agent nested its workspace (no link
    followed, no recursion limit: :func:`hostfs.remove_tree`); failures are logged."""
    try:
        remove_tree(folder.parent, folder.name)
    except OSError as exc:
        log.warning("could not remove %s: %s", folder, exc)


def keep_copy(workspace: Path, saved: Path, owner: tuple[int, int] | None) -> None:
    """Copy a finished episode's workspace to ``saved``: contents, not privileges (new
    folders, regular files and links only, permission bits ``& 0o777``, owned by the
    sandbox uid; FIFOs, sockets and devices left out; no link followed)."""
    report = copy_tree(
        workspace, saved, links="copy", owner=owner, max_entries=None, on_limit="skip"
    )
    if report.skipped:
        log.info("kept workspace: not copied: %s", report.skipped[:20])
