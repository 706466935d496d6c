"""The sandbox protocol shared by every backend.

A :class:`Sandbox` owns one episode's workspace. Inside it, the workspace is
``/workspace`` (the working directory) and the task's public data is
``/workspace/data`` (read-only). Nothing else of the host is visible but a
read-only runtime (``/usr`` and the Python environment). Private answers and
grader code are never inside.

``exec`` runs one shell command with a wall timeout that kills the whole
process tree, and reports how it ended (:class:`ExecResult`). ``close`` removes
every process the sandbox started; it is idempotent.
"""

from __future__ import annotations

import abc
import contextlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from mle_gym.errors import SetupError

WORKSPACE = "/workspace"
DATA_DIR = "/workspace/data"


def check_supervisor(supervisor: Sequence[str]) -> list[str]:
    """The supervisor argv of a supervised ``exec`` as a list, or ValueError saying why not."""
    if isinstance(supervisor, str | bytes):
        raise ValueError("supervisor must be a sequence of arguments, not a string")
    argv = list(supervisor)
    if not argv or not all(isinstance(a, str) for a in argv):
        raise ValueError("supervisor must be a non-empty sequence of str arguments")
    return argv


def agent_environment(
    path: str, cpus: float, extra: Mapping[str, str], **more: str
) -> dict[str, str]:
    """The environment every agent process starts with (built from scratch, never the
    host's): ``PATH``, the agent's home and user, ``more`` (backend-specific additions, e.g.
    ``LOGNAME``), the locale, headless plotting and one math-library thread per CPU of
    ``cpus``; ``extra`` (the caller's) overrides any of them."""
    threads = str(max(1, int(cpus)))
    env = {
        "PATH": path,
        "HOME": WORKSPACE,
        "USER": "agent",
        **more,
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


class SandboxError(SetupError):
    """The sandbox could not be created or used (a setup problem, not agent behaviour)."""


class SandboxUnavailable(SandboxError):
    """The requested backend cannot run on this machine; the message says how to fix it."""


@dataclass(frozen=True)
class Mount:
    """A host directory exposed at ``target`` inside the sandbox."""

    host: Path
    target: str
    writable: bool


@dataclass(frozen=True)
class SandboxLimits:
    """Resource limits applied to everything the agent runs.

    memory_mb: memory (+swap) of the whole command tree (cgroup) or per process
        address space (fallback); pids: processes of the episode at once;
    cpus: CPU cores worth of time per wall second (cgroup quota, if available);
    cpu_time_s: CPU seconds per process (RLIMIT_CPU; killed by SIGXCPU);
    max_output_bytes: a command producing more output than this is killed;
    tmp_mb: size of the private /tmp.
    """

    memory_mb: int = 4096
    pids: int = 512
    cpus: float = 1.0
    cpu_time_s: int = 3600
    max_output_bytes: int = 64 * 2**20
    tmp_mb: int = 1024


@dataclass(frozen=True)
class ExecResult:
    """How one command ended.

    ``head``/``tail`` are the first and last bytes of the combined stdout and
    stderr (``tail`` is empty when everything fits in ``head``); ``output_bytes``
    is the total produced. ``exit_code`` is None when the command was killed by
    us (timeout, output limit); ``signal`` names the signal that ended it, if any.
    """

    exit_code: int | None
    head: bytes
    tail: bytes
    output_bytes: int
    duration_s: float
    timed_out: bool = False
    oom_killed: bool = False
    cpu_limited: bool = False
    output_limited: bool = False
    signal: int | None = None

    @property
    def ok(self) -> bool:
        """True if the command ran to completion with exit status 0."""
        return self.exit_code == 0 and not (
            self.timed_out or self.oom_killed or self.output_limited or self.cpu_limited
        )

    @property
    def killed_reason(self) -> str | None:
        """A short phrase saying why the command was killed, or None."""
        if self.timed_out:
            return "wall-clock timeout"
        if self.oom_killed:
            return "out of memory (memory limit reached)"
        if self.cpu_limited:
            return "CPU-time limit reached"
        if self.output_limited:
            return "output limit exceeded"
        return None


class SpawnedProcess(abc.ABC):
    """A long-lived process inside a sandbox with binary stdin/stdout pipes (e.g. the kernel)."""

    @abc.abstractmethod
    def write(self, data: bytes, deadline: float | None = None) -> None:
        """Send bytes to the process's stdin; raise BrokenPipeError if it is gone, and
        TimeoutError if not all were taken by ``deadline`` (a ``time.monotonic()`` value;
        None: 30 s from now). A process that stops reading never blocks the caller."""

    @abc.abstractmethod
    def read(self, n: int, deadline: float) -> bytes:
        """Up to ``n`` bytes of stdout; b"" at end of file; TimeoutError past ``deadline``
        (a ``time.monotonic()`` value)."""

    @abc.abstractmethod
    def kill(self) -> None:
        """Kill the process and everything it started (idempotent)."""

    @abc.abstractmethod
    def exit_status(self) -> int | None:
        """The exit status once it has ended (128+N if killed by signal N), else None."""


class Sandbox(abc.ABC):
    """One episode's isolated execution environment (see module docstring)."""

    #: backend name, e.g. "local"
    kind: str = "abstract"

    def __init__(self, workspace: Path, data: Path | None, limits: SandboxLimits) -> None:
        self.workspace = workspace
        self.data = data
        self.limits = limits
        self.closed = False
        self._frozen_depth = 0

    @property
    def mounts(self) -> list[Mount]:
        """Host directories visible inside, most specific first."""
        mounts = []
        if self.data is not None:
            mounts.append(Mount(self.data, DATA_DIR, writable=False))
        mounts.append(Mount(self.workspace, WORKSPACE, writable=True))
        return mounts

    @property
    def file_owner(self) -> tuple[int, int] | None:
        """(uid, gid) that files the host writes into the workspace must get, or None."""
        return None

    @abc.abstractmethod
    def exec(
        self, command: str, timeout_s: float, *, supervisor: Sequence[str] | None = None
    ) -> ExecResult:
        """Run ``command`` with ``/bin/sh -c`` in /workspace; never raises on agent behaviour.

        ``supervisor`` (an argv) runs ``supervisor + DROP + ["/bin/sh", "-c", command]``
        instead, as root with ``CAP_SYS_PTRACE`` and what DROP needs, inside the same
        sandbox; DROP is the backend's argv dropping to the sandbox uid (no
        capabilities, no_new_privs). The supervisor's exit status is the result's; the
        output, timeout and caps are those of a command. Raises :class:`SandboxError`
        if the sandbox is closed or frozen, ValueError if ``supervisor`` is malformed.
        """

    @abc.abstractmethod
    def spawn(self, argv: list[str]) -> SpawnedProcess:
        """Start a long-lived process in the sandbox (same isolation and limits as ``exec``,
        except the per-process CPU-time limit); it lives until killed or ``close()``."""

    @contextlib.contextmanager
    def frozen(self) -> Iterator[None]:
        """Stop every agent process of the episode while the host touches the workspace.

        Inside the block no process the agent started (commands, the interpreter, anything
        they started) runs, so none can swap a link or rewrite a file under the host's
        feet; ``exec`` and ``spawn`` raise :class:`SandboxError`. Blocks nest. If a backend
        cannot stop the processes, it kills them instead (:meth:`_freeze` never returns
        with agent processes running). Leaving the outermost block resumes them.
        """
        if self.closed:
            yield
            return
        if self._frozen_depth == 0:
            self._freeze()
        self._frozen_depth += 1
        try:
            yield
        finally:
            self._frozen_depth -= 1
            if self._frozen_depth == 0 and not self.closed:
                self._thaw()

    @property
    def is_frozen(self) -> bool:
        """Whether a :meth:`frozen` block is open."""
        return self._frozen_depth > 0

    def _check_not_frozen(self) -> None:
        """Raise :class:`SandboxError` if agent processes must not start now."""
        if self._frozen_depth:
            raise SandboxError("the sandbox is frozen while the host reads the workspace")

    def _freeze(self) -> None:  # noqa: B027 (optional hook)
        """Stop (or, failing that, kill) every agent process; backends override."""

    def _thaw(self) -> None:  # noqa: B027 (optional hook)
        """Resume what :meth:`_freeze` stopped; backends override."""

    def sweep_leftovers(self) -> None:  # noqa: B027 (optional hook)
        """Kill every agent process but the long-lived ones :meth:`spawn` started (called
        after each step, so nothing a command or a cell started outlives its step)."""

    def oom_kills(self) -> int | None:
        """Processes killed by the memory limit so far in this sandbox (None if unknown)."""
        return None

    @property
    def oom_counter_cheap(self) -> bool:
        """Whether :meth:`oom_kills` is cheap enough to call around every interpreter cell."""
        return True

    @abc.abstractmethod
    def close(self) -> None:
        """Kill everything started by this sandbox and release its resources (idempotent)."""

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
