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
from mle_gym.sandbox.hostfs import copy_tree, make_inert, remove_tree

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


def finish_episode_dir(
    episode_dir: Path,
    volume: quota.WorkspaceVolume | None,
    *,
    keep: bool,
    owner: tuple[int, int] | None,
) -> None:
    """End an episode's folder once its sandbox is closed: unmount the workspace volume
    (its files copied off first when ``keep``), then remove the folder — or keep it,
    marked with :data:`KEEP_MARKER` and its workspace made inert (contents, not
    privileges: no links, devices or special modes)."""
    if volume is not None:
        workspace = volume.mountpoint
        saved = workspace.with_name("workspace.saved")
        if keep:  # the files live on the volume: copy them off first
            keep_copy(workspace, saved, owner)
        volume.unmount()
        if keep:
            workspace.rmdir()
            saved.rename(workspace)
    elif keep:
        report = make_inert(episode_dir / "workspace", owner=owner)
        if report.removed or report.stripped:
            log.info("kept workspace made inert: %s", report)
    if keep:
        (episode_dir / KEEP_MARKER).touch()
    else:
        remove_quietly(episode_dir)
