"""Freezing and sweeping a local sandbox's processes from the host, through the
episode's freezer cgroup (see :mod:`mle_gym.sandbox.local`)."""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING

from mle_gym.sandbox import cgroups, hostprocs
from mle_gym.sandbox.base import Sandbox
from mle_gym.sandbox.process import LocalProcess

if TYPE_CHECKING:
    from mle_gym.sandbox.exec_client import ExecServer

log = logging.getLogger("mle_gym.sandbox.local")

SWEEP_WAIT_S = 5.0


class LocalControl(Sandbox):
    """The part of :class:`~mle_gym.sandbox.local.LocalSandbox` that freezes and sweeps
    its processes from the host. Its attributes are set by ``LocalSandbox.__init__``."""

    uid: int
    _cgroups: cgroups.CgroupSet | None
    _spawned: list[LocalProcess]
    #: host (pid, start time) of each live interpreter process, found lazily
    _anchors: dict[int, hostprocs.ProcInfo]
    _server: ExecServer | None
    _exec_lock: threading.Lock

    def _freeze(self) -> None:
        """Freeze the episode's freezer cgroup; if impossible, kill every agent process."""
        if self._cgroups is not None and self._cgroups.freeze():
            return
        log.warning("cannot freeze the local sandbox; killing its processes instead")
        self._kill_agent_processes()

    def _thaw(self) -> None:
        if self._cgroups is not None:
            self._cgroups.thaw()

    def _kill_agent_processes(self) -> None:
        """Kill the command server, the interpreters and everything they started."""
        for spawned in self._spawned:
            spawned.kill()
        self._spawned.clear()
        self._anchors.clear()
        if self._server is not None:
            self._server.kill()
        if self._cgroups is not None:
            self._cgroups.kill_all()

    def _interpreter_anchor(self, spawned: LocalProcess) -> hostprocs.ProcInfo | None:
        """The host process of a spawned program: bwrap (``spawned.proc``) starts the
        namespace's init, whose first child (pid 2 inside) is the program."""
        outer = spawned.proc.pid
        known = self._anchors.get(outer)
        if known is not None:
            return known
        for init in hostprocs.children(outer):
            for pid in hostprocs.children(init):
                if hostprocs.innermost_pid(pid) == 2:
                    found = hostprocs.info(pid)
                    if found is not None and found.uid == self.uid:
                        self._anchors[outer] = found
                        return found
        return None

    def _spared(self) -> set[tuple[int, int]]:
        """(pid, start time) of the agent-uid processes a sweep must not kill: the
        command server (PID 1 of the exec sandbox) and the live interpreters."""
        keep: set[tuple[int, int]] = set()
        if self._server is not None:
            # PID 1 of the exec sandbox is bwrap's child (``--as-pid-1``); it may still be
            # starting (its pid not reported yet), so it is found as that child.
            for pid in hostprocs.children(self._server.proc.pid):
                server = hostprocs.info(pid)
                if server is not None:
                    keep.add((server.pid, server.start))
        live = []
        for spawned in self._spawned:
            if spawned.proc.poll() is not None:
                self._anchors.pop(spawned.proc.pid, None)
                continue
            live.append(spawned)
            anchor = self._interpreter_anchor(spawned)
            if anchor is not None:
                keep.add((anchor.pid, anchor.start))
        self._spawned = live
        return keep

    def _strays(self, keep: set[tuple[int, int]]) -> list[hostprocs.ProcInfo]:
        """Agent-uid processes of the episode's cgroup that are not spared."""
        assert self._cgroups is not None
        strays = []
        for pid in self._cgroups.procs():
            p = hostprocs.info(pid)
            if p is None or p.uid != self.uid or (p.pid, p.start) in keep:
                continue
            strays.append(p)
        return strays

    def sweep_leftovers(self) -> None:
        """Kill every process of the sandbox uid in the episode's cgroup except the
        interpreters (``spawn``) and the command server, from the host: the cgroup is
        frozen while the processes are listed and killed, so none can fork away.

        Returns once what it killed is reaped (a killed process holds its slot in the
        pids limit until then). Costs one read of ``cgroup.procs`` and a ``stat`` per
        process when there is nothing to kill. Without cgroups (a non-root host) it does
        nothing: commands are still swept by their sandbox's PID 1.
        """
        if self.closed or self._cgroups is None or self.is_frozen:
            return
        with self._exec_lock:
            keep = self._spared()
            if not self._strays(keep):
                return
            killed: dict[int, hostprocs.ProcInfo] = {}
            for _ in range(20):
                frozen = self._cgroups.freeze()
                try:
                    strays = self._strays(keep)
                    hostprocs.kill_all(p.pid for p in strays)
                    killed.update((p.pid, p) for p in strays)
                finally:
                    if frozen:
                        self._cgroups.thaw()
                if frozen or not strays:
                    break
            # a spared interpreter's own children stay zombies until it reaps them
            spared = {pid for pid, _ in keep}
            left = hostprocs.wait_reaped(killed.values(), SWEEP_WAIT_S, spared_parents=spared)
            if left or self._strays(keep):
                log.warning("sweep left processes %s; killing the sandbox", left)
                self._kill_agent_processes()
