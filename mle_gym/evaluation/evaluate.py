"""``run_eval``: plan, run (local pool or Ray), then report — resumable at any point.

Sequence, for one invocation:

1. resolve and check the config and the execution options (new run, or a resume
   checked against config.json) — a configuration error stops here, before
   anything is written: no run directory is created, an existing one is left
   exactly as it was;
2. create the run directory, take its lock (one coordinator per run at a time)
   and write config.json atomically (settings, plan, and the ``execution``
   section a resumed session reuses);
3. list the planned episodes without an ``episode.json`` (plus the failed ones
   with ``retry_failed``); their partial folders are deleted when they start;
4. run them on the chosen backend with a progress line, stopping early on a
   systematic failure (:mod:`mle_gym.evaluation.failfast`:
   :class:`~mle_gym.evaluation.failfast.SystematicFailure`, no report);
5. write report.json, report.md and the plots.

Ctrl-C (or SIGTERM) stops the workers and raises :class:`EvalInterrupted` (a
``KeyboardInterrupt``) with the counts of finished and pending episodes and the
command that continues the run (:func:`resume_command`).

Why a kill at any moment is safe: ``episode.json`` is written last and
atomically, so a finished episode is never lost or half-written and is never
run again; an unfinished one has no ``episode.json`` and is run from scratch on
``--resume``. config.json is written before any episode starts. The report is
rebuilt from the folders, so it does not depend on how many sessions produced
them. Workers and sandboxes die with the coordinator (see local_backend.py).
"""

from __future__ import annotations

import contextlib
import dataclasses
import shlex
import signal
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mle_gym.evaluation import layout
from mle_gym.evaluation.config import ExecutionOptions, RunConfig
from mle_gym.evaluation.errors import RunLocked
from mle_gym.evaluation.failfast import FailFast, SystematicFailure
from mle_gym.evaluation.plan import EvalRequest, pending_jobs, resolve_run
from mle_gym.evaluation.progress import Progress, ProgressEvents


@dataclass
class EvalResult:
    """What :func:`run_eval` did."""

    run_dir: Path
    config: RunConfig
    planned: int
    ran: int
    done: int
    failed: int
    report: dict[str, Any] | None
    execution: ExecutionOptions | None = None


def resume_command(run_dir: Path, *, retry_failed: bool = False) -> str:
    """The shell command that continues the run in ``run_dir`` (quoted for a POSIX shell)."""
    words = ["mle-gym", "eval", "--out", str(run_dir), "--resume"]
    return shlex.join(words + (["--retry-failed"] if retry_failed else []))


class EvalInterrupted(KeyboardInterrupt):
    """The run was interrupted (Ctrl-C, SIGTERM) after its workers were stopped; ``done``,
    ``failed`` and ``pending`` count the planned episodes on disk at that point."""

    def __init__(self, run_dir: Path, done: int, failed: int, pending: int) -> None:
        self.run_dir, self.done, self.failed, self.pending = run_dir, done, failed, pending
        super().__init__(self.summary())

    def summary(self) -> str:
        """``interrupted: 3 done, 1 failed, 4 pending (of 8 planned)``."""
        planned = self.done + self.failed + self.pending
        return (
            f"interrupted: {self.done} done, {self.failed} failed, {self.pending} pending "
            f"(of {planned} planned)"
        )

    @property
    def resume_command(self) -> str:
        """The command that continues the run."""
        return resume_command(self.run_dir)


class EarlyStop(SystematicFailure):
    """A :class:`SystematicFailure` with the run's counts at the stop (see
    :class:`EvalInterrupted`); the command to continue retries the failed episodes."""

    def __init__(
        self, cause: SystematicFailure, run_dir: Path, done: int, failed: int, pending: int
    ) -> None:
        super().__init__(cause.error, cause.failures)
        self.run_dir, self.done, self.failed, self.pending = run_dir, done, failed, pending

    @property
    def resume_command(self) -> str:
        """The command that continues the run once the cause is fixed."""
        return resume_command(self.run_dir, retry_failed=True)


