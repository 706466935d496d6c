"""Read an evaluation run directory into a :class:`~.model.RunView`, within bounds.

:func:`load_run` only reads: it never writes, locks or repairs anything in the run, so it
works on a run that is still going (episodes without ``episode.json`` are *pending*;
one whose folder has a trajectory is marked as started) or that partly failed.

What it reads (see :mod:`mle_gym.evaluation.layout`): ``config.json`` (required: without
it the folder is not a run, :class:`NotARunError`), ``report.json`` and ``plots/*.png``
if present, and for each planned episode — and any other ``episodes/<task>/seed-<k>``
folder found — ``episode.json``, ``grade.json``, ``trajectory.jsonl``, ``final/`` and
the end of ``log.txt``.

Bounds (:class:`~.model.Limits`): JSON files and trajectory lines above a size are not
parsed; every text is clipped; each episode gets a character budget (the page's budget
shared equally, at most ``episode_chars``), and once it is spent the rest of that
episode's trajectory, files or log is left out. Every cut is recorded (a ``Clip``'s
``cut`` or a note), so the page says what it does not show. Final workspace files are
never followed through links.

Modules: this one reads the run and each episode's records; :mod:`.steps` the
trajectory, :mod:`.workspace` the final files and log, :mod:`.reading` does the bounded
reads.

The summary is report.json when its episode counts match the folders; otherwise (no
report yet, or one written before later episodes finished) the same report is computed
now, in memory, by :func:`mle_gym.evaluation.run_report.build_report`.
"""

from __future__ import annotations

import base64
import os
import re
from pathlib import Path
from typing import Any

from mle_gym.evaluation import layout
from mle_gym.evaluation.config import RunConfig
from mle_gym.evaluation.errors import EvalConfigError
from mle_gym.evaluation.viewer.errors import NotARunError
from mle_gym.evaluation.viewer.model import Budget, Episode, ErrorEntry, Limits, Plot, RunView
from mle_gym.evaluation.viewer.reading import (
    MAX_ITEMS,
    as_text,
    bounded,
    first_dict,
    number,
    read_json,
    read_prefix,
    text_or_none,
)
from mle_gym.evaluation.viewer.steps import load_trajectory
from mle_gym.evaluation.viewer.workspace import load_files, load_log

REPORT_JSON = "report.json"
PLOTS_DIR = "plots"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MEDALS = ("gold", "silver", "bronze")
_SEED_DIR = re.compile(r"seed-(\d{1,9})")
MAX_ERRORS = 20


def load_run(run_dir: Path | str, limits: Limits | None = None) -> RunView:
    """Everything the viewer shows of ``run_dir`` (see the module docstring)."""
    limits = limits or Limits()
    run_dir = Path(run_dir)
    raw_config, config = _read_config(run_dir, limits)
    notes: list[str] = []
    keys = _episode_keys(run_dir, config)
    per_episode = limits.per_episode(len(keys))
    episodes = [
        _load_episode(i, run_dir, key, limits, Budget(per_episode))
        for i, key in enumerate(keys, start=1)
    ]
    raw_report, problem = read_json(run_dir / REPORT_JSON, limits.json_bytes)
    if problem:
        notes.append(problem)
    if not isinstance(raw_report, dict):
        raw_report = None
    report, report_note = _summary(run_dir, raw_report, episodes)
    provenance = first_dict(
        (raw_report or {}).get("provenance"), raw_config.get("provenance"), limits=limits
    )
    plots = _load_plots(run_dir, raw_report, limits, notes)
    if plots and report_note:
        notes.append(
            "the plots are as drawn with report.json, not with the figures computed now; "
            f"mle-gym report {run_dir} redraws them"
        )
    return RunView(
        run_dir=str(run_dir),
        config=bounded(raw_config, limits.value_chars),
        provenance=provenance,
        report=report,
        report_note=report_note,
        plots=plots,
        episodes=episodes,
        notes=notes,
        limits=limits,
    )


# --- the run --------------------------------------------------------------------------


