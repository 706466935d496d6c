"""Run episodes in a pool of local worker processes.

Each worker is a fresh interpreter (``spawn``, or ``forkserver``; never a fork of
the coordinator, which may have threads) that builds its own envs and agents
and runs one :class:`EpisodeJob` at a time with
:func:`mle_gym.evaluation.episode.execute_episode`. The coordinator hands out
jobs over one pipe per worker and waits on the pipes and the processes'
sentinels together.

Lifetime guarantees:

* **Coordinator dies** (even ``kill -9``): every worker gets ``SIGTERM`` from the
  kernel when its parent dies (``PR_SET_PDEATHSIG``; with ``forkserver`` the
  parent is the fork server, which exits with the coordinator); the handler
  raises ``SystemExit`` once, so the episode's env is closed (sandbox stopped,
  workspace removed) and no ``episode.json`` is written for the interrupted
  episode. A watchdog thread also polls the parent and the coordinator and
  hard-exits the worker ``ORPHAN_GRACE_S`` seconds after either is gone, in case
  the graceful path hangs. Sandbox processes are started with
  ``--die-with-parent`` (bubblewrap) or hold the host's stdin (docker), so they
  go with the worker; what a hard exit leaves on disk (workspace folder, quota
  volume) is removed by the env at its next start.
* **Worker dies** mid-episode (crash, OOM kill): the coordinator writes a
  ``failed`` record for that episode and starts a replacement worker.
* **Episode overruns** ``episode_timeout_s`` (optional hard limit on top of the
  env's own time budget): the worker is stopped, the episode recorded as failed
  (``failure_kind`` "timeout"; a lost worker's is "environment").
* **Ctrl-C / SIGTERM of the coordinator**: workers are stopped the same way
  (SIGTERM, then SIGKILL after a grace period); unfinished episodes stay
  unfinished and run again on ``--resume``.

Workers run in their own process group, so a terminal's Ctrl-C reaches only the
coordinator, which then stops them in order. Their stray stdout/stderr goes to
``RUN_DIR/logs/worker-<n>.log``; each episode's own output goes to its log.txt.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from mle_gym.evaluation.episode import EpisodeJob, write_crash_record
from mle_gym.evaluation.events import RunEvents
from mle_gym.sandbox.hostprocs import pid_exists

START_METHODS = ("spawn", "forkserver")
STOP_GRACE_S = 10.0
ORPHAN_GRACE_S = 10.0
_PR_SET_PDEATHSIG = 1


def _die_with_parent(coordinator_pid: int) -> None:
    """End this process when the coordinator ends; see the module docstring.

    With ``spawn`` the coordinator is the parent; with ``forkserver`` the parent is
    the fork server (which exits when the coordinator does), so both the parent
    and the coordinator are watched.
    """
    parent = os.getppid()
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if parent == 1 or not pid_exists(coordinator_pid):  # gone before prctl took effect
        os._exit(1)

    def watchdog() -> None:
        while os.getppid() == parent and pid_exists(coordinator_pid):
            time.sleep(0.5)
        time.sleep(0.5)  # PR_SET_PDEATHSIG normally got there first
        if not _stopping.is_set():
            with contextlib.suppress(OSError):
                os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(ORPHAN_GRACE_S)
        os._exit(1)

    threading.Thread(target=watchdog, name="coordinator-watchdog", daemon=True).start()


_stopping = threading.Event()


def _on_sigterm(signum: int, frame: Any) -> None:
    """First SIGTERM: unwind (closing the env); later ones must not interrupt that cleanup."""
    if _stopping.is_set():
        return
    _stopping.set()
    raise SystemExit(128 + signum)


def _redirect_output(log_path: str | None) -> None:
    if not log_path:
        return
    Path(log_path).parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o644)
    sys.stdout.flush()
    sys.stderr.flush()
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)


def worker_main(conn: Connection, parent_pid: int, log_path: str | None) -> None:
    """Entry point of a worker process: run jobs received on ``conn`` until told to stop."""
    signal.signal(signal.SIGTERM, _on_sigterm)
    with contextlib.suppress(OSError):
        os.setpgid(0, 0)
    _die_with_parent(parent_pid)
    _redirect_output(log_path)
    from mle_gym.evaluation.episode import execute_episode

    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message[0] == "stop":
            return
        job: EpisodeJob = message[1]
        record = execute_episode(job)
        conn.send(("done", record))


@dataclass
class _Worker:
    index: int
    process: Any
    conn: Connection
    job: EpisodeJob | None = None
    started: float = 0.0


class LocalBackend:
    """A pool of ``workers`` local processes (see the module docstring)."""

    def __init__(
        self,
        workers: int = 1,
        *,
        start_method: str = "spawn",
        log_dir: Path | None = None,
        episode_timeout_s: float | None = None,
    ) -> None:
        if workers < 1:
            raise ValueError(f"workers must be >= 1, got {workers}")
        if start_method not in START_METHODS:
            raise ValueError(f"start_method must be one of {START_METHODS}, got {start_method!r}")
        self.workers = workers
        # typeshed's BaseContext lacks Process/Pipe; every concrete context has them
        self.ctx: Any = multiprocessing.get_context(start_method)
        self.log_dir = log_dir
        self.episode_timeout_s = episode_timeout_s
        self._pool: list[_Worker] = []
        self._spawned = 0

    def _spawn(self, index: int) -> _Worker:
        parent_conn, child_conn = self.ctx.Pipe()
        self._spawned += 1
        log = str(self.log_dir / f"worker-{self._spawned}.log") if self.log_dir else None
        proc = self.ctx.Process(
            target=worker_main,
            args=(child_conn, os.getpid(), log),
            name=f"mle-gym-eval-worker-{index}",
            daemon=True,
        )
        proc.start()
        child_conn.close()
        return _Worker(index=index, process=proc, conn=parent_conn)

    def run(self, jobs: Sequence[EpisodeJob], events: RunEvents) -> None:
        """Run every job; return when all have a record. Interrupts propagate after the
        workers are stopped."""
        pending = list(jobs)
        if not pending:
            return
        try:
            self._pool = [self._spawn(i) for i in range(min(self.workers, len(pending)))]
            self._loop(pending, events)
            for w in self._pool:
                with contextlib.suppress(OSError, ValueError):
                    w.conn.send(("stop",))
            for w in self._pool:
                w.process.join(timeout=STOP_GRACE_S)
        finally:
            self._stop_all()

    def _loop(self, pending: list[EpisodeJob], events: RunEvents) -> None:
        while True:
            for w in self._pool:
                if w.job is None and pending and w.process.is_alive():
                    w.job, w.started = pending.pop(0), time.monotonic()
                    w.conn.send(("run", w.job))
                    events.started(w.job)
            busy = [w for w in self._pool if w.job is not None]
            if not busy:
                return
            waitables: list[Any] = [w.conn for w in busy] + [w.process.sentinel for w in busy]
            ready = multiprocessing.connection.wait(waitables, timeout=1.0)
            for w in busy:
                if w.conn in ready:
                    try:
                        _, record = w.conn.recv()
                    except (EOFError, OSError):
                        w.process.join(timeout=2.0)
                        code = w.process.exitcode
                        self._lost(
                            w, pending, events, f"the worker process died (exit code {code})"
                        )
                        continue
                    job, w.job = w.job, None
                    assert job is not None
                    events.finished(job, record)
                elif w.process.sentinel in ready:
                    w.process.join(timeout=1.0)
                    code = w.process.exitcode
                    self._lost(w, pending, events, f"the worker process died (exit code {code})")
                elif (
                    self.episode_timeout_s is not None
                    and time.monotonic() - w.started > self.episode_timeout_s
                ):
                    self._terminate(w)
                    self._lost(
                        w,
                        pending,
                        events,
                        f"the episode exceeded the hard timeout of {self.episode_timeout_s:g} s",
                        kind="EpisodeTimeout",
                        failure="timeout",
                    )
            events.tick()

    def _lost(
        self,
        w: _Worker,
        pending: list[EpisodeJob],
        events: RunEvents,
        why: str,
        kind: str = "WorkerLost",
        failure: str = "environment",
    ) -> None:
        """The worker running ``w.job`` is gone: record the episode as failed (its
        ``failure_kind`` is ``failure``), replace it."""
        job, w.job = w.job, None
        assert job is not None
        self._terminate(w)
        message = f"{why} while running {job.label}"
        record = write_crash_record(job, message, kind=kind, failure=failure)
        events.finished(job, record)
        replacement = self._spawn(w.index) if pending else None
        self._pool = [x for x in self._pool if x is not w]
        if replacement is not None:
            self._pool.append(replacement)

    def _terminate(self, w: _Worker) -> None:
        proc = w.process
        if proc.is_alive():
            with contextlib.suppress(OSError):
                proc.terminate()
            proc.join(timeout=STOP_GRACE_S)
            if proc.is_alive():
                proc.kill()
                proc.join(timeout=STOP_GRACE_S)
        with contextlib.suppress(OSError):
            w.conn.close()

    def _stop_all(self) -> None:
        alive = [w for w in self._pool if w.process.is_alive()]
        for w in alive:
            with contextlib.suppress(OSError):
                w.process.terminate()
        deadline = time.monotonic() + STOP_GRACE_S
        for w in alive:
            w.process.join(timeout=max(0.0, deadline - time.monotonic()))
            if w.process.is_alive():
                w.process.kill()
                w.process.join(timeout=STOP_GRACE_S)
        for w in self._pool:
            with contextlib.suppress(OSError):
                w.conn.close()
        self._pool = []
