"""One evaluation episode, run to its folder: the function every backend executes.

:func:`execute_episode` takes an :class:`EpisodeJob` (plain, picklable data)
and, in whatever process runs it (a local worker or a Ray task):

1. deletes any partial folder a previous, interrupted attempt left behind;
2. builds the env (``gymnasium.make`` with the run's settings and the folder's
   ``trajectory.jsonl`` as ``trajectory_path``) and the agent;
3. runs the episode with :func:`mle_gym.episode_runner.run_episode`;
4. copies the final workspace into ``final/`` (before the env releases it);
5. writes ``grade.json`` (when the episode produced a grade) and then, last and
   atomically, ``episode.json``. Its presence marks the episode finished.

Any ``Exception`` from the env or the agent makes a ``failed`` record holding
the traceback; it never propagates. ``KeyboardInterrupt``/``SystemExit`` (the
worker is being stopped) close the env and propagate *without* writing
``episode.json``, so the episode is run again when the run is resumed.

Everything the episode prints or logs goes to ``log.txt`` in its folder, with terminal
control characters escaped (:class:`mle_gym.textsafe.SafeTextWriter`): it is read with
cat or less, and may quote agent-produced text.

The ``episode.json`` record (format ``mle_gym.eval.episode/1``):
``status`` (done|failed), ``task_id``, ``env_id``, ``seed``, ``config`` (the
run settings), ``agent`` (spec, args, class), ``data_source``, ``reward_mode``,
``steps``, ``reward``, ``terminated``, ``truncated``, ``truncation_reason``,
``graded``, ``score``, ``valid``, ``tool_errors`` (count and the first few),
``usage`` (the agent's ``usage`` dict), ``errors`` (phase, type, message,
traceback), ``final_files``, ``backend`` and ``host`` (where it ran), ``provenance``
(the env's :meth:`~mle_gym.env.MLEEnv.provenance` — software version and commit, data
source and variant with its checks, sandbox backend and image, grading mode, resolved
reward mode — plus the agent spec and backend; the software only when the episode
failed before reset; ``grade.json`` carries the same block), and ``timing``
(started_at, finished_at, seconds, make_s, episode_s, snapshot_s).
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import logging
import os
import shutil
import socket
import sys
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mle_gym.evaluation import layout
from mle_gym.trajectory import json_safe

RECORD_FORMAT = "mle_gym.eval.episode/1"
MAX_TOOL_ERRORS = 20


@dataclass(frozen=True)
class EpisodeJob:
    """Everything a worker needs to run one episode (picklable)."""

    run_dir: str
    env_id: str
    seed: int
    settings: dict[str, Any] = field(default_factory=dict)
    backend: str = "local"

    @property
    def task_id(self) -> str:
        """The task id, the folder name under ``episodes/``."""
        return layout.task_id_of(self.env_id)

    @property
    def folder(self) -> Path:
        """``RUN_DIR/episodes/<task_id>/seed-<seed>``."""
        return layout.episode_dir(self.run_dir, self.task_id, self.seed)

    @property
    def label(self) -> str:
        """``<task_id> seed <k>``, for messages."""
        return f"{self.task_id} seed {self.seed}"


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


def error_entry(phase: str, exc: BaseException) -> dict[str, Any]:
    """An ``errors`` item: where it happened, the exception and its traceback text."""
    return {
        "phase": phase,
        "type": type(exc).__name__,
        "message": str(exc)[:2000],
        "traceback": "".join(traceback.format_exception(exc))[-20000:],
    }


@contextlib.contextmanager
def _captured(log_path: Path) -> Iterator[None]:
    """Send Python-level stdout/stderr and log records to ``log_path`` meanwhile, with
    terminal control characters escaped."""
    from mle_gym.textsafe import SafeTextWriter

    with open(log_path, "a", encoding="utf-8", errors="backslashreplace", buffering=1) as raw:
        fh: Any = SafeTextWriter(raw)
        handler = logging.StreamHandler(fh)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        root = logging.getLogger()
        saved = root.handlers[:]
        root.handlers = [handler]
        try:
            with contextlib.redirect_stdout(fh), contextlib.redirect_stderr(fh):
                yield
        finally:
            root.handlers = saved


def _make_env(job: EpisodeJob, trajectory: Path) -> Any:
    import gymnasium as gym

    import mle_gym  # noqa: F401 - registers the env ids

    s = job.settings
    kwargs: dict[str, Any] = {
        "data": s.get("data") or "auto",
        "reward_mode": s.get("reward_mode") or "auto",
        "trajectory_path": trajectory,
    }
    if s.get("sandbox"):
        kwargs["sandbox"] = s["sandbox"]
    if s.get("max_steps"):
        kwargs["max_episode_steps"] = int(s["max_steps"])
    if s.get("time_budget_s"):
        kwargs["time_budget_s"] = float(s["time_budget_s"])
    if s.get("grading") and _takes_grading(job.env_id):
        kwargs["grading"] = s["grading"]
    return gym.make(job.env_id, **kwargs)


def _takes_grading(env_id: str) -> bool:
    """Whether the family of ``env_id``'s task has the ``grading`` option (MLE-bench)."""
    from mle_gym.families import family_class
    from mle_gym.tasks import get_task

    model = family_class(get_task(env_id).family).options_model
    return "grading" in getattr(model, "model_fields", {})


