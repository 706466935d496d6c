"""Root helpers and host-side control of a docker sandbox's container: helper execs,
sweeps of leftover agent processes, freezing (see :mod:`mle_gym.sandbox.docker`)."""

from __future__ import annotations

import contextlib
import logging
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mle_gym.sandbox import cgroups, hostprocs
from mle_gym.sandbox.base import Sandbox
from mle_gym.sandbox.docker_shell import KILL_SESSION, SWEEP
from mle_gym.sandbox.docker_stream import _ExecStream, _hijacked_exec_start

if TYPE_CHECKING:
    from mle_gym.sandbox.docker_stream import DockerProcess

log = logging.getLogger("mle_gym.sandbox.docker")

SWEEP_WAIT_S = 5.0


class DockerControl(Sandbox):
    """The part of :class:`~mle_gym.sandbox.docker.DockerSandbox` that runs root helper
    commands in its container and controls the container's processes from the host
    (sweeps, freezing). Its attributes are set by ``DockerSandbox.__init__``."""

    client: Any
    container_id: str
    uid: int
    _env: dict[str, str]
    #: the interpreter's pid in the container (it leads its session), 0 if none
    _kernel_sid: int
    #: the interpreter's host process, once found (host-side sweeps spare it)
    _kernel_host: hostprocs.ProcInfo | None
    #: the container's cgroup folders on this host, by controller (None: not local)
    _host_groups: dict[str, Path] | None
    _paused: bool
    _spawned: list[DockerProcess]

    def _exec_socket(self, argv: list[str], *, stdin: bool = False) -> tuple[str, _ExecStream]:
        """Start ``argv`` as root in the container (agent programs go through :meth:`_drop`)."""
        api = self.client.api
        created = api.exec_create(
            self.container_id,
            argv,
            stdin=stdin,
            stdout=True,
            stderr=True,
            user="0:0",
            workdir="/",
            environment=self._env,
        )
        hijacked = _hijacked_exec_start(self.client, created["Id"])
        if hijacked is not None:
            return created["Id"], _ExecStream(*hijacked)
        return created["Id"], _ExecStream(api.exec_start(created["Id"], socket=True))

    def _quick(self, argv: list[str], timeout_s: float = 30) -> bytes:
        """Run a short helper command as root and return its output."""
        _, stream = self._exec_socket(argv)
        out = b""
        deadline = time.monotonic() + timeout_s
        try:
            while (frame := stream.frame(deadline)) is not None:
                out += frame[1]
        except TimeoutError:
            log.warning("helper command %s timed out", argv[:3])
        finally:
            stream.close()
        return out

    def _sweep(self) -> None:
        """Kill every agent process but the interpreter, from the host through the
        container's cgroup if the engine is local, else by a root exec.

        If the agent has used up the pids limit, not even the exec could start, so
        the limit is raised by a few processes for the sweep and then restored.
        """
        if self._host_sweep():
            return
        argv = ["sh", "-c", SWEEP, "sweep", str(self._kernel_sid), str(self.uid)]
        try:
            self._quick(argv)
            return
        except Exception as exc:
            log.info("sweep could not start (%s); lifting the pids limit briefly", exc)
        self._set_pids_limit(self.limits.pids + 8)
        try:
            self._quick(argv)
        finally:
            self._set_pids_limit(self.limits.pids)

    def _set_pids_limit(self, limit: int) -> None:
        api = self.client.api
        url = api._url("/containers/{0}/update", self.container_id)
        api._raise_for_status(api._post_json(url, data={"PidsLimit": limit}))

    def _kill_session(self, sid: int) -> None:
        with contextlib.suppress(Exception):
            self._quick(["sh", "-c", f"K={int(sid)}; {KILL_SESSION}"])

    # -- freezing and sweeping from the host ---------------------------------------------------

    def _groups(self) -> dict[str, Path]:
        """The container's cgroup v1 folders on this host (freezer, pids), found through
        its main process's ``/proc/<pid>/cgroup``; empty if the engine is not local, or
        if container uids are not host uids (user-namespace remapping: the host-side
        sweep tells agent processes by their host uid)."""
        if self._host_groups is not None:
            return self._host_groups
        groups: dict[str, Path] = {}
        try:
            pid = int(self.client.api.inspect_container(self.container_id)["State"]["Pid"])
            main = hostprocs.info(pid)
            if main is None or main.uid != 0 or os.geteuid() != 0:
                raise LookupError("not a local, unremapped engine seen by root")
            with open(f"/proc/{pid}/cgroup") as f:
                lines = f.read().splitlines()
        except Exception:
            lines = []
        for line in lines:
            _, ctrls, path = line.split(":", 2)
            for ctrl in ("freezer", "pids"):
                if ctrl in ctrls.split(",") and self.container_id in path:
                    folder = cgroups.ROOT / ctrl / path.lstrip("/")
                    if (folder / "cgroup.procs").is_file():
                        groups[ctrl] = folder
        self._host_groups = groups
        return groups

    def _host_procs(self) -> list[int] | None:
        """Host pids of the container's processes, or None if not visible from here."""
        group = self._groups().get("pids")
        if group is None:
            return None
        try:
            with open(group / "cgroup.procs", "rb") as f:
                return [int(p) for p in f.read().split()]
        except (OSError, ValueError):
            return None

    def _kernel_key(self, pids: list[int]) -> tuple[int, int] | None:
        """(host pid, start time) of the interpreter, if one runs."""
        if not self._kernel_sid:
            return None
        known = self._kernel_host
        if known is not None:
            now = hostprocs.info(known.pid)
            if now is not None and now.start == known.start:
                return (known.pid, known.start)
            self._kernel_host = None
        for pid in pids:
            if hostprocs.innermost_pid(pid) == self._kernel_sid:
                found = hostprocs.info(pid)
                if found is not None and found.uid == self.uid:
                    self._kernel_host = found
                    return (found.pid, found.start)
        return None

    def _host_strays(self, pids: list[int]) -> list[hostprocs.ProcInfo]:
        keep = self._kernel_key(pids)
        strays = []
        for pid in pids:
            p = hostprocs.info(pid)
            if p is None or p.uid != self.uid or (p.pid, p.start) == keep:
                continue
            strays.append(p)
        return strays

    def _host_sweep(self) -> bool:
        """Kill every agent process but the interpreter from the host: freeze the
        container's cgroup, SIGKILL, thaw, and wait until the container's init has reaped
        them (until then they hold their slots in the pids limit, and the next command
        could not fork). False if the cgroup is not visible."""
        pids = self._host_procs()
        if pids is None:
            return False
        if not self._host_strays(pids):
            return True
        freezer = self._groups().get("freezer")
        killed: dict[int, hostprocs.ProcInfo] = {}
        for _ in range(20):
            frozen = freezer is not None and cgroups.freeze_group(freezer)
            try:
                strays = self._host_strays(self._host_procs() or [])
                hostprocs.kill_all(p.pid for p in strays)
                killed.update((p.pid, p) for p in strays)
            finally:
                if frozen and freezer is not None:
                    cgroups.thaw_group(freezer)
            if frozen or not strays:
                break
        # the interpreter's own children stay zombies until it reaps them
        spared = {self._kernel_host.pid} if self._kernel_host is not None else set()
        left = hostprocs.wait_reaped(killed.values(), SWEEP_WAIT_S, spared_parents=spared)
        if left:
            log.warning("host-side sweep left %s", left)
            return False
        return True

    def sweep_leftovers(self) -> None:
        """Kill every agent process but the interpreter: from the host (a read of the
        container's ``cgroup.procs`` and a ``stat`` per process when there is nothing to
        kill), or by a root exec of :data:`SWEEP` on a remote engine."""
        if self.closed or self.is_frozen:
            return
        self._sweep()

    def _freeze(self) -> None:
        """Freeze the container's cgroup from the host; else ``docker pause``; else kill
        every agent process (the interpreter too)."""
        freezer = self._groups().get("freezer")
        if freezer is not None and cgroups.freeze_group(freezer):
            return
        try:
            self.client.api.pause(self.container_id)
            self._paused = True
            return
        except Exception as exc:
            log.warning("cannot freeze the container (%s); killing agent processes", exc)
        for proc in list(self._spawned):
            proc.kill()
        self._quick(["sh", "-c", SWEEP, "sweep", "0", str(self.uid)])

    def _thaw(self) -> None:
        if self._paused:
            self._paused = False
            with contextlib.suppress(Exception):
                self.client.api.unpause(self.container_id)
            return
        freezer = self._groups().get("freezer")
        if freezer is not None:
            cgroups.thaw_group(freezer)
