"""The docker backend: one long-lived container per episode, commands by ``docker exec``.

The container (created with the ``docker`` SDK, so ``$DOCKER_HOST`` and the TLS
variables are honoured) has no network, memory (+swap), pids and CPU limits,
every capability dropped, ``no-new-privileges``, the seccomp profile of
:mod:`mle_gym.sandbox.seccomp` (no keyrings, ``io_uring``, ``bpf``, namespaces ...,
whatever the engine's default profile), a read-only root, a private
``/tmp``, the workspace bound read-write and the task's public data read-only.
Its main process is root waiting on stdin. The container keeps only the
capabilities its root helpers need (:data:`CONTAINER_CAPS`: kill, change uid,
drop the bounding set, trace); every agent command, the interpreter too, is run
by a root wrapper through ``setpriv`` (:meth:`DockerSandbox._drop`: the
unprivileged uid, no capabilities at all, ``no_new_privs``), so the agent can
neither signal nor trace the root helpers.

* **Timeouts**: the host enforces each command's wall deadline and, on expiry
  (or when the output cap is hit), kills every agent process but the Python
  interpreter: from the host through the container's cgroup when the engine is
  local (freeze, SIGKILL, thaw), else by a root ``docker exec``.
* **Nothing outlives a step**: after each command, the root wrapper (which the
  agent's uid cannot kill: ``kill -9 $PPID`` fails) kills every process of the
  agent uid but the interpreter, as the local backend's pid namespace does, and
  ends only once they are reaped (an unreaped one still holds a slot in the pids
  limit); ``exec`` returns after the wrapper, on a timeout too; after a ``python``
  cell, :meth:`DockerSandbox.sweep_leftovers` does the same from the host.
* **Freezing**: :meth:`~mle_gym.sandbox.base.Sandbox.frozen` freezes the
  container's freezer cgroup from the host (or ``docker pause`` on a remote
  engine; if both fail, every agent process is killed).
* **Supervised commands**: ``exec(..., supervisor=argv)`` runs ``argv + DROP +
  sh -c command`` by the root wrapper (the supervisor keeps the container's
  capabilities, e.g. ``CAP_SYS_PTRACE``).
* **OOM**: the container's cgroup ``oom_kill`` counter is read before and after
  each command inside the container, so an OOM kill is told apart from a
  timeout or a plain SIGKILL, on remote engines too.
* **Cleanup**: ``close()`` removes the container. The host keeps the container's
  stdin attached; if the host process dies the stream closes, the main process
  exits and the container removes itself (``auto_remove``). Containers are
  labelled (episode, owner pid, owner host); ``mle-gym sandbox gc`` removes
  those whose owner process is gone.

Beside this module: :mod:`~mle_gym.sandbox.docker_control` (root helper commands,
sweeps and freezing from the host), :mod:`~mle_gym.sandbox.docker_stream` (the exec
transport and the interpreter process) and :mod:`~mle_gym.sandbox.docker_shell` (the
shell snippets run in the container).
"""

from __future__ import annotations

import contextlib
import os
import socket
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mle_gym.sandbox import hostfs, hostprocs, seccomp
from mle_gym.sandbox.base import (
    DATA_DIR,
    WORKSPACE,
    ExecResult,
    SandboxError,
    SandboxLimits,
    SandboxUnavailable,
    SpawnedProcess,
    agent_environment,
    check_supervisor,
)
from mle_gym.sandbox.docker_control import SWEEP_WAIT_S, DockerControl
from mle_gym.sandbox.docker_shell import (
    _TRAILER,
    AGENT_ONLY,
    CD_WORKSPACE,
    KILL_SESSION,
    MARK,
    OOM_COUNT,
    SWEEP,
    WRAPPER,
)
from mle_gym.sandbox.docker_stream import DockerProcess, _ExecStream
from mle_gym.sandbox.image import AGENT_UID, PATH_IN_IMAGE, build_command, default_image
from mle_gym.sandbox.process import OutputCapture

LABEL = "mle_gym"
#: what the container's root helpers need: signal agent processes (sweeps), drop to the
#: agent uid and its bounding set (setpriv), and trace (supervisors); agents get none
CONTAINER_CAPS = ("KILL", "SETUID", "SETGID", "SETPCAP", "SYS_PTRACE")


