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
  agent uid but the interpreter, as the local backend's pid namespace does;
  after a ``python`` cell, :meth:`DockerSandbox.sweep_leftovers` does the same
  from the host.
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
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import socket
import struct
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mle_gym.sandbox import cgroups, hostfs, hostprocs, seccomp
from mle_gym.sandbox.base import (
    DATA_DIR,
    WORKSPACE,
    ExecResult,
    Sandbox,
    SandboxError,
    SandboxLimits,
    SandboxUnavailable,
    SpawnedProcess,
    check_supervisor,
)
from mle_gym.sandbox.image import AGENT_UID, PATH_IN_IMAGE, default_image
from mle_gym.sandbox.process import OutputCapture

log = logging.getLogger(__name__)

LABEL = "mle_gym"
#: what the container's root helpers need: signal agent processes (sweeps), drop to the
#: agent uid and its bounding set (setpriv), and trace (supervisors); agents get none
CONTAINER_CAPS = ("KILL", "SETUID", "SETGID", "SETPCAP", "SYS_PTRACE")
SWEEP_WAIT_S = 5.0
MARK = "\x1emle-gym-exit\x1f"
_TRAILER = re.compile(rb"\n?\x1emle-gym-exit\x1f(-?\d+) (\d*) (\d*)\n?$")
# Shell snippets run as the agent uid inside the container. They use only dash
# builtins (no fork), so they still work when the agent has exhausted the pids limit.
# oom_read(var) sets $var to the cgroup's oom_kill counter (empty if unreadable).


def _oom_read(var: str) -> str:
    return (
        f'{var}=; while read -r key val; do [ "$key" = oom_kill ] && {var}=$val; done '
        "< /sys/fs/cgroup/memory/memory.oom_control 2>/dev/null"
    )


OOM_COUNT = _oom_read("c") + "; printf '%s' \"$c\""
# AGENT_ONLY: `continue` unless the process of /proc entry $d has real uid $u.
AGENT_ONLY = (
    'id=; while read -r key id rest; do [ "$key" = Uid: ] && break; done '
    '2>/dev/null < "$d/status" || continue; [ "$id" = "$u" ] || continue; '
)
# SWEEP ($1 = the interpreter's pid, 0 if none; $2 = the agent uid), run as root: stop
# every process of the agent uid but the interpreter until a pass finds nothing new to
# stop, so a fork bomb cannot outrun it, then kill them all. The agent cannot signal it.
SWEEP = (
    'k="$1"; u="$2"; r=0; new=1; '
    'while [ "$new" -gt 0 ] && [ "$r" -lt 200 ]; do new=0; r=$((r+1)); '
    'for d in /proc/[0-9]*; do p=${d#/proc/}; [ "$p" = "$k" ] && continue; '
    f"{AGENT_ONLY}"
    'line=; read -r line < "$d/stat" 2>/dev/null || continue; set -- ${line##*) }; '
    'case "$1" in T|t) continue;; esac; '
    'kill -STOP "$p" 2>/dev/null && new=$((new+1)); done; done; '
    'for d in /proc/[0-9]*; do p=${d#/proc/}; [ "$p" = "$k" ] && continue; '
    f'{AGENT_ONLY}kill -KILL "$p" 2>/dev/null; done'
)
# KILL_SESSION ($1 = a session id): kill every process of that session.
KILL_SESSION = (
    'for d in /proc/[0-9]*; do line=; read -r line < "$d/stat" 2>/dev/null || continue; '
    'set -- ${line##*) }; [ "$4" = "$K" ] && kill -KILL "${d#/proc/}" 2>/dev/null; done'
)
# WRAPPER ($1 = interpreter pid, $2 = agent uid, $3 = CPU seconds, then the argv to
# run: DROP + sh -c command, or a supervisor in front of that), run as root: run the
# argv under the CPU-time limit, sweep what it left, and print a trailer with the exit
# status and the OOM counter before and after.
WRAPPER = (
    f'{_oom_read("o")}; k="$1"; u="$2"; t="$3"; shift 3; '
    '(ulimit -S -t "$t" && ulimit -H -t "$((t + 2))" && exec "$@") </dev/null 2>&1; '
    f'rc=$?; set -- "$k" "$u"; {SWEEP}; '
    f'{_oom_read("n")}; printf \'\\n{MARK}%s %s %s\\n\' "$rc" "$o" "$n"'
)
#: after dropping to the agent uid, enter /workspace (root without CAP_DAC_* may not)
CD_WORKSPACE = ("/bin/sh", "-c", f'cd {WORKSPACE} && exec "$@"', "mle-gym-cd")


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