def _read_config(run_dir: Path, limits: Limits) -> tuple[dict[str, Any], RunConfig]:
    if not run_dir.exists():
        raise NotARunError(f"{run_dir} does not exist")
    if not run_dir.is_dir():
        raise NotARunError(f"{run_dir} is not a directory, so not an evaluation run")
    path = layout.config_path(run_dir)
    if not path.is_file():
        raise NotARunError(
            f"{run_dir} is not an evaluation run: it has no {layout.CONFIG_FILE} "
            "(run directories are made by mle-gym eval --out)"
        )
    raw, problem = read_json(path, limits.json_bytes)
    if problem:
        raise NotARunError(f"{run_dir} is not a readable evaluation run: {problem}")
    try:
        config = RunConfig.from_json(raw)
    except EvalConfigError as exc:
        raise NotARunError(
            f"{run_dir} is not an evaluation run: {layout.CONFIG_FILE}: {exc}"
        ) from exc
    return raw, config


def _episode_keys(run_dir: Path, config: RunConfig) -> list[tuple[str, int, str | None, bool]]:
    """(task id, seed, env id, planned) of the planned episodes in (task, seed) order, then
    of any other episode folder on disk."""
    keys: list[tuple[str, int, str | None, bool]] = [
        (layout.task_id_of(env_id), seed, env_id, True)
        for env_id in config.tasks
        for seed in config.seeds
    ]
    planned = {(task, seed) for task, seed, _, _ in keys}
    root = run_dir / layout.EPISODES_DIR
    for task_dir in _subdirs(root):
        for seed_dir in _subdirs(task_dir):
            match = _SEED_DIR.fullmatch(seed_dir.name)
            if match and (task_dir.name, int(match.group(1))) not in planned:
                keys.append((task_dir.name, int(match.group(1)), None, False))
    return keys


def _subdirs(folder: Path) -> list[Path]:
    try:
        with os.scandir(folder) as entries:
            found = [Path(e.path) for e in entries if e.is_dir(follow_symlinks=False)]
    except OSError:
        return []
    return sorted(found, key=lambda p: p.name)


def _summary(
    run_dir: Path, raw_report: dict[str, Any] | None, episodes: list[Episode]
) -> tuple[dict[str, Any] | None, str | None]:
    planned = [e for e in episodes if e.planned]
    counts = {
        "planned": len(planned),
        "finished": sum(e.status != "pending" for e in planned),
        "done": sum(e.status == "done" for e in planned),
        "failed": sum(e.status == "failed" for e in planned),
        "pending": sum(e.status == "pending" for e in planned),
    }
    stored = raw_report.get("counts") if raw_report is not None else None
    if isinstance(stored, dict) and {k: stored.get(k) for k in counts} == counts:
        return raw_report, None
    if raw_report is None:
        why = "report.json is not written yet"
    else:
        old = raw_report.get("counts") or {}
        why = (
            f"report.json is out of date (written when {old.get('finished', '?')} of "
            f"{old.get('planned', '?')} episodes had finished)"
        )
    from mle_gym.evaluation.run_report import build_report

    try:
        live = build_report(run_dir)
    except Exception as exc:  # an unknown task, a malformed record: show what exists
        if raw_report is not None:
            return raw_report, f"{why}; it could not be recomputed ({type(exc).__name__}: {exc})"
        return None, f"{why}, and no summary could be computed ({type(exc).__name__}: {exc})"
    return live, f"{why}: the figures are computed now from the episode folders"


def _load_plots(
    run_dir: Path, raw_report: dict[str, Any] | None, limits: Limits, notes: list[str]
) -> list[Plot]:
    folder = run_dir / PLOTS_DIR
    try:
        with os.scandir(folder) as entries:
            names = sorted(
                e.name for e in entries if e.name.endswith(".png") and not e.is_symlink()
            )
    except OSError:
        return []
    plotted = (raw_report or {}).get("plots")
    listed = [Path(str(p)).name for p in plotted] if isinstance(plotted, list) else []
    order = [n for n in listed if n in names] + [n for n in names if n not in listed]
    plots = []
    for name in order:
        data = read_prefix(folder / name, limits.plot_bytes + 1)
        if data is None or len(data) > limits.plot_bytes or not data.startswith(PNG_SIGNATURE):
            notes.append(
                f"plot {name} is not shown: not a readable PNG of at most "
                f"{limits.plot_bytes:,} bytes"
            )
            continue
        plots.append(Plot(name.removesuffix(".png"), base64.b64encode(data).decode("ascii")))
    return plots


# --- one episode ------------------------------------------------------------------------