def client_from_env() -> Any:
    """A docker client for ``$DOCKER_HOST`` (or the local socket), or SandboxUnavailable."""
    try:
        import docker
    except ImportError as exc:
        raise SandboxUnavailable(
            "sandbox='docker' needs the docker SDK: pip install 'mle-gym[docker]'"
        ) from exc
    try:
        client = docker.from_env()
        client.ping()
    except Exception as exc:
        where = os.environ.get("DOCKER_HOST", "unix:///var/run/docker.sock")
        raise SandboxUnavailable(
            f"cannot reach the Docker engine at {where} ({exc}); start it (e.g. `dockerd &`) "
            "or set DOCKER_HOST"
        ) from exc
    return client


class DockerSandbox(DockerControl):
    """One container per episode (see module docstring)."""

    kind = "docker"

    def __init__(
        self,
        workspace: Path,
        data: Path | None,
        limits: SandboxLimits,
        *,
        image: str | None = None,
        env: dict[str, str] | None = None,
        client: Any = None,
        episode_id: str | None = None,
    ) -> None:
        super().__init__(workspace, data, limits)
        self.client = client or client_from_env()
        self.image = image or default_image()
        import docker

        try:
            #: the image's content id (``sha256:...``), recorded in results' provenance
            self.image_id: str | None = self.client.images.get(self.image).id
        except docker.errors.ImageNotFound:
            raise SandboxUnavailable(
                f"docker image {self.image!r} not found. Build it without a registry with "
                f"`{build_command(self.image)}` (or, in a checkout, "
                f"`docker build -f envs/Dockerfile -t {self.image} .`)"
            ) from None
        self.uid = AGENT_UID if os.geteuid() == 0 else os.getuid()
        self.gid = AGENT_UID if os.geteuid() == 0 else os.getgid()
        if os.geteuid() == 0:
            _chown_tree(workspace, self.uid, self.gid)
        self.episode_id = episode_id or uuid.uuid4().hex[:12]
        #: the interpreter's pid in the container (it leads its session), 0 if none
        self._kernel_sid = 0
        #: the interpreter's host process, once found (host-side sweeps spare it)
        self._kernel_host: hostprocs.ProcInfo | None = None
        #: the container's cgroup folders on this host, by controller (None: not local)
        self._host_groups: dict[str, Path] | None = None
        self._paused = False
        self._spawned: list[DockerProcess] = []
        self._env = self._sandbox_env(env or {})
        self.container_id = ""
        self._stdin: _ExecStream | None = None
        self._host_oom_file: Path | None = None
        try:
            self._start_container()
        except BaseException:
            self.close()
            raise

    @property
    def file_owner(self) -> tuple[int, int] | None:
        return (self.uid, self.gid) if os.geteuid() == 0 else None

    def _sandbox_env(self, extra: dict[str, str]) -> dict[str, str]:
        return agent_environment(PATH_IN_IMAGE, self.limits.cpus, extra)

    def _start_container(self) -> None:
        api = self.client.api
        lim = self.limits
        binds = {str(self.workspace): {"bind": WORKSPACE, "mode": "rw"}}
        if self.data is not None:
            hostfs.ensure_dir(self.workspace, "data")  # a link there is removed, not followed
            binds[str(self.data)] = {"bind": DATA_DIR, "mode": "ro"}
        host_config = api.create_host_config(
            binds=binds,
            network_mode="none",
            mem_limit=lim.memory_mb * 2**20,
            memswap_limit=lim.memory_mb * 2**20,
            pids_limit=lim.pids,
            nano_cpus=int(lim.cpus * 1e9),
            cap_drop=["ALL"],
            cap_add=list(CONTAINER_CAPS),
            security_opt=["no-new-privileges", f"seccomp={seccomp.docker_profile()}"],
            read_only=True,
            tmpfs={
                "/tmp": f"rw,nosuid,nodev,size={lim.tmp_mb}m,mode=1777",
                "/dev/shm": "rw,nosuid,nodev,size=256m,mode=1777",
            },
            ulimits=[{"Name": "core", "Soft": 0, "Hard": 0}],
            init=True,
            auto_remove=True,
        )
        container = api.create_container(
            self.image,
            command=["sh", "-c", "cat >/dev/null"],
            user="0:0",
            working_dir=WORKSPACE,
            environment=self._env,
            stdin_open=True,
            detach=False,
            network_disabled=True,
            labels={
                LABEL: "1",
                f"{LABEL}.episode": self.episode_id,
                f"{LABEL}.owner_pid": str(os.getpid()),
                f"{LABEL}.owner_host": socket.gethostname(),
            },
            host_config=host_config,
        )
        self.container_id = container["Id"]
        sock = api.attach_socket(self.container_id, params={"stdin": 1, "stream": 1})
        self._stdin = _ExecStream(sock)
        api.start(self.container_id)

    # -- running -------------------------------------------------------------------------------

    def _drop(self) -> list[str]:
        """The argv prefix that drops a root helper's child to the agent: its uid, no
        supplementary groups, no capabilities (not even in the bounding set), no_new_privs,
        and /workspace as working directory."""
        return [
            "setpriv",
            f"--reuid={self.uid}",
            f"--regid={self.gid}",
            "--clear-groups",
            "--inh-caps=-all",
            "--bounding-set=-all",
            "--no-new-privs",
            "--",
            *CD_WORKSPACE,
        ]

    def exec(
        self, command: str, timeout_s: float, *, supervisor: Sequence[str] | None = None
    ) -> ExecResult:
        """Run ``command`` (see :meth:`Sandbox.exec`): a root wrapper runs
        ``DROP + sh -c command`` and then kills what it left.

        With ``supervisor`` (an argv), the wrapper runs ``supervisor + DROP + ["/bin/sh",
        "-c", command]`` instead: the supervisor is root with the container's
        capabilities (:data:`CONTAINER_CAPS`, ``CAP_SYS_PTRACE`` among them), in ``/``,
        in the episode's container (same ``/tmp``); DROP makes its child the agent uid
        with no capabilities, in /workspace. Its exit status is the result's.
        """
        if self.closed:
            raise SandboxError("sandbox is closed")
        self._check_not_frozen()
        front = [] if supervisor is None else check_supervisor(supervisor)
        start = time.monotonic()
        deadline = start + max(timeout_s, 0.0)
        _, stream = self._exec_socket(
            [
                "sh",
                "-c",
                WRAPPER,
                "mle-gym-exec",
                str(self._kernel_sid),
                str(self.uid),
                str(self.limits.cpu_time_s),
                *front,
                *self._drop(),
                "/bin/sh",
                "-c",
                command,
            ]
        )
        capture = OutputCapture()
        timed_out = output_limited = False
        try:
            while True:
                try:
                    frame = stream.frame(deadline)
                except TimeoutError:
                    timed_out = True
                    break
                if frame is None:
                    break
                capture.feed(frame[1])
                if capture.total > self.limits.max_output_bytes + 256:
                    output_limited = True
                    break
        finally:
            if timed_out or output_limited:
                self._sweep()
                # The wrapper ends once what it ran is reaped (its own sweep): wait for it,
                # so the next command finds the pids limit free.
                _drain(stream, time.monotonic() + SWEEP_WAIT_S)
            stream.close()
        head, tail = capture.result()
        rc: int | None = None
        oom = False
        total = capture.total
        # The trailer ends the output, so it ends head+tail (which are contiguous whenever
        # the trailer could straddle them).
        match = _TRAILER.search(head + tail)
        if match and not (timed_out or output_limited):
            rc = int(match.group(1))
            before, after = match.group(2), match.group(3)
            oom = bool(before and after and int(after) > int(before))
            cut = len(head) + len(tail) - match.start()
            total -= cut
            from_tail = min(cut, len(tail))
            tail = tail[: len(tail) - from_tail]
            head = head[: len(head) - (cut - from_tail)]
        elif not (timed_out or output_limited):
            rc = 137  # the wrapper itself was killed (e.g. by the OOM killer)
        sig = rc - 128 if rc is not None and rc > 128 else None
        return ExecResult(
            exit_code=rc,
            head=head,
            tail=tail,
            output_bytes=max(total, 0),
            duration_s=time.monotonic() - start,
            timed_out=timed_out,
            oom_killed=oom,
            cpu_limited=sig == 24,
            output_limited=output_limited,
            signal=sig,
        )

    def spawn(self, argv: list[str]) -> SpawnedProcess:
        if self.closed:
            raise SandboxError("sandbox is closed")
        self._check_not_frozen()
        # The root launcher reports its pid on stderr, then becomes the program through
        # DROP (exec after exec: the pid stays). A docker exec process leads its own
        # session, so that pid is also the interpreter's session id.
        launcher = [
            "sh",
            "-c",
            'echo "$$" >&2; exec "$@"',
            "mle-gym-spawn",
            *self._drop(),
            *argv,
        ]
        exec_id, stream = self._exec_socket(launcher, stdin=True)
        proc = DockerProcess(self, exec_id, stream)
        try:
            pid, said = _launcher_pid(proc, time.monotonic() + 30)
        except TimeoutError:
            pid, said = None, b"nothing within 30 s"
        if pid is None:
            proc.kill()
            raise SandboxError(f"could not start {argv[0]!r} in the container (it said {said!r})")
        proc.sid = pid
        self._kernel_sid = proc.sid
        self._kernel_host = None
        self._spawned.append(proc)
        return proc

    @property
    def oom_counter_cheap(self) -> bool:
        self.oom_kills()
        return bool(self._host_oom_file and self._host_oom_file.name)

    def oom_kills(self) -> int | None:
        """The container's OOM-kill count: read from the host's cgroup file when the engine
        is local (cgroupfs driver), else from inside the container."""
        if self.closed:
            return None
        if self._host_oom_file is None:
            candidate = Path(f"/sys/fs/cgroup/memory/docker/{self.container_id}/memory.oom_control")
            self._host_oom_file = candidate if candidate.is_file() else Path()
        if self._host_oom_file.name:
            try:
                for line in self._host_oom_file.read_text().splitlines():
                    if line.startswith("oom_kill "):
                        return int(line.split()[1])
            except OSError:
                pass
        out = self._quick(["sh", "-c", OOM_COUNT]).strip()
        return int(out) if out.isdigit() else None

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        if self.is_frozen:  # a frozen container's processes could not die
            self._thaw()
        for proc in self._spawned:
            proc.stream.close()
        self._spawned.clear()
        if self.container_id:
            with contextlib.suppress(Exception):
                self.client.api.remove_container(self.container_id, force=True)
        if self._stdin is not None:
            self._stdin.close()
            self._stdin = None


