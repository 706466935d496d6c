"""Unprivileged host uids for sandboxes, one per live sandbox.

When mle_gym runs as root, every sandbox runs its commands as its own host uid
taken from ``[$MLE_GYM_UID_BASE, +$MLE_GYM_UID_COUNT)`` (default 200000..209999).
A uid is held by an exclusive ``flock`` on a lock file, so concurrent processes
never share one and a crashed process releases its uids automatically. Distinct
uids mean one episode can neither signal nor read another's processes, and
RLIMIT_NPROC counts only that episode's processes.
"""

from __future__ import annotations

import fcntl
import os
import random
import tempfile
from pathlib import Path


def _range() -> tuple[int, int]:
    base = int(os.environ.get("MLE_GYM_UID_BASE", "200000"))
    count = int(os.environ.get("MLE_GYM_UID_COUNT", "10000"))
    return base, count


def _lock_dir() -> Path:
    d = Path(tempfile.gettempdir()) / "mle_gym-uids"
    d.mkdir(mode=0o700, exist_ok=True)
    return d


class UidLease:
    """An exclusively held uid; ``release()`` (or process death) frees it."""

    def __init__(self) -> None:
        base, count = _range()
        lock_dir = _lock_dir()
        start = random.randrange(count)
        for i in range(count):
            uid = base + (start + i) % count
            fd = os.open(lock_dir / f"{uid}.lock", os.O_CREAT | os.O_RDWR | os.O_CLOEXEC, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            self.uid = uid
            self._fd: int | None = fd
            return
        raise RuntimeError(f"all {count} sandbox uids from {base} are in use")

    def release(self) -> None:
        """Free the uid (idempotent)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
