"""Host-side views of sandbox processes through ``/proc`` (root host, same pid namespace).

Used by the sweeps that run from the host, out of the agent's reach: a process is
named by its host pid *and* its start time (:class:`ProcKey`), so a pid recycled by
an agent process is never mistaken for the helper it replaced.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Collection, Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class ProcInfo:
    """What the sweeps need to know about one host process."""

    pid: int
    uid: int
    start: int  # start time in clock ticks since boot (field 22 of /proc/<pid>/stat)
    state: str  # "R", "S", "Z", ...
    ppid: int = 0  # the parent's pid (field 4 of /proc/<pid>/stat)


def info(pid: int) -> ProcInfo | None:
    """The process ``pid`` as seen now, or None if it is gone.

    ``uid`` is the real uid from ``/proc/<pid>/status``, not the owner of ``/proc/<pid>``:
    a process that makes itself non-dumpable (``PR_SET_DUMPABLE``) has its /proc entry
    owned by root, and must not pass for a root helper.
    """
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
        with open(f"/proc/{pid}/status", "rb") as f:
            status = f.read()
    except OSError:
        return None
    fields = stat[stat.rfind(b")") + 2 :].split()
    at = status.find(b"\nUid:")
    try:
        uid = int(status[at + 5 : status.index(b"\n", at + 1)].split()[0])
        return ProcInfo(
            pid=pid, uid=uid, start=int(fields[19]), state=fields[0].decode(), ppid=int(fields[1])
        )
    except (IndexError, ValueError):
        return None


def children(pid: int) -> list[int]:
    """Direct children of ``pid`` (its main thread's; empty if gone or unsupported)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children", "rb") as f:
            return [int(p) for p in f.read().split()]
    except (OSError, ValueError):
        return []


def innermost_pid(pid: int) -> int | None:
    """The pid of ``pid`` in its own (innermost) pid namespace, from ``NSpid``."""
    try:
        with open(f"/proc/{pid}/status", "rb") as f:
            for line in f:
                if line.startswith(b"NSpid:"):
                    return int(line.split()[-1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def alive(pid: int) -> bool:
    """True if ``pid`` exists and is not a zombie."""
    p = info(pid)
    return p is not None and p.state not in ("Z", "X")


def pid_exists(pid: int) -> bool:
    """True if a process ``pid`` exists, a zombie or one we may not signal included
    (``kill(pid, 0)``; unlike :func:`alive`, it does not read ``/proc``)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def kill_all(pids: Iterable[int]) -> None:
    """SIGKILL each pid (ignore those already gone)."""
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


def wait_reaped(
    procs: Iterable[ProcInfo], timeout_s: float, *, spared_parents: Collection[int] = ()
) -> list[int]:
    """Wait until every process is reaped (its pid gone, or now another process's); return
    the pids still there after ``timeout_s``.

    A zombie counts as still there: it keeps its slot in a pids cgroup until its parent
    reaps it, so only a reaped process has freed its slot. A zombie whose parent is in
    ``spared_parents`` (a live process that was not killed: only it can reap its
    children) is not waited for.
    """

    def pending(p: ProcInfo) -> bool:
        now = info(p.pid)
        if now is None or now.start != p.start:
            return False
        return not (now.state in ("Z", "X") and now.ppid in spared_parents)

    left = [p for p in procs if pending(p)]
    deadline = time.monotonic() + timeout_s
    pause = 0.0005
    while left and time.monotonic() < deadline:
        time.sleep(pause)
        pause = min(pause * 2, 0.02)
        left = [p for p in left if pending(p)]
    return [p.pid for p in left]