def _drain(stream: _ExecStream, deadline: float) -> None:
    """Read an exec's stream to its end (the end of the exec), dropping what comes, or
    until the ``time.monotonic()`` ``deadline``."""
    with contextlib.suppress(TimeoutError):
        while stream.frame(deadline) is not None:
            pass


#: stdout a spawned program may write before its launcher's pid line is seen
_MAX_EARLY_STDOUT = 1 << 20


def _launcher_pid(proc: DockerProcess, deadline: float) -> tuple[int | None, bytes]:
    """(pid, what was said) from a spawned exec: the pid is the first stderr line of its
    launcher, None if that line is not a number or never came (then ``said`` is what came
    instead). The daemon forwards stdout and stderr from separate pipes, so the program's
    first stdout can arrive before that line: it is kept for ``proc.read``."""
    early = bytearray()
    while len(early) <= _MAX_EARLY_STDOUT:
        frame = proc.stream.frame(deadline)
        if frame is None:
            return None, bytes(early[:200]) or b"nothing"
        kind, payload = frame
        if kind != 2:
            early += payload
            continue
        line = payload.split(b"\n", 1)[0].strip()
        if not line.isdigit():
            return None, line[:200]
        proc._pending = bytes(early)
        return int(line), line
    return None, bytes(early[:200])


