"""The local backend: one bubblewrap sandbox per episode, commands run by its PID 1.

Isolation (each verified by tests/test_sandbox_local.py):

* its own mount, pid, network, ipc and uts namespaces: only ``/usr``, a few
  ``/etc`` files, the Python runtime (read-only, mle_gym itself masked but for
  the command server's source, :data:`SERVER_IN_SANDBOX`), the
  workspace (read-write) and the task's public data (read-only) are visible;
  the private answers, the cache, ``/root``, ``/home`` and the host's processes
  are simply absent; only a loopback-less empty network exists;
* as root, commands run as an unprivileged host uid leased for this sandbox
  alone, with no capabilities and ``no_new_privs``;
* a seccomp filter (:mod:`mle_gym.sandbox.seccomp`, bubblewrap's ``--seccomp``)
  denies the kernel keyrings, which no namespace isolates (a key would outlive the
  episode for the next one on the same uid), plus ``io_uring``, ``bpf``,
  ``perf_event_open``, ``userfaultfd`` and new namespaces;
* limits: memory, process count and CPU share by cgroup (v1) when available,
  else address-space and process rlimits; CPU seconds per process by
  RLIMIT_CPU; a wall timeout and an output cap kill the whole process tree;
* nothing the agent starts outlives the step: when a command ends, the
  sandbox's PID 1 (:mod:`mle_gym.sandbox.exec_server`) kills and reaps every
  other process of the pid namespace (PID 1 cannot be killed, stopped or traced
  from inside: ``kill -9 $PPID`` is a no-op); ``--die-with-parent`` kills the
  sandbox if the host dies. What a ``python`` cell starts is killed by
  :meth:`LocalSandbox.sweep_leftovers` from the host: the episode's freezer
  cgroup is frozen, every process of the sandbox uid but the interpreter and the
  command server is SIGKILLed, and the group thawed;
* :meth:`~mle_gym.sandbox.base.Sandbox.frozen` freezes the same cgroup (or, if
  that fails, kills every agent process);
* ``exec(..., supervisor=argv)`` runs ``argv`` as root, with ``CAP_SYS_PTRACE``,
  ``CAP_SETUID``, ``CAP_SETGID`` and ``CAP_SETPCAP`` only, in a fresh pid namespace
  with the episode's mounts, cgroup and limits (and a private ``/tmp``), followed by
  the argv that drops to the sandbox uid and runs the command
  (see :meth:`LocalSandbox.exec`).

The sandbox is started when the episode's sandbox object is created and lives
until ``close()``; a command is ``/bin/sh -c <command>`` with cwd ``/workspace``,
forked by the server, so it costs a fork and an exec rather than new namespaces,
mounts and cgroup joins (`mle-gym bench` measures it next to a plain
subprocess). ``/tmp`` lasts for the episode, as in the docker backend. If the
server dies (or a timed-out command cannot be stopped), the sandbox is killed
and the next command starts a fresh one. The persistent Python interpreter
(``spawn``) runs in a sandbox of its own with the same isolation and limits.

Freezing and sweeping from the host are in :mod:`~mle_gym.sandbox.local_control`.
"""

from __future__ import annotations

import logging
import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import threading
import uuid
from collections.abc import Sequence
from pathlib import Path

from mle_gym.sandbox import cgroups, hostfs, hostprocs, seccomp, spawner
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
from mle_gym.sandbox.exec_client import CommandOutcome, ExecServer, ServerDied
from mle_gym.sandbox.local_control import SWEEP_WAIT_S, LocalControl
from mle_gym.sandbox.process import LocalProcess, run_captured
from mle_gym.sandbox.runtime import ETC_DIRS, ETC_FILES, TOP_LEVEL_LINKS, Runtime, detect_runtime
from mle_gym.sandbox.uids import UidLease

log = logging.getLogger(__name__)

#: capabilities of a supervisor (``exec(..., supervisor=...)``): tracing the command,
#: and what the argv dropping to the sandbox uid needs
SUPERVISOR_CAPS = ("CAP_SYS_PTRACE", "CAP_SETUID", "CAP_SETGID", "CAP_SETPCAP")
#: after dropping to the sandbox uid, enter /workspace (root without CAP_DAC_* may not)
CD_WORKSPACE = ("/bin/sh", "-c", f'cd {WORKSPACE} && exec "$@"', "mle-gym-cd")
#: the command server's source on the host, and where the sandbox sees it (read-only), so
#: that its command line is ``python -I -S /run/mle-gym/exec_server.py``
SERVER_FILE = Path(__file__).with_name("exec_server.py")
SERVER_IN_SANDBOX = "/run/mle-gym/exec_server.py"
#: the descriptor on which the launcher opens bwrap's options (``bwrap --args``): they stay
#: out of argv, so ``ps`` shows a short line and no environment value
ARGS_FD = 8

