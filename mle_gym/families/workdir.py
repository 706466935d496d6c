"""A working directory other than /workspace, for families that need one (e.g. a task
folder inside a repository checkout).

* :class:`WorkdirFS` takes relative paths of the file tools from ``workdir``;
* :class:`WorkdirSandbox` runs every command in ``workdir`` (a thin proxy over the
  episode's sandbox: same isolation, limits, lifetime and freezing; closing it is
  the episode's job).

The persistent ``python`` tool starts in /workspace; code can ``os.chdir``.
"""

from __future__ import annotations

import contextlib
import posixpath
import shlex
from collections.abc import Iterator, Sequence

from mle_gym.sandbox.base import WORKSPACE, ExecResult, Mount, Sandbox, SpawnedProcess
from mle_gym.tools.fs import FsError, Resolved, SandboxFS


def check_workdir(workdir: str) -> str:
    """``workdir`` normalised; it must be /workspace or a folder below it."""
    norm = posixpath.normpath(workdir)
    if norm != WORKSPACE and not norm.startswith(WORKSPACE + "/"):
        raise ValueError(f"workdir must be inside {WORKSPACE}, got {workdir!r}")
    return norm


class WorkdirFS(SandboxFS):
    """A :class:`SandboxFS` whose relative paths start at ``workdir``."""

    def __init__(
        self, mounts: list[Mount], owner: tuple[int, int] | None = None, *, workdir: str
    ) -> None:
        super().__init__(mounts, owner)
        self.workdir = check_workdir(workdir)

    def resolve(self, path: str, *, follow_last: bool = True, must_exist: bool = True) -> Resolved:
        if isinstance(path, str) and path.strip() and not path.startswith("/"):
            if "\x00" in path:
                raise FsError("path contains a NUL byte")
            path = posixpath.join(self.workdir, path)
        return super().resolve(path, follow_last=follow_last, must_exist=must_exist)


class WorkdirSandbox(Sandbox):
    """Runs commands of ``inner`` in ``workdir`` (see module docstring)."""

    def __init__(self, inner: Sandbox, workdir: str) -> None:
        super().__init__(inner.workspace, inner.data, inner.limits)
        self.inner = inner
        self.workdir = check_workdir(workdir)
        self.kind = inner.kind

    @property
    def mounts(self) -> list[Mount]:
        return self.inner.mounts

    @property
    def file_owner(self) -> tuple[int, int] | None:
        return self.inner.file_owner

    def exec(
        self, command: str, timeout_s: float, *, supervisor: Sequence[str] | None = None
    ) -> ExecResult:
        prefix = f"cd {shlex.quote(self.workdir)} || exit 125\n"
        return self.inner.exec(prefix + command, timeout_s, supervisor=supervisor)

    def spawn(self, argv: list[str]) -> SpawnedProcess:
        return self.inner.spawn(argv)

    @contextlib.contextmanager
    def frozen(self) -> Iterator[None]:
        """The inner sandbox's :meth:`Sandbox.frozen` (the processes are the inner's)."""
        with self.inner.frozen():
            yield

    @property
    def is_frozen(self) -> bool:
        return self.inner.is_frozen

    def sweep_leftovers(self) -> None:
        self.inner.sweep_leftovers()

    def oom_kills(self) -> int | None:
        return self.inner.oom_kills()

    @property
    def oom_counter_cheap(self) -> bool:
        return self.inner.oom_counter_cheap

    def close(self) -> None:
        self.inner.close()
        self.closed = True