def _chown_tree(root: Path, uid: int, gid: int) -> None:
    hostfs.chown_tree(root, uid, gid, exclude_top=("data",))  # no link followed


def gc_containers(client: Any = None, *, all_hosts: bool = False) -> list[str]:
    """Remove mle_gym containers whose owner process is gone; return their ids."""
    client = client or client_from_env()
    removed = []
    me = socket.gethostname()
    for c in client.containers.list(all=True, filters={"label": LABEL}):
        labels = c.labels or {}
        host = labels.get(f"{LABEL}.owner_host")
        pid = labels.get(f"{LABEL}.owner_pid", "")
        if host != me and not all_hosts:
            continue
        alive = False
        if host == me and pid.isdigit():
            try:
                os.kill(int(pid), 0)
                alive = True
            except ProcessLookupError:
                alive = False
            except PermissionError:
                alive = True
        if not alive:
            with contextlib.suppress(Exception):
                c.remove(force=True)
                removed.append(c.id)
    return removed


__all__ = [
    "AGENT_ONLY",
    "CD_WORKSPACE",
    "CONTAINER_CAPS",
    "KILL_SESSION",
    "LABEL",
    "MARK",
    "OOM_COUNT",
    "SWEEP",
    "SWEEP_WAIT_S",
    "WRAPPER",
    "DockerProcess",
    "DockerSandbox",
    "client_from_env",
    "gc_containers",
]