def base_record(job: EpisodeJob) -> dict[str, Any]:
    """The fields every episode record has, with an episode that has not run yet."""
    return {
        "format": RECORD_FORMAT,
        "status": "failed",
        "task_id": job.task_id,
        "env_id": job.env_id,
        "seed": job.seed,
        "config": dict(job.settings),
        "agent": {
            "spec": job.settings.get("agent"),
            "args": job.settings.get("agent_args") or {},
            "class": None,
        },
        "data_source": None,
        "reward_mode": None,
        "steps": 0,
        "reward": 0.0,
        "terminated": False,
        "truncated": False,
        "truncation_reason": None,
        "graded": False,
        "score": None,
        "valid": False,
        "tool_errors": {"count": 0, "first": []},
        "usage": {},
        "errors": [],
        "final_files": None,
        "backend": job.backend,
        "host": {"hostname": socket.gethostname(), "pid": os.getpid()},
        "provenance": _job_provenance(job, None),
        "timing": {},
    }


def _job_provenance(job: EpisodeJob, env_provenance: dict[str, Any] | None) -> dict[str, Any]:
    """The record's ``provenance``: the env's (:meth:`mle_gym.env.MLEEnv.provenance`, after
    reset) — or, before one, the software only — plus the agent spec and the backend."""
    from mle_gym.provenance import software

    out: dict[str, Any] = dict(env_provenance or {"software": software()})
    out["agent"] = {
        "spec": job.settings.get("agent"),
        "args": job.settings.get("agent_args") or {},
    }
    out["backend"] = job.backend
    return out


def write_record(job: EpisodeJob, record: dict[str, Any], grade: dict[str, Any] | None) -> None:
    """Write ``grade.json`` (if any), then ``episode.json`` — last, atomically."""
    if grade is not None:
        layout.write_json_atomic(job.folder / layout.GRADE_FILE, grade)
    layout.write_json_atomic(job.folder / layout.EPISODE_FILE, record)


def write_crash_record(
    job: EpisodeJob, message: str, *, phase: str = "worker", kind: str = "WorkerLost"
) -> dict[str, Any]:
    """Mark an episode ``failed`` from the coordinator when the process running it died
    or was stopped; keeps whatever the folder holds. Does nothing (and returns the
    existing record) if the episode finished after all."""
    existing = layout.read_episode_record(job.folder)
    if existing is not None:
        return existing
    record = base_record(job)
    record["host"] = {"hostname": socket.gethostname(), "pid": None}
    record["errors"] = [{"phase": phase, "type": kind, "message": message, "traceback": ""}]
    record["timing"] = {"finished_at": _now()}
    job.folder.mkdir(parents=True, exist_ok=True)
    write_record(job, record, None)
    return record