INSTALL_HINT = (
    "bubblewrap (bwrap) is required by the default 'local' sandbox but was not found on PATH. "
    "Install it (Debian/Ubuntu: `apt-get install bubblewrap`; Fedora: `dnf install bubblewrap`), "
    "or choose another backend with gym.make(..., sandbox=...). "
    "sandbox='unsafe-local' runs agent code WITHOUT isolation (debugging only)."
)


def find_tool(name: str) -> str:
    """Absolute path of a required host tool, or SandboxUnavailable naming the fix."""
    path = shutil.which(name)
    if path is None:
        if name == "bwrap":
            raise SandboxUnavailable(INSTALL_HINT)
        raise SandboxUnavailable(f"'{name}' (util-linux) is required by the local sandbox")
    return path


def _parents(target: str) -> list[str]:
    parts = Path(target).parts[1:-1]
    return ["/" + "/".join(parts[: i + 1]) for i in range(len(parts))]


class LocalSandbox(LocalControl):
    """bubblewrap backend; see the module docstring."""

    kind = "local"

    def __init__(
        self,
        workspace: Path,
        data: Path | None,
        limits: SandboxLimits,
        *,
        runtime: Runtime | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        super().__init__(workspace, data, limits)
        self._bwrap = find_tool("bwrap")
        self._prlimit = find_tool("prlimit")
        self._privileged = os.geteuid() == 0
        self._setpriv = find_tool("setpriv") if self._privileged else None
        self._runtime = runtime or detect_runtime()
        self._lease: UidLease | None = None
        self._cgroups: cgroups.CgroupSet | None = None
        self._etc_dir = _new_etc_dir()
        self._spawned: list[LocalProcess] = []
        #: host (pid, start time) of each live interpreter process, found lazily
        self._anchors: dict[int, hostprocs.ProcInfo] = {}
        self._server: ExecServer | None = None
        self._exec_lock = threading.Lock()
        try:
            if self._privileged:
                self._lease = UidLease()
                self.uid = self.gid = self._lease.uid
                self._chown_tree(workspace)
                if cgroups.available():
                    try:
                        self._cgroups = cgroups.CgroupSet.create(
                            uuid.uuid4().hex[:12],
                            memory_mb=limits.memory_mb,
                            pids=limits.pids,
                            cpus=limits.cpus,
                        )
                    except OSError as exc:
                        log.warning("cgroups unavailable (%s); using rlimits instead", exc)
            else:
                self.uid, self.gid = os.getuid(), os.getgid()
            self._write_etc()
            self._env = self._sandbox_env(env or {})
            self._build_prefix()
            self._server = self._start_server()  # starts in the background
        except BaseException:
            self.close()
            raise

    # -- setup -------------------------------------------------------------------------------

    @property
    def file_owner(self) -> tuple[int, int] | None:
        return (self.uid, self.gid) if self._privileged else None

    @property
    def limits_mode(self) -> str:
        """'cgroup' if memory/pids are enforced by cgroups, else 'rlimit'."""
        return "cgroup" if self._cgroups is not None else "rlimit"

    def _chown_tree(self, root: Path) -> None:
        hostfs.chown_tree(root, self.uid, self.gid, exclude_top=("data",))  # no link followed

    def _write_etc(self) -> None:
        (self._etc_dir / "passwd").write_text(
            f"root:x:0:0:root:/nonexistent:/usr/sbin/nologin\n"
            f"agent:x:{self.uid}:{self.gid}:agent:{WORKSPACE}:/bin/sh\n"
            f"nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n"
        )
        (self._etc_dir / "group").write_text(f"root:x:0:\nagent:x:{self.gid}:\nnogroup:x:65534:\n")
        (self._etc_dir / "hostname").write_text("sandbox\n")
        (self._etc_dir / "hosts").write_text("127.0.0.1 localhost sandbox\n")
        for f in self._etc_dir.iterdir():
            f.chmod(0o644)

    def _sandbox_env(self, extra: dict[str, str]) -> dict[str, str]:
        return agent_environment(
            self._runtime.path, self.limits.cpus, extra, LOGNAME="agent", SHELL="/bin/sh"
        )

    def _rlimits(self, cpu_limit: bool) -> list[str]:
        lim = self.limits
        rl = [self._prlimit, "--core=0"]
        if cpu_limit:
            rl.append(f"--cpu={lim.cpu_time_s}:{lim.cpu_time_s + 2}")
        if self._cgroups is None:
            rl.append(f"--as={lim.memory_mb * 2**20}")
            nproc = lim.pids if self._privileged else lim.pids + _count_user_processes()
            rl.append(f"--nproc={nproc}")
        else:
            rl.append(f"--nproc={lim.pids}")
        rl.append("--")
        return rl

    def _argv(self, inner: list[str], *, cpu_limit: bool = True) -> list[str]:
        """The full host command line running ``inner`` inside the sandbox."""
        return [*self._join, *self._rlimits(cpu_limit), *self._bwrap_args, *inner]

    def _build_prefix(self) -> None:
        lim = self.limits

        b = [self._bwrap]
        # Private /tmp, /proc and /dev first: binds below may live under /tmp on the host
        # (a venv in a temporary folder) and must not be hidden by the tmpfs.
        b += ["--perms", "1777", "--size", str(lim.tmp_mb * 2**20), "--tmpfs", "/tmp"]
        b += ["--proc", "/proc", "--dev", "/dev"]
        b += ["--perms", "1777", "--size", str(256 * 2**20), "--tmpfs", "/dev/shm"]
        targets = [WORKSPACE, DATA_DIR, *self._runtime.ro_dirs, "/etc/passwd", SERVER_IN_SANDBOX]
        parents = sorted({p for t in targets for p in _parents(t)}, key=lambda p: (len(p), p))
        for p in parents:
            if p not in ("/dev", "/tmp", "/proc"):
                b += ["--perms", "0755", "--dir", p]
        b += ["--ro-bind", "/usr", "/usr"]
        for link in TOP_LEVEL_LINKS:
            if os.path.islink(link):
                b += ["--symlink", os.readlink(link), link]
            elif os.path.isdir(link):
                b += ["--ro-bind", link, link]
        for f in ETC_FILES:
            b += ["--ro-bind-try", f, f]
        for d in ETC_DIRS:
            b += ["--ro-bind-try", d, d]
        for name in ("passwd", "group", "hostname", "hosts"):
            b += ["--ro-bind", str(self._etc_dir / name), f"/etc/{name}"]
        for d in self._runtime.ro_dirs:
            b += ["--ro-bind", d, d]
        for d in self._runtime.masked:
            b += ["--tmpfs", d, "--remount-ro", d]
        b += ["--ro-bind", str(SERVER_FILE), SERVER_IN_SANDBOX]
        b += ["--bind", str(self.workspace), WORKSPACE]
        if self.data is not None:
            b += ["--ro-bind", str(self.data), DATA_DIR]
        b += ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts"]
        b += ["--unshare-cgroup-try", "--hostname", "sandbox"]
        if not self._privileged:
            b += ["--unshare-user", "--disable-userns"]
        b += ["--die-with-parent", "--new-session", "--chdir", WORKSPACE, "--clearenv"]
        for k, v in self._env.items():
            b += ["--setenv", k, v]
        b += ["--seccomp", str(seccomp.BWRAP_FD)]  # opened by the launcher (_launcher)
        b += ["--"]
        self._drop: list[str] = []
        if self._privileged:
            assert self._setpriv is not None
            self._drop = [
                self._setpriv,
                f"--reuid={self.uid}",
                f"--regid={self.gid}",
                "--clear-groups",
                "--inh-caps=-all",
                "--bounding-set=-all",
                "--no-new-privs",
                "--",
            ]
        self._bwrap_core = b
        self._args_file = _write_args(self._etc_dir / "bwrap.args", b[1:-1])
        self._bwrap_args = [b[0], "--args", str(ARGS_FD), "--", *self._drop]
        self._seccomp_file = self._etc_dir / "seccomp.bpf"
        self._seccomp_file.write_bytes(seccomp.local_filter())
        self._join = self._launcher()

    def _launcher(self, prelude: str = "", *, args: bool = True) -> list[str]:
        """The host-side shell every sandbox starts through: it joins the episode's cgroups
        and opens the seccomp filter (see :mod:`mle_gym.sandbox.seccomp`) on
        ``seccomp.BWRAP_FD`` and, with ``args``, bwrap's options file on :data:`ARGS_FD`
        (bwrap reads and closes both), then execs its arguments. ``prelude`` runs first."""
        steps = [prelude] if prelude else []
        if self._cgroups is not None:
            steps += [f"echo $$ > {f}" for f in self._cgroups.procs_files]
        steps.append(f"exec {seccomp.BWRAP_FD}< {shlex.quote(str(self._seccomp_file))}")
        if args:
            steps.append(f"exec {ARGS_FD}< {shlex.quote(str(self._args_file))}")
        return ["/bin/sh", "-c", " && ".join(steps) + ' && exec "$@"', "mle-gym-join"]

    def _server_argv(self, info_fd: int) -> list[str]:
        """The host command line of the episode's long-lived sandbox: bwrap with the
        command server as PID 1, reporting PID 1's host pid on ``info_fd``."""
        bwrap, rest = self._bwrap_args[0], self._bwrap_args[1:]
        server = [self._runtime.python, "-I", "-S", SERVER_IN_SANDBOX]
        launcher = self._join
        if info_fd in (seccomp.BWRAP_FD, ARGS_FD):  # one the launcher opens: move the pipe
            launcher = self._launcher(f"exec 7>&{info_fd}")  # 7: neither of them
            info_fd = 7
        return [
            *launcher,
            *self._rlimits(cpu_limit=False),
            bwrap,
            "--as-pid-1",
            "--info-fd",
            str(info_fd),
            *rest,
            *server,
        ]

    def _start_server(self) -> ExecServer:
        self._ensure_mountpoint()
        return ExecServer(
            self._server_argv,
            log_path=self._etc_dir / "sandbox.log",
            env={"PATH": "/usr/bin:/bin:/usr/sbin:/sbin"},
        )

    # -- running -----------------------------------------------------------------------------

    def _ensure_mountpoint(self) -> None:
        """workspace/data is a real folder (whatever the agent put there is removed,
        through the workspace's fd: never followed)."""
        if self.data is not None:
            hostfs.ensure_dir(self.workspace, "data")

    def exec(
        self, command: str, timeout_s: float, *, supervisor: Sequence[str] | None = None
    ) -> ExecResult:
        """Run ``command`` (see :meth:`Sandbox.exec`).

        With ``supervisor`` (an argv), run ``supervisor + DROP + ["/bin/sh", "-c",
        command]`` instead, where DROP drops to the sandbox uid (setpriv, no
        capabilities, no_new_privs): the supervisor runs as root with only
        :data:`SUPERVISOR_CAPS`, in a fresh pid namespace with the episode's mounts,
        cgroup and limits and its own private ``/tmp``, in ``/`` (the command in
        ``/workspace``); its exit status is the result's; output, timeout and output
        cap are as for a command; everything it started is gone when this returns.
        Needs a root host process.
        """
        if self.closed:
            raise SandboxError("sandbox is closed")
        self._check_not_frozen()
        if supervisor is not None:
            supervisor = check_supervisor(supervisor)
            if not self._privileged:
                raise SandboxError("a supervised command needs the host process to be root")
        try:
            encoded = os.fsencode(command)
        except UnicodeEncodeError as exc:
            message = f"mle-gym: the command cannot be run: it is not valid text ({exc.reason})\n"
            return ExecResult(
                exit_code=2, head=message.encode(), tail=b"", output_bytes=0, duration_s=0.0
            )
        with self._exec_lock:
            ooms_before = self._cgroups.oom_kills() if self._cgroups else 0
            if supervisor is None:
                out = self._run_on_server(encoded, timeout_s)
            else:
                out = self._run_supervised(supervisor, command, timeout_s)
            oom = bool(self._cgroups and self._cgroups.oom_kills() > ooms_before)
        rc = out.returncode
        if out.server_died:
            rc = 128 + signal.SIGKILL  # the sandbox itself was killed under the command
        sig = None
        if rc is not None and rc > 128 and rc - 128 < signal.NSIG:
            sig = rc - 128
        return ExecResult(
            exit_code=rc,
            head=out.head,
            tail=out.tail,
            output_bytes=out.total,
            duration_s=out.duration_s,
            timed_out=out.timed_out,
            oom_killed=oom and not out.timed_out,
            cpu_limited=sig == signal.SIGXCPU,
            output_limited=out.output_limited,
            signal=sig,
        )

    def _run_on_server(self, command: bytes, timeout_s: float) -> CommandOutcome:
        """Run on the episode's sandbox, starting a fresh one if the last one is gone."""
        for attempt in (1, 2):
            if self._server is None or not self._server.alive:
                self._server = self._start_server()
            try:
                return self._server.run(
                    command,
                    cpu_time_s=self.limits.cpu_time_s,
                    timeout_s=timeout_s,
                    max_output_bytes=self.limits.max_output_bytes,
                )
            except ServerDied as exc:
                log.warning("local sandbox unusable (%s); starting a new one", exc)
                if attempt == 2:
                    raise SandboxError(f"the local sandbox cannot run commands: {exc}") from None
        raise AssertionError("unreachable")

    def _run_supervised(
        self, supervisor: list[str], command: str, timeout_s: float
    ) -> CommandOutcome:
        """Run ``supervisor + DROP + sh -c command`` as root in a fresh sandbox."""
        self._ensure_mountpoint()
        caps = ["--cap-drop", "ALL"]
        for cap in SUPERVISOR_CAPS:
            caps += ["--cap-add", cap]
        core = list(self._bwrap_core)
        at = core.index("--chdir")
        core[at + 1] = "/"  # root has no CAP_DAC_*: the dropped child enters /workspace
        argv = [
            *self._launcher(args=False),
            *self._rlimits(cpu_limit=True),
            *core[:-1],
            *caps,
            "--",
            *supervisor,
            *self._drop,
            *CD_WORKSPACE,
            "/bin/sh",
            "-c",
            command,
        ]
        out = run_captured(
            argv,
            timeout_s=timeout_s,
            max_output_bytes=self.limits.max_output_bytes,
            env={"PATH": "/usr/bin:/bin:/usr/sbin:/sbin"},
        )
        return CommandOutcome(
            returncode=out.returncode,
            head=out.head,
            tail=out.tail,
            total=out.total,
            duration_s=out.duration_s,
            timed_out=out.timed_out,
            output_limited=out.output_limited,
        )

    def spawn(self, argv: list[str]) -> SpawnedProcess:
        if self.closed:
            raise SandboxError("sandbox is closed")
        self._check_not_frozen()
        self._ensure_mountpoint()
        proc = spawner.popen(
            self._argv(list(argv), cpu_limit=False),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            close_fds=True,
            env={"PATH": "/usr/bin:/bin:/usr/sbin:/sbin"},
        )
        spawned = LocalProcess(proc, guard=self._check_not_frozen)
        self._spawned = [p for p in self._spawned if p.proc.poll() is None]
        self._spawned.append(spawned)
        return spawned

    def oom_kills(self) -> int | None:
        return self._cgroups.oom_kills() if self._cgroups is not None else None

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        if self._cgroups is not None:
            self._cgroups.thaw()
        for spawned in self._spawned:
            spawned.kill()
        self._spawned.clear()
        if self._server is not None:
            self._server.kill()
            self._server = None
        if self._cgroups is not None:
            self._cgroups.remove()
            self._cgroups = None
        if self._lease is not None:
            self._lease.release()
            self._lease = None
        shutil.rmtree(self._etc_dir, ignore_errors=True)


_ETC_DIR = re.compile(r"mle_gym-etc\.pid(\d+)\.")


def _write_args(path: Path, args: list[str]) -> Path:
    """Write ``args`` as bwrap's ``--args`` reads them (NUL-terminated), private to the
    host user (they include the sandbox's environment); return ``path``."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(b"".join(os.fsencode(a) + b"\0" for a in args))
    return path


def _new_etc_dir() -> Path:
    """A fresh temporary folder for a sandbox's ``/etc`` files and log, named after this
    process; the folders of host processes that died (SIGKILL, no ``close()``) are
    removed on the way."""
    tmp = Path(tempfile.gettempdir())
    for entry in tmp.glob("mle_gym-etc.pid*"):
        m = _ETC_DIR.match(entry.name)
        if m is None or int(m.group(1)) == os.getpid():
            continue
        try:
            os.kill(int(m.group(1)), 0)
        except ProcessLookupError:
            shutil.rmtree(entry, ignore_errors=True)
        except PermissionError:
            pass  # alive, as another user
    return Path(tempfile.mkdtemp(prefix=f"mle_gym-etc.pid{os.getpid()}.", dir=tmp))


def _count_user_processes() -> int:
    uid = os.getuid()
    count = 0
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                if entry.stat().st_uid == uid:
                    count += 1
            except OSError:
                continue
    return count


__all__ = [
    "CD_WORKSPACE",
    "INSTALL_HINT",
    "SUPERVISOR_CAPS",
    "SWEEP_WAIT_S",
    "LocalSandbox",
    "find_tool",
]
