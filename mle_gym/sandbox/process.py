"""Run a host process tree with a wall timeout and bounded output capture.

``run_captured`` starts ``argv`` in a new session (its own process group),
reads its combined stdout/stderr while keeping only the first ``head_bytes``
and last ``tail_bytes``, and kills the whole group with SIGKILL when the wall
deadline passes or the output exceeds ``max_output_bytes``. Memory use is
bounded whatever the command prints. No ``preexec_fn`` is used, so it is safe to
call from many threads at once.
"""

from __future__ import annotations

import contextlib
import os
import select
import selectors
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from mle_gym.sandbox.base import SpawnedProcess

HEAD_BYTES = 64 * 1024
TAIL_BYTES = 64 * 1024


class OutputCapture:
    """Keeps the first ``head_limit`` and the last ``tail_limit`` bytes of a stream."""

    def __init__(self, head_limit: int = HEAD_BYTES, tail_limit: int = TAIL_BYTES) -> None:
        self.head_limit = head_limit
        self.tail_limit = tail_limit
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def feed(self, chunk: bytes) -> None:
        """Account for ``chunk``; memory stays under head_limit + 2 * tail_limit."""
        self.total += len(chunk)
        room = self.head_limit - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            chunk = chunk[room:]
        if chunk:
            self.tail += chunk
            if len(self.tail) > 2 * self.tail_limit:
                del self.tail[: len(self.tail) - self.tail_limit]

    def result(self) -> tuple[bytes, bytes]:
        """(head, tail) where tail holds at most tail_limit bytes."""
        return bytes(self.head), bytes(self.tail[-self.tail_limit :] if self.tail else b"")


@dataclass(frozen=True)
class ProcessOutcome:
    """Raw outcome of :func:`run_captured`."""

    returncode: int | None
    head: bytes
    tail: bytes
    total: int
    duration_s: float
    timed_out: bool
    output_limited: bool


def read_chunk(sel: selectors.BaseSelector, fd: int, deadline: float) -> bytes | None:
    """The next chunk (at most 64 KiB) of the non-blocking ``fd`` registered in ``sel``:
    ``b""`` at end of file, None once the ``time.monotonic()`` ``deadline`` has passed
    before anything could be read."""
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        if not sel.select(timeout=min(remaining, 0.5)):
            continue
        try:
            return os.read(fd, 1 << 16)
        except BlockingIOError:
            continue


def kill_group(pid: int) -> None:
    """SIGKILL the process group led by ``pid`` (ignore if already gone)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def run_captured(
    argv: Sequence[str],
    *,
    timeout_s: float,
    max_output_bytes: int,
    env: dict[str, str] | None = None,
    cwd: str | None = None,
    on_kill: Callable[[], None] | None = None,
) -> ProcessOutcome:
    """Run ``argv`` to completion or until killed; see the module docstring.

    ``on_kill`` is called after the group is killed (e.g. to also kill a cgroup).
    """
    start = time.monotonic()
    deadline = start + max(timeout_s, 0.0)
    capture = OutputCapture()
    proc = subprocess.Popen(
        list(argv),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        close_fds=True,
        env=env,
        cwd=cwd,
    )
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    os.set_blocking(fd, False)
    timed_out = output_limited = False
    with selectors.DefaultSelector() as sel:
        sel.register(fd, selectors.EVENT_READ)
        while True:
            chunk = read_chunk(sel, fd, deadline)
            if chunk is None:
                timed_out = True
                break
            if not chunk:
                break
            capture.feed(chunk)
            if capture.total > max_output_bytes:
                output_limited = True
                break
    if not (timed_out or output_limited):
        # stdout closed; the process may still run (e.g. it closed its output).
        try:
            proc.wait(timeout=max(deadline - time.monotonic(), 0.0))
        except subprocess.TimeoutExpired:
            timed_out = True
    if timed_out or output_limited:
        kill_group(proc.pid)
        if on_kill is not None:
            on_kill()
    proc.wait()
    proc.stdout.close()
    head, tail = capture.result()
    return ProcessOutcome(
        returncode=None if (timed_out or output_limited) else proc.returncode,
        head=head,
        tail=tail,
        total=capture.total,
        duration_s=time.monotonic() - start,
        timed_out=timed_out,
        output_limited=output_limited,
    )


class LocalProcess(SpawnedProcess):
    """A host child process with pipes, in its own process group (killed as a group).

    ``guard`` is called before each write and may raise (e.g. the sandbox is frozen).
    """

    def __init__(
        self, proc: subprocess.Popen[bytes], guard: Callable[[], None] | None = None
    ) -> None:
        self.proc = proc
        self._guard = guard
        assert proc.stdin is not None and proc.stdout is not None
        self._in = proc.stdin.fileno()
        self._out = proc.stdout.fileno()

    def write(self, data: bytes, deadline: float | None = None) -> None:
        if self._guard is not None:
            self._guard()
        deadline = time.monotonic() + 30 if deadline is None else deadline
        os.set_blocking(self._in, False)
        view = memoryview(data)
        while view:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("the process did not read its input before the deadline")
            _, ready, _ = select.select([], [self._in], [], min(remaining, 1.0))
            if ready:
                with contextlib.suppress(BlockingIOError):
                    view = view[os.write(self._in, view) :]

    def read(self, n: int, deadline: float) -> bytes:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("no output before the deadline")
            ready, _, _ = select.select([self._out], [], [], min(remaining, 1.0))
            if ready:
                return os.read(self._out, n)

    def kill(self) -> None:
        if self.proc.poll() is None:
            kill_group(self.proc.pid)
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None and not stream.closed:
                stream.close()

    def exit_status(self) -> int | None:
        rc = self.proc.poll()
        if rc is None:
            return None
        return 128 - rc if rc < 0 else rc
