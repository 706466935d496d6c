"""A size quota on an episode's workspace: a loop-mounted ext4 volume of its own.

When the host process is root and loop devices are usable, the workspace folder
is the mount point of a fresh, sparse ext4 image (``<episode>/workspace.img``,
no journal, owned by the sandbox uid): writing past the quota fails with
``ENOSPC`` inside the sandbox and in the host-side file tools alike, and the
host disk is never filled. The image takes only the space actually written.
Both sandbox backends see it (the docker backend binds the mounted folder).

Elsewhere (non-root, no loop devices) there is no quota and the caller says so;
per-file size limits still apply through the sandbox's rlimits.

``unmount_stale(root)`` unmounts workspace volumes left mounted below ``root``
by host processes that died.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import subprocess
import time
from pathlib import Path

log = logging.getLogger(__name__)


def _tool(name: str) -> str | None:
    return shutil.which(name, path=os.environ.get("PATH", "") + ":/usr/sbin:/sbin:/usr/bin:/bin")


def available() -> bool:
    """True if quota volumes can be made here (root, mkfs.ext4, mount, a loop device)."""
    return (
        os.geteuid() == 0
        and _tool("mkfs.ext4") is not None
        and _tool("mount") is not None
        and os.path.exists("/dev/loop-control")
    )


def _mounts_below(root: Path) -> list[str]:
    prefix = os.path.realpath(root).rstrip("/") + "/"
    found = []
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/mounts").read_text().splitlines():
            parts = line.split()
            if len(parts) > 1:
                target = parts[1].replace("\\040", " ")
                if target.startswith(prefix):
                    found.append(target)
    return sorted(found, key=len, reverse=True)


class WorkspaceVolume:
    """A mounted quota volume at ``mountpoint`` backed by ``image``."""

    def __init__(self, mountpoint: Path, image: Path, size_mb: int) -> None:
        self.mountpoint = mountpoint
        self.image = image
        self.size_mb = size_mb
        self.mounted = False

    @classmethod
    def create(
        cls, mountpoint: Path, image: Path, size_mb: int, owner: tuple[int, int] | None
    ) -> WorkspaceVolume:
        """Make, format and mount the volume (``mountpoint`` must be an empty folder)."""
        vol = cls(mountpoint, image, size_mb)
        with open(image, "wb") as f:
            f.truncate(size_mb * 2**20)
        # A throwaway file system: no journal, no room for online resizing, no superblock
        # backups, nothing discarded on a fresh sparse file. Same size, same quota; about a
        # quarter of the metadata writes, so mkfs and deleting the image are 3x faster.
        lean = ["-O", "^has_journal,^resize_inode,sparse_super2"]
        extended = ["nodiscard", "num_backup_sb=0"]
        if owner is not None:
            extended.append(f"root_owner={owner[0]}:{owner[1]}")
        mkfs = [_tool("mkfs.ext4") or "mkfs.ext4", "-q", "-F", "-m", "0", "-L", "mle_gym_ws"]
        try:
            _run([*mkfs, *lean, "-E", ",".join(extended), str(image)])
        except OSError:  # an older mke2fs without these features
            plain = [e for e in extended if e.startswith("root_owner")]
            _run([*mkfs, "-O", "^has_journal", *(["-E", plain[0]] if plain else []), str(image)])
        _run([_tool("mount") or "mount", "-o", "loop,nosuid,nodev", str(image), str(mountpoint)])
        vol.mounted = True
        with contextlib.suppress(OSError):
            (mountpoint / "lost+found").rmdir()
        return vol

    def unmount(self) -> None:
        """Unmount and delete the image (idempotent)."""
        if self.mounted:
            _umount(str(self.mountpoint))
            self.mounted = False
        with contextlib.suppress(FileNotFoundError):
            self.image.unlink()


def _run(argv: list[str]) -> None:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise OSError(f"{' '.join(argv[:2])} failed: {done.stderr.strip() or done.stdout.strip()}")


def _umount(target: str) -> None:
    umount = _tool("umount") or "umount"
    for _ in range(50):
        done = subprocess.run([umount, target], capture_output=True, text=True, timeout=60)
        if done.returncode == 0 or "not mounted" in done.stderr:
            return
        time.sleep(0.05)  # busy: the last sandbox processes are still exiting
    subprocess.run([umount, "-l", target], capture_output=True, text=True, timeout=60)
    log.warning("lazily unmounted a busy workspace volume at %s", target)


def unmount_stale(path: Path) -> None:
    """Unmount every mount below ``path`` (an orphaned episode folder about to be deleted)."""
    for target in _mounts_below(path):
        _umount(target)
