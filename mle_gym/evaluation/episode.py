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
traceback), ``failure_kind`` (see below), ``replica_seed`` (the replica variant the
episode ran on; None when its data is not a replica), ``final_files``, ``backend``
and ``host`` (where it ran), ``provenance``
(the env's :meth:`~mle_gym.env.MLEEnv.provenance` — software version and commit, data
source and variant with its checks, sandbox backend and image, grading mode, resolved
reward mode — plus the agent spec; the software only when the episode
failed before reset; ``grade.json`` carries the same block), and ``timing``
(started_at, finished_at, seconds, make_s, episode_s, snapshot_s).

Error phases (an ``errors`` entry's ``phase``): ``make_env`` (``gym.make``), ``make_agent``
(building the agent), ``reset`` (``env.reset``: data, workspace, sandbox start), ``agent``
(the agent's ``reset``/``act``: its code, its model endpoint), ``step`` (``env.step``: a
tool, the sandbox, grading), ``worker`` (written by the coordinator: the worker process
died, the Ray task failed, or the hard ``--episode-timeout`` stopped it); after the
episode, ``snapshot``, ``close`` and ``usage`` (these do not fail a finished episode).
A ``failed`` record's ``failure_kind`` says whose fault it is, from its first error:
``"agent"`` (make_agent, agent), ``"environment"`` (make_env, reset, step, a lost
worker: the env, the sandbox, the data or the machine) or ``"timeout"`` (the hard
episode timeout); None when the episode is done (:data:`FAILURE_KINDS`).
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
from mle_gym.evaluation.config import replica_variant
from mle_gym.trajectory import json_safe

RECORD_FORMAT = "mle_gym.eval.episode/1"
MAX_TOOL_ERRORS = 20
#: the ``failure_kind`` of a failed episode whose first error has this phase
FAILURE_KINDS = {
    "make_env": "environment",
    "reset": "environment",
    "step": "environment",
    "worker": "environment",
    "make_agent": "agent",
    "agent": "agent",
}


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
    replica = replica_variant(s.get("replica_seed"), job.seed)
    if replica is not None and _takes_option(job.env_id, "replica_seed"):
        kwargs["replica_seed"] = replica
    return gym.make(job.env_id, **kwargs)


def _takes_grading(env_id: str) -> bool:
    """Whether the family of ``env_id``'s task has the ``grading`` option (MLE-bench)."""
    return _takes_option(env_id, "grading")


def _takes_option(env_id: str, option: str) -> bool:
    """Whether the family of ``env_id``'s task has the option ``option``."""
    from mle_gym.families import family_class
    from mle_gym.tasks import get_task

    model = family_class(get_task(env_id).family).options_model
    return option in getattr(model, "model_fields", {})


def _used_replica_seed(env: Any, data_source: Any) -> int | None:
    """The replica variant the env's current episode runs on (None: not replica data).
    No reset options are given, so it is the family's ``replica_seed`` option."""
    family = getattr(getattr(env, "unwrapped", None), "family", None)
    if data_source != "replica" or family is None:
        return None
    return int(getattr(family, "replica_seed", 0))


def failure_kind(errors: list[dict[str, Any]]) -> str:
    """The ``failure_kind`` of a failed record with these ``errors`` (module docstring)."""
    first = errors[0] if errors else {}
    return FAILURE_KINDS.get(str(first.get("phase")), "unknown")


def _phase_tracking(env: Any, state: dict[str, Any]) -> Any:
    """``env`` wrapped so that ``state["phase"]`` names the side running: ``reset`` or
    ``step`` inside those env calls, ``agent`` between them (the agent's turn)."""
    import gymnasium as gym

    class PhaseTracking(gym.Wrapper):
        def reset(self, **kwargs: Any) -> Any:
            state["phase"] = "reset"
            out = self.env.reset(**kwargs)
            state["phase"] = "agent"
            return out

        def step(self, action: Any) -> Any:
            state["phase"] = "step"
            out = self.env.step(action)
            state["phase"] = "agent"
            return out

    return PhaseTracking(env)


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
        "failure_kind": None,
        "replica_seed": None,
        "final_files": None,
        "backend": job.backend,
        "host": {"hostname": socket.gethostname(), "pid": os.getpid()},
        "provenance": _job_provenance(job, None),
        "timing": {},
    }


def _job_provenance(job: EpisodeJob, env_provenance: dict[str, Any] | None) -> dict[str, Any]:
    """The record's ``provenance``: the env's (:meth:`mle_gym.env.MLEEnv.provenance`, after
    reset) — or, before one, the software only — plus the agent spec. (Where the episode
    ran — backend, host — is the record's own: the same episode run elsewhere has the same
    provenance and grade.)"""
    from mle_gym.provenance import software

    out: dict[str, Any] = dict(env_provenance or {"software": software()})
    out["agent"] = {
        "spec": job.settings.get("agent"),
        "args": job.settings.get("agent_args") or {},
    }
    return out


def write_record(job: EpisodeJob, record: dict[str, Any], grade: dict[str, Any] | None) -> None:
    """Write ``grade.json`` (if any), then ``episode.json`` — last, atomically."""
    if grade is not None:
        layout.write_json_atomic(job.folder / layout.GRADE_FILE, grade)
    layout.write_json_atomic(job.folder / layout.EPISODE_FILE, record)


def write_crash_record(
    job: EpisodeJob,
    message: str,
    *,
    phase: str = "worker",
    kind: str = "WorkerLost",
    failure: str | None = None,
) -> dict[str, Any]:
    """Mark an episode ``failed`` from the coordinator when the process running it died
    or was stopped; keeps whatever the folder holds. ``failure`` is its ``failure_kind``
    (default: the phase's, "environment"). Does nothing (and returns the existing
    record) if the episode finished after all."""
    existing = layout.read_episode_record(job.folder)
    if existing is not None:
        return existing
    record = base_record(job)
    record["host"] = {"hostname": socket.gethostname(), "pid": None}
    record["errors"] = [{"phase": phase, "type": kind, "message": message, "traceback": ""}]
    record["failure_kind"] = failure or failure_kind(record["errors"])
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
    state["phase"] = "make_env"  # the error phase (module docstring)
    tool_errors: list[str] = []
    grade: dict[str, Any] | None = None
    env: Any = None
    agent: Any = None
    interrupted = False

    def on_reset(obs: str, info: dict[str, Any]) -> None:
        record["data_source"] = info.get("data_source")
        record["replica_seed"] = _used_replica_seed(env, info.get("data_source"))
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
            state["phase"] = "make_agent"
            spec = str(job.settings.get("agent") or "scripted")
            agent = build_agent(spec, dict(job.settings.get("agent_args") or {}), job.seed)
            record["agent"]["class"] = describe(agent)
            t1 = time.monotonic()
            tracked = _phase_tracking(env, state)
            result = run_episode(tracked, agent, seed=job.seed, on_step=on_step, on_reset=on_reset)
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
            phase = state["phase"]
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
    if record["status"] != "done":
        record["failure_kind"] = failure_kind(record["errors"])
    timing["finished_at"] = _now()
    timing["seconds"] = round(time.monotonic() - t0, 3)
    record["timing"] = timing
    write_record(job, record, grade)
    return record