@contextlib.contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """While running, treat SIGTERM like Ctrl-C so workers are stopped in order."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _backend(execution: ExecutionOptions, run_dir: Path) -> Any:
    if execution.backend == "ray":
        from mle_gym.evaluation.ray_backend import RayBackend

        return RayBackend(address=execution.ray_address, workers=execution.workers)
    from mle_gym.evaluation.local_backend import LocalBackend

    return LocalBackend(
        execution.workers or 1,
        start_method=execution.start_method,
        log_dir=run_dir / "logs",
        episode_timeout_s=execution.episode_timeout_s,
    )


def _make_dirs(path: Path) -> list[Path]:
    """Create ``path`` and its missing parents; the folders created, outermost first."""
    missing = [p for p in (path, *path.parents) if not p.exists()]
    missing.reverse()
    for folder in missing:
        folder.mkdir(exist_ok=True)
    return missing


def _remove_dirs(created: list[Path], run_dir: Path) -> None:
    """Undo :func:`_make_dirs` after a failed start: remove the lock file this call made
    and each created folder that is empty (innermost first)."""
    for folder in reversed(created):
        if folder == run_dir:
            with contextlib.suppress(OSError):
                if [p.name for p in folder.iterdir()] == [layout.LOCK_FILE]:
                    (folder / layout.LOCK_FILE).unlink()
        with contextlib.suppress(OSError):
            folder.rmdir()


def _counts(config: RunConfig, run_dir: Path, backend: str) -> tuple[int, int, int]:
    """(done, failed, pending) of the planned episodes, from the episode folders."""
    jobs, counts = pending_jobs(config, run_dir, backend=backend)
    return counts["done"], counts["failed"], len(jobs)


def run_eval(request: EvalRequest) -> EvalResult:
    """Run (or resume) the evaluation ``request`` describes; see the module docstring."""
    run_dir = Path(request.out).expanduser().resolve()
    request = dataclasses.replace(request, out=run_dir)
    resolved = resolve_run(request)  # a configuration error leaves the disk untouched
    created = _make_dirs(run_dir)
    try:
        with layout.run_lock(run_dir):
            if layout.read_json(layout.config_path(run_dir)) != resolved.stored:
                resolved = resolve_run(request)  # another session changed the run meanwhile
            if resolved.changed:  # settings, execution options and the selection record
                layout.write_json_atomic(layout.config_path(run_dir), resolved.content)
            created = []  # the folder holds a run now: keep it whatever happens
            return _run(request, run_dir, resolved.config, resolved.execution, resolved.stored)
    except RunLocked:
        raise  # another coordinator made the folder meanwhile: it is its run
    except BaseException:
        _remove_dirs(created, run_dir)
        raise


def _run(
    request: EvalRequest,
    run_dir: Path,
    config: RunConfig,
    execution: ExecutionOptions,
    stored: dict[str, Any] | None,
) -> EvalResult:
    """Steps 3 to 5 of the module docstring, under the run's lock."""
    jobs, counts = pending_jobs(
        config, run_dir, backend=execution.backend, retry_failed=request.retry_failed
    )
    planned = len(config.episodes())
    progress = Progress(
        planned,
        already_done=counts["done"],
        already_failed=counts["failed"],
        enabled=execution.progress,
    )
    if stored is not None:
        progress.message(
            f"[eval] resuming {run_dir}: {counts['done'] + counts['failed']} of {planned} "
            f"episode(s) already finished, {len(jobs)} to run"
        )
    else:
        progress.message(f"[eval] {planned} episode(s) into {run_dir}")
    events = FailFast(ProgressEvents(progress), execution.max_consecutive_failures)
    try:
        with _sigterm_as_interrupt():
            try:
                _backend(execution, run_dir).run(jobs, events)
            finally:
                progress.close()
            report = None
            if request.report:
                from mle_gym.evaluation.run_report import write_report

                report = write_report(run_dir, plots=execution.plots)
    except SystematicFailure as exc:
        raise EarlyStop(exc, run_dir, *_counts(config, run_dir, execution.backend)) from None
    except KeyboardInterrupt:
        raise EvalInterrupted(run_dir, *_counts(config, run_dir, execution.backend)) from None
    return EvalResult(
        run_dir=run_dir,
        config=config,
        planned=planned,
        ran=len(jobs),
        done=progress.done,
        failed=progress.failed,
        report=report,
        execution=execution,
    )