def _wind_up(
    record: dict[str, Any],
    timing: dict[str, Any],
    env: Any,
    agent: Any,
    folder: Path,
    *,
    interrupted: bool,
) -> None:
    """After the episode, whatever happened: snapshot the workspace (unless interrupted),
    close the env and record the agent's usage; failures become ``record["errors"]``."""
    from mle_gym.evaluation.agent_spec import usage_of
    from mle_gym.evaluation.snapshot import snapshot_env

    workspace = getattr(getattr(env, "unwrapped", None), "workspace", None)
    if workspace is not None and not interrupted:
        t2 = time.monotonic()
        try:  # the agent's processes are stopped while it copies
            snap = snapshot_env(env, folder / layout.FINAL_DIR)
            if snap is not None:
                record["final_files"] = snap.to_dict()
        except Exception as exc:
            record["errors"].append(error_entry("snapshot", exc))
        timing["snapshot_s"] = round(time.monotonic() - t2, 3)
    if env is not None:
        try:
            env.close()
        except Exception as exc:
            if not interrupted:
                record["errors"].append(error_entry("close", exc))
    if agent is not None:
        try:
            record["usage"] = json_safe(usage_of(agent), keep_nonfinite=True)
        except Exception as exc:
            record["errors"].append(error_entry("usage", exc))


def execute_episode(job: EpisodeJob) -> dict[str, Any]:
    """Run one episode into its folder and return its record (see the module docstring)."""
    from mle_gym.episode_runner import run_episode
    from mle_gym.evaluation.agent_spec import build_agent, describe

    folder = job.folder
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    record = base_record(job)
    timing: dict[str, Any] = {"started_at": _now()}
    t0 = time.monotonic()
    state: dict[str, Any] = {"steps": 0, "reward": 0.0, "info": {}, "tool_errors": 0}
    tool_errors: list[str] = []
    grade: dict[str, Any] | None = None
    env: Any = None
    agent: Any = None
    phase = "make_env"
    interrupted = False

    def on_reset(obs: str, info: dict[str, Any]) -> None:
        record["data_source"] = info.get("data_source")
        read = getattr(getattr(env, "unwrapped", None), "provenance", None)
        if callable(read):
            record["provenance"] = _job_provenance(job, read())
            record["provenance"]["agent"]["class"] = record["agent"]["class"]

    def on_step(i: int, action: Any, obs: str, reward: float, info: dict[str, Any]) -> None:
        state.update(steps=i, reward=float(reward), info=info)
        if info.get("ok") is False:
            state["tool_errors"] += 1
            if len(tool_errors) < MAX_TOOL_ERRORS:  # the others are only counted
                tool_errors.append(str(info.get("error", ""))[:300])

    with _captured(folder / layout.LOG_FILE):
        try:
            env = _make_env(job, folder / layout.TRAJECTORY_FILE)
            timing["make_s"] = round(time.monotonic() - t0, 3)
            phase = "make_agent"
            spec = str(job.settings.get("agent") or "scripted")
            agent = build_agent(spec, dict(job.settings.get("agent_args") or {}), job.seed)
            record["agent"]["class"] = describe(agent)
            phase = "episode"
            t1 = time.monotonic()
            result = run_episode(env, agent, seed=job.seed, on_step=on_step, on_reset=on_reset)
            timing["episode_s"] = round(time.monotonic() - t1, 3)
            grade = result.grade
            last = state["info"]
            record.update(
                status="done",
                data_source=result.data_source or record["data_source"],
                reward_mode=last.get("reward_mode"),
                terminated=bool(result.terminated),
                truncated=bool(result.truncated),
                truncation_reason=last.get("truncation_reason"),
            )
        except Exception as exc:
            record["errors"].append(error_entry(phase, exc))
            print(f"episode failed in phase {phase}:", file=sys.stderr)
            traceback.print_exc()
        except BaseException:
            interrupted = True
            raise
        finally:
            record["steps"] = int(state["steps"])
            record["reward"] = float(state["reward"]) if record["status"] == "done" else 0.0
            _wind_up(record, timing, env, agent, folder, interrupted=interrupted)

    if grade is not None and record["status"] == "done":
        grade = json_safe(grade, keep_nonfinite=True)
        grade["provenance"] = record["provenance"]
        record.update(graded=True, score=grade.get("score"), valid=bool(grade.get("valid")))
    else:
        grade = None
    record["tool_errors"] = {"count": state["tool_errors"], "first": tool_errors}
    timing["finished_at"] = _now()
    timing["seconds"] = round(time.monotonic() - t0, 3)
    record["timing"] = timing
    write_record(job, record, grade)
    return record
