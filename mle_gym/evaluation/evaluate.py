"""``run_eval``: plan, run (local pool or Ray), then report — resumable at any point.

Sequence, for one invocation:

1. take the run directory's lock (one coordinator per run at a time);
2. resolve the config (new run, or a resume checked against config.json) and
   write config.json atomically;
3. list the planned episodes without an ``episode.json`` (plus the failed ones
   with ``retry_failed``); their partial folders are deleted when they start;
4. run them on the chosen backend with a progress line;
5. write report.json, report.md and the plots.

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
import signal
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mle_gym.evaluation import layout
from mle_gym.evaluation.config import RunConfig, save_config
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


def _backend(request: EvalRequest, run_dir: Path) -> Any:
    if request.backend == "ray":
        from mle_gym.evaluation.ray_backend import RayBackend

        return RayBackend(address=request.ray_address, workers=request.workers)
    from mle_gym.evaluation.local_backend import LocalBackend

    return LocalBackend(
        request.workers or 1,
        start_method=request.start_method,
        log_dir=run_dir / "logs",
        episode_timeout_s=request.episode_timeout_s,
    )


def run_eval(request: EvalRequest) -> EvalResult:
    """Run (or resume) the evaluation ``request`` describes; see the module docstring."""
    run_dir = Path(request.out).expanduser().resolve()
    request = dataclasses.replace(request, out=run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    with layout.run_lock(run_dir):
        resuming = layout.config_path(run_dir).exists()
        config, changed = resolve_run(request)
        if changed:
            save_config(run_dir, config)
        jobs, counts = pending_jobs(
            config, run_dir, backend=request.backend, retry_failed=request.retry_failed
        )
        planned = len(config.episodes())
        progress = Progress(
            planned,
            already_done=counts["done"],
            already_failed=counts["failed"],
            enabled=request.progress,
        )
        if resuming:
            progress.message(
                f"[eval] resuming {run_dir}: {counts['done'] + counts['failed']} of {planned} "
                f"episode(s) already finished, {len(jobs)} to run"
            )
        else:
            progress.message(f"[eval] {planned} episode(s) into {run_dir}")
        with _sigterm_as_interrupt():
            try:
                _backend(request, run_dir).run(jobs, ProgressEvents(progress))
            finally:
                progress.close()
        report = None
        if request.report:
            from mle_gym.evaluation.run_report import write_report

            report = write_report(run_dir, plots=request.plots)
    return EvalResult(
        run_dir=run_dir,
        config=config,
        planned=planned,
        ran=len(jobs),
        done=progress.done,
        failed=progress.failed,
        report=report,
    )
