"""Per-episode cgroups (v1) for real memory, process-count and CPU limits.

When the host process is root and the cgroup v1 hierarchies are writable, each
sandbox gets ``<controller>/mle_gym/<owner-pid>-<name>`` under the memory, pids
and cpu controllers. Every command joins them before it drops privileges, so:

* memory (+swap) over the limit is an OOM kill of the offending process, seen
  as a rise of the ``oom_kill`` counter;
* ``pids.max`` bounds the processes of the whole episode (fork bombs);
* a CFS quota bounds the episode to ``cpus`` cores;
* the freezer group stops every process of the episode at once (:meth:`CgroupSet.freeze`),
  so the host can read the workspace, or sweep leftovers, while nothing of the agent runs.

Groups left behind by a host process that died are removed by
:func:`remove_stale` (run whenever a new group set is created).
Where cgroups are unavailable (non-root, cgroup v2 without delegation), the
caller falls back to rlimits and says so.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from mle_gym.sandbox import hostprocs

log = logging.getLogger(__name__)

ROOT = Path("/sys/fs/cgroup")
PARENT = "mle_gym"
CONTROLLERS = ("memory", "pids", "cpu", "freezer")
FREEZE_TIMEOUT_S = 2.0


def _write(path: Path, value: str) -> None:
    with open(path, "w") as f:
        f.write(value)


def available() -> bool:
    """True if per-episode v1 memory and pids groups can be created here."""
    if os.geteuid() != 0:
        return False
    for ctrl in ("memory", "pids"):
        base = ROOT / ctrl
        if not (base / "cgroup.procs").exists() or not os.access(base, os.W_OK):
            return False
    return True


def _kill_members(group: Path) -> None:
    procs = group / "cgroup.procs"
    for _ in range(50):
        try:
            pids = [int(p) for p in procs.read_text().split()]
        except (FileNotFoundError, ValueError):
            return
        if not pids:
            return
        hostprocs.kill_all(pids)
        time.sleep(0.01)


def _remove_group(group: Path) -> None:
    state = group / "freezer.state"
    if state.exists():
        with contextlib.suppress(OSError):
            _write(state, "THAWED")
    _kill_members(group)
    for _ in range(100):
        try:
            group.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.01)
    log.warning("could not remove cgroup %s", group)


def remove_stale() -> int:
    """Remove groups whose owner process is dead; return how many were removed."""
    removed = 0
    for ctrl in CONTROLLERS:
        parent = ROOT / ctrl / PARENT
        if not parent.is_dir():
            continue
        for group in parent.iterdir():
            owner = group.name.split("-", 1)[0]
            if group.is_dir() and owner.isdigit() and not hostprocs.pid_exists(int(owner)):
                _remove_group(group)
                removed += 1
    return removed


def freeze_group(group: Path, timeout_s: float = FREEZE_TIMEOUT_S) -> bool:
    """Freeze a v1 freezer group (``group/freezer.state``); True once it reads ``FROZEN``.

    On failure (no such group, not ``FROZEN`` within ``timeout_s``) the group is thawed
    and False returned.
    """
    state = group / "freezer.state"
    try:
        _write(state, "FROZEN")
        deadline = time.monotonic() + timeout_s
        pause = 0.0002
        while True:
            with open(state, "rb") as f:
                if f.read().strip() == b"FROZEN":
                    return True
            if time.monotonic() > deadline:
                break
            time.sleep(pause)
            pause = min(pause * 2, 0.02)
    except OSError as exc:
        log.warning("cannot freeze %s (%s)", group, exc)
    thaw_group(group)
    return False


def thaw_group(group: Path) -> None:
    """Thaw a v1 freezer group (ignore if it is gone)."""
    with contextlib.suppress(OSError):
        _write(group / "freezer.state", "THAWED")


@dataclass
class CgroupSet:
    """The memory/pids(/cpu) groups of one sandbox."""

    name: str
    groups: dict[str, Path] = field(default_factory=dict)

    @classmethod
    def create(cls, name: str, *, memory_mb: int, pids: int, cpus: float) -> CgroupSet:
        """Create the groups with their limits; raise OSError if that is impossible."""
        remove_stale()
        full = f"{os.getpid()}-{name}"
        cs = cls(name=full)
        try:
            for ctrl in CONTROLLERS:
                base = ROOT / ctrl
                if not (base / "cgroup.procs").exists():
                    continue
                parent = base / PARENT
                parent.mkdir(exist_ok=True)
                group = parent / full
                group.mkdir()
                cs.groups[ctrl] = group
            mem = cs.groups["memory"]
            limit = str(memory_mb * 2**20)
            _write(mem / "memory.limit_in_bytes", limit)
            if (mem / "memory.memsw.limit_in_bytes").exists():
                _write(mem / "memory.memsw.limit_in_bytes", limit)
            with contextlib.suppress(OSError):
                _write(mem / "memory.swappiness", "0")
            _write(cs.groups["pids"] / "pids.max", str(pids))
            cpu = cs.groups.get("cpu")
            if cpu is not None and (cpu / "cpu.cfs_quota_us").exists():
                _write(cpu / "cpu.cfs_period_us", "100000")
                _write(cpu / "cpu.cfs_quota_us", str(max(1000, int(cpus * 100000))))
        except (OSError, KeyError):
            cs.remove()
            raise
        return cs

    @property
    def procs_files(self) -> list[str]:
        """The ``cgroup.procs`` files a command writes its pid into to join."""
        return [str(g / "cgroup.procs") for g in self.groups.values()]

    def oom_kills(self) -> int:
        """How many processes the kernel has OOM-killed in this group so far."""
        try:
            text = (self.groups["memory"] / "memory.oom_control").read_text()
        except (KeyError, OSError):
            return 0
        for line in text.splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value)
        return 0

    def procs(self) -> list[int]:
        """Host pids of every process in the episode's groups (empty if unreadable)."""
        group = self.groups.get("pids") or self.groups.get("memory")
        if group is None:
            return []
        try:
            with open(group / "cgroup.procs", "rb") as f:
                return [int(p) for p in f.read().split()]
        except (OSError, ValueError):
            return []

    def freeze(self, timeout_s: float = FREEZE_TIMEOUT_S) -> bool:
        """Stop every process of the groups; True once the kernel reports ``FROZEN``.

        False if there is no freezer group or the group did not reach ``FROZEN`` in
        ``timeout_s`` (it is then thawed again: the caller must fall back to killing).
        """
        group = self.groups.get("freezer")
        if group is None:
            return False
        return freeze_group(group, timeout_s)

    def thaw(self) -> None:
        """Resume what :meth:`freeze` stopped (idempotent)."""
        group = self.groups.get("freezer")
        if group is not None:
            thaw_group(group)

    def kill_all(self) -> None:
        """SIGKILL every process in the groups."""
        for group in self.groups.values():
            _kill_members(group)

    def remove(self) -> None:
        """Kill members and delete the groups (idempotent)."""
        for group in self.groups.values():
            _remove_group(group)
        self.groups.clear()