def _load_episode(
    number: int,
    run_dir: Path,
    key: tuple[str, int, str | None, bool],
    limits: Limits,
    budget: Budget,
) -> Episode:
    task_id, seed, env_id, planned = key
    folder = layout.episode_dir(run_dir, task_id, seed)
    raw, problem = read_json(folder / layout.EPISODE_FILE, limits.json_bytes)
    record = raw if isinstance(raw, dict) else {}
    status = str(record["status"]) if record.get("status") in ("done", "failed") else "pending"
    ep = Episode(
        number=number,
        task_id=task_id,
        seed=seed,
        env_id=env_id or text_or_none(record.get("env_id")),
        planned=planned,
        status=status,
        outcome="pending",
    )
    if problem:
        ep.notes.append(problem)
    elif raw is not None and status == "pending":
        ep.notes.append("episode.json is not a finished episode record")
    if not planned:
        ep.notes.append("this episode folder is not in the run's plan (config.json)")
    if status != "pending":
        grade, problem = read_json(folder / layout.GRADE_FILE, limits.json_bytes)
        if problem:
            ep.notes.append(problem)
        ep.grade = bounded(grade, limits.value_chars) if isinstance(grade, dict) else None
        _fill_from_record(ep, record, limits, budget)
    ep.outcome = outcome_of(status, ep.grade)
    ep.medal = medal_of(ep.grade) if ep.grade else None
    trajectory = folder / layout.TRAJECTORY_FILE
    if trajectory.is_file():
        ep.started = True
        load_trajectory(ep, trajectory, limits, budget)
        if ep.steps is None:
            ep.steps = sum(1 for s in ep.transcript if s.index is not None)
    load_files(ep, folder / layout.FINAL_DIR, limits, budget)
    ep.log = load_log(ep, folder / layout.LOG_FILE, limits, budget)
    return ep


def outcome_of(status: str, grade: dict[str, Any] | None) -> str:
    """pending, failed, not graded (done without a grade), valid, no submission or invalid."""
    if status in ("pending", "failed"):
        return status
    if not isinstance(grade, dict):
        return "not graded"
    if grade.get("valid"):
        return "valid"
    if grade.get("submission_exists") is False:
        return "no submission"
    return "invalid"


def medal_of(grade: dict[str, Any]) -> str | None:
    """The medal a grade awards (``none`` when it decides medals and awards none; None
    when it decides none, as on replica data)."""
    flags = [grade.get(f"{medal}_medal") for medal in MEDALS]
    for medal, flag in zip(MEDALS, flags, strict=True):
        if flag is True:
            return medal
    return "none" if any(flag is False for flag in flags) else None


_RECORD_SKIP = frozenset(
    {"format", "config", "errors", "final_files", "tool_errors", "timing", "provenance"}
)


def _fill_from_record(ep: Episode, record: dict[str, Any], limits: Limits, budget: Budget) -> None:
    ep.score = record.get("score") if ep.status == "done" else None
    ep.reward = number(record.get("reward"))
    steps = record.get("steps")
    ep.steps = steps if isinstance(steps, int) and not isinstance(steps, bool) else None
    ep.record = {
        str(k): bounded(v, limits.value_chars) for k, v in record.items() if k not in _RECORD_SKIP
    }
    timing = record.get("timing")
    ep.timing = bounded(timing, limits.value_chars) if isinstance(timing, dict) else {}
    ep.provenance = first_dict(record.get("provenance"), limits=limits)
    errors = record.get("errors")
    for entry in (errors if isinstance(errors, list) else [])[:MAX_ERRORS]:
        if not isinstance(entry, dict):
            continue
        trace = as_text(entry.get("traceback"))
        ep.errors.append(
            ErrorEntry(
                phase=as_text(entry.get("phase"))[:200],
                type=as_text(entry.get("type"))[:200],
                message=budget.clip(as_text(entry.get("message")), limits.text_chars),
                traceback=budget.clip(trace, limits.error_chars, tail_share=0.6) if trace else None,
            )
        )
    if isinstance(errors, list) and len(errors) > MAX_ERRORS:
        ep.notes.append(f"{len(errors) - MAX_ERRORS} more errors are not shown")
    tool_errors = record.get("tool_errors")
    if isinstance(tool_errors, dict):
        ep.tool_errors = bounded(tool_errors, 300)
    final = record.get("final_files")
    skipped = final.get("skipped") if isinstance(final, dict) else None
    for item in (skipped if isinstance(skipped, list) else [])[:MAX_ITEMS]:
        if isinstance(item, dict):
            ep.skipped_files.append(
                {
                    "path": as_text(item.get("path"))[:500],
                    "reason": as_text(item.get("reason"))[:500],
                }
            )