def _hijacked_exec_start(client: Any, exec_id: str) -> tuple[socket.socket, bytes] | None:
    """Start an exec over a connection we own: (socket, bytes already received), or None
    for transports other than a unix socket or plain TCP.

    docker-py's ``exec_start(socket=True)`` hands back the socket *behind* the HTTP
    layer's read buffer, so stream bytes that arrived with the response headers are
    lost (seen over TCP). Here the upgrade request is written and its response read by
    hand, and whatever follows the headers is kept.
    """
    api = client.api
    adapter = getattr(api, "_custom_adapter", None)
    path = getattr(adapter, "socket_path", None)
    if path:
        sock = socket.socket(socket.AF_UNIX)
        sock.settimeout(30)
        sock.connect(path)
        host = "docker"
    elif api.base_url.startswith("http://"):
        hostport = api.base_url[len("http://") :].rstrip("/")
        name, _, port = hostport.rpartition(":")
        sock = socket.create_connection((name or hostport, int(port or 2375)), timeout=30)
        host = hostport
    else:
        return None
    body = b'{"Detach": false, "Tty": false}'
    request = (
        f"POST /v{api._version}/exec/{exec_id}/start HTTP/1.1\r\nHost: {host}\r\n"
        "Content-Type: application/json\r\nConnection: Upgrade\r\nUpgrade: tcp\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode() + body
    sock.sendall(request)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            sock.close()
            raise SandboxError("the Docker engine closed the connection while starting a command")
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    status = head.split(b"\r\n", 1)[0].decode(errors="replace")
    if " 101 " not in status and " 200 " not in status:
        sock.close()
        raise SandboxError(f"the Docker engine refused to start a command: {status}")
    return sock, rest


class _ExecStream:
    """Reads docker's multiplexed exec/attach stream (8-byte frame headers) from a socket."""

    def __init__(self, sock: Any, pending: bytes = b"") -> None:
        self.raw: socket.socket = getattr(sock, "_sock", sock)
        self._buf = bytearray(pending)
        self._pos = 0

    def _fill(self, n: int, deadline: float) -> bool:
        """Make ``n`` unread bytes available; False at end of stream."""
        while len(self._buf) - self._pos < n:
            if self._pos > (1 << 20):
                del self._buf[: self._pos]
                self._pos = 0
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            self.raw.settimeout(min(remaining, 1.0))
            try:
                chunk = self.raw.recv(1 << 18)
            except TimeoutError:
                continue
            except OSError:
                return False
            if not chunk:
                return False
            self._buf += chunk
        return True

    def frame(self, deadline: float) -> tuple[int, bytes] | None:
        """Next (stream id, payload), or None at end of stream."""
        if not self._fill(8, deadline):
            return None
        p = self._pos
        stream = self._buf[p]
        (size,) = struct.unpack_from(">I", self._buf, p + 4)
        if not self._fill(8 + size, deadline):
            return None
        p = self._pos
        payload = bytes(self._buf[p + 8 : p + 8 + size])
        self._pos = p + 8 + size
        return stream, payload

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.raw.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(OSError):
            self.raw.close()


class DockerProcess(SpawnedProcess):
    """A long-lived exec (the Python interpreter) with stdin attached."""

    def __init__(self, sandbox: DockerSandbox, exec_id: str, stream: _ExecStream) -> None:
        self.sandbox = sandbox
        self.exec_id = exec_id
        self.stream = stream
        self._pending = b""
        self._eof = False
        self.sid: int | None = None

    def write(self, data: bytes, deadline: float | None = None) -> None:
        self.sandbox._check_not_frozen()
        if self._eof:
            raise BrokenPipeError("the process has ended")
        remaining = 30.0 if deadline is None else deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("the process did not read its input before the deadline")
        self.stream.raw.settimeout(remaining)  # sendall: the total time for all the data
        self.stream.raw.sendall(data)

    def read(self, n: int, deadline: float) -> bytes:
        while not self._pending:
            if self._eof:
                return b""
            frame = self.stream.frame(deadline)
            if frame is None:
                self._eof = True
                return b""
            kind, payload = frame
            if kind == 1:
                self._pending += payload
            else:
                log.debug("interpreter stderr: %r", payload[:500])
        data, self._pending = self._pending[:n], self._pending[n:]
        return data

    def kill(self) -> None:
        if self.sid and not self.sandbox.closed:
            self.sandbox._kill_session(self.sid)
            if self.sandbox._kernel_sid == self.sid:
                self.sandbox._kernel_sid = 0
        self.sid = None
        self._eof = True
        self.stream.close()

    def exit_status(self) -> int | None:
        try:
            info = self.sandbox.client.api.exec_inspect(self.exec_id)
        except Exception:
            return None
        if info.get("Running"):
            return None
        return info.get("ExitCode")


class DockerSandbox(Sandbox):
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
            self.client.images.get(self.image)
        except docker.errors.ImageNotFound:
            raise SandboxUnavailable(
                f"docker image {self.image!r} not found. Build it without a registry with "
                f"`mle-gym sandbox build` (or `docker build -f envs/Dockerfile -t {self.image} .`)"
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
        threads = str(max(1, int(self.limits.cpus)))
        env = {
            "PATH": PATH_IN_IMAGE,
            "HOME": WORKSPACE,
            "USER": "agent",
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            "TMPDIR": "/tmp",
            "TERM": "dumb",
            "PYTHONUNBUFFERED": "1",
            "MPLBACKEND": "Agg",
            "MPLCONFIGDIR": "/tmp/matplotlib",
            "OMP_NUM_THREADS": threads,
            "OPENBLAS_NUM_THREADS": threads,
            "MKL_NUM_THREADS": threads,
        }
        env.update(extra)
        return env

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
            stream.close()
            if timed_out or output_limited:
                self._sweep()
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
        deadline = time.monotonic() + 30
        frame = proc.stream.frame(deadline)
        first = frame[1].split(b"\n", 1)[0].strip() if frame and frame[0] == 2 else b""
        if not first.isdigit():
            proc.kill()
            said = frame[1][:200] if frame else b"nothing"
            raise SandboxError(f"could not start {argv[0]!r} in the container (it said {said!r})")
        proc.sid = int(first)
        self._kernel_sid = proc.sid
        self._kernel_host = None
        self._spawned.append(proc)
        return proc

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

    def _host_strays(self, pids: list[int]) -> list[int]:
        keep = self._kernel_key(pids)
        strays = []
        for pid in pids:
            p = hostprocs.info(pid)
            if p is None or p.uid != self.uid or (p.pid, p.start) == keep:
                continue
            strays.append(pid)
        return strays

    def _host_sweep(self) -> bool:
        """Kill every agent process but the interpreter from the host: freeze the
        container's cgroup, SIGKILL, thaw, wait. False if the cgroup is not visible."""
        pids = self._host_procs()
        if pids is None:
            return False
        if not self._host_strays(pids):
            return True
        freezer = self._groups().get("freezer")
        killed: set[int] = set()
        for _ in range(20):
            frozen = freezer is not None and cgroups.freeze_group(freezer)
            try:
                strays = self._host_strays(self._host_procs() or [])
                hostprocs.kill_all(strays)
                killed.update(strays)
            finally:
                if frozen and freezer is not None:
                    cgroups.thaw_group(freezer)
            if frozen or not strays:
                break
        left = hostprocs.wait_gone(killed, SWEEP_WAIT_S)
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
