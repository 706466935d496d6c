"""Aggregate an evaluation run's episode folders into report.json, report.md and plots.

``build_report(run_dir)`` reads ``config.json`` and, for every planned episode,
``episode.json`` and ``grade.json``; ``write_report(run_dir)`` writes the files.
The report depends only on those files, so it can be rebuilt at any time
(``mle-gym report RUN_DIR``) and a resumed run reports what an uninterrupted
one would, apart from timing fields.

Per-episode outcome (the ``episodes`` rows)
    A pending episode (no episode.json) is listed but counts nowhere. A failed
    episode counts as no submission: not made, not valid, no score, reward 0,
    no medal, not above the median, no success. ``data_source`` is the grade's,
    else the one recorded at reset, else the run's ``--data`` when it names one.
    A valid submission counts as made, whatever the grade says of the file (an
    MLAgentBench grade judges re-run code). Rows also carry ``failure_kind``
    (agent / environment / timeout / unknown), the resolved ``reward_mode`` (a
    failed episode without one takes its task's), ``replica_seed``,
    ``data_variant``, ``mlebench_checksums`` (Kaggle data only: match, mismatch,
    not published, not checked), and ``software``/``sandbox``/``grading`` from the
    record's provenance.

Per task (``tasks[<task_id>]``): every statistic is ``{"mean", "sem", "n"}``
over the task's finished seeds (stats.py):
    ``made_submission_pct``, ``valid_submission_pct`` (all data sources);
    ``above_median_pct``, ``gold_pct``, ``silver_pct``, ``bronze_pct``,
    ``any_medal_pct`` and ``leaderboard_percentile`` (an invalid submission
    counts 0) — only over episodes on Kaggle data, as MLE-bench does (``n == 0``
    otherwise; medals are never claimed on replica data);
    ``score`` (valid submissions only; its ``of`` is the number of finished
    episodes), ``reward`` (failed = 0) with ``reward_modes``, ``steps`` (``over``:
    episodes), ``replica_seeds``, ``mlebench_checksums`` and ``checksum_mismatch``,
    ``failure_kinds``;
    ``success_pct`` — MLAgentBench's success rate: the final score beats the
    baseline by more than 10% relative, in the task's direction (a baseline of 0
    needs any improvement) — the grade's own ``baseline`` and ``success`` when it
    has them (MLAgentBench episodes measure the starter code's score), else the
    task's ``baseline_score`` (``task.data[<data source>]["baseline_score"]``);
    only where a baseline exists;
    ``usage`` — sums of the numeric fields of the agents' usage records (token
    and request counts; fields measuring seconds are summed under ``timing.usage``).

ML-Bench: rows of ML-Bench episodes carry ``example_id`` and ``passed``; when some
example was run more than once, ``tasks[<task_id>]["pass_at_k"]`` and
``overall["pass_at_k"]`` give the unbiased pass@k over examples (k = 1, 2, 5, 10... up
to the fewest samples any example has), with ``examples`` and ``samples_per_example``;
episodes that failed without a grade are not attributed to an example.

Overall (``overall``): for the percentages, ``reward``, ``success_pct`` and
``leaderboard_percentile`` (a fraction in [0, 1] here; report.md shows it in %),
MLE-bench's protocol: for each seed the value over the tasks that have a
(qualifying) finished episode with that seed, then mean ± SEM across seeds (each
such statistic also has ``per_seed``). ``reward`` is averaged only when every
finished episode has the same resolved reward mode (``reward["mode"]``); otherwise
its mean is None and ``reward["mixed_modes"]`` lists them — different modes are
different scales —, and ``reward_by_mode`` has the statistic of each mode.
``steps`` and ``timing.seconds`` are over all finished episodes (``over``:
episodes). ``checksum_mismatch_tasks``: Kaggle tasks whose prepared files differ
from MLE-bench's. Scores of different tasks are not averaged. ``failure_kinds``
counts failed episodes by kind.

Provenance (``provenance``, :func:`run_provenance`): the software writing the
report, and over the finished episodes (each distinct value with its episode
count) the software that ran them, the sandboxes, grading modes and data
variants; the agent spec; and the selection asked for (``config.json``'s
``selection``), when recorded.

Timing: every field that measures time is under a key named ``timing`` (or is
``generated_at``); :func:`strip_timing` removes them to compare two reports.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mle_gym.evaluation import layout
from mle_gym.evaluation.config import RunConfig, load_config
from mle_gym.evaluation.errors import EvalConfigError
from mle_gym.evaluation.report_md import render_markdown
from mle_gym.evaluation.stats import mean_sem
from mle_gym.evaluation.task_figures import TaskInfo, task_info

REPORT_FORMAT = "mle_gym.eval.report/1"
REPORT_JSON = "report.json"
REPORT_MD = "report.md"
PLOTS_DIR = "plots"
TIMING_KEYS = frozenset({"timing", "generated_at"})
SUCCESS_MARGIN = 0.10
MEDALS = ("gold", "silver", "bronze")
ALL_DATA_PCTS = ("made_submission_pct", "valid_submission_pct")
KAGGLE_PCTS = ("above_median_pct", "gold_pct", "silver_pct", "bronze_pct", "any_medal_pct")


def beats_baseline(score: float | None, baseline: float | None, lower_is_better: bool) -> bool:
    """MLAgentBench success: ``score`` improves on ``baseline`` by more than 10% relative."""
    if score is None or baseline is None:
        return False
    gain = (baseline - score) if lower_is_better else (score - baseline)
    if baseline == 0:
        return gain > 0
    return gain / abs(baseline) > SUCCESS_MARGIN


def _flatten_numbers(value: Any, prefix: str = "") -> dict[str, float]:
    out: dict[str, float] = {}
    if isinstance(value, dict):
        for key, item in value.items():
            out.update(_flatten_numbers(item, f"{prefix}{key}."))
    elif isinstance(value, int | float) and not isinstance(value, bool):
        out[prefix.rstrip(".")] = float(value)
    return out


def _sum_numbers(items: Iterable[dict[str, float]]) -> dict[str, float]:
    total: dict[str, float] = {}
    for item in items:
        for key, value in item.items():
            total[key] = round(total.get(key, 0.0) + value, 6)
    return dict(sorted(total.items()))


def _sum_usage(rows: Iterable[dict[str, Any]]) -> dict[str, float]:
    return _sum_numbers(row.get("usage") or {} for row in rows)


def _sum_usage_seconds(rows: Iterable[dict[str, Any]]) -> dict[str, float]:
    return _sum_numbers(row["timing"].get("usage") or {} for row in rows)


def episode_outcome(
    config: RunConfig,
    env_id: str,
    seed: int,
    record: dict[str, Any] | None,
    grade: dict[str, Any] | None,
    info: TaskInfo,
) -> dict[str, Any]:
    """One row of ``episodes``: the normalised outcome (see the module docstring)."""
    status = record.get("status") if record else "pending"
    row: dict[str, Any] = {"task_id": layout.task_id_of(env_id), "env_id": env_id, "seed": seed}
    row["status"] = status
    if record is None:
        return row
    ok = status == "done" and isinstance(grade, dict)
    g = grade if ok else {}
    assert g is not None
    source = g.get("data_source") or record.get("data_source")
    if source is None and config.data in ("kaggle", "replica", "bundled"):
        source = config.data
    lower = info.lower_is_better
    if lower is None:
        lower = bool(g.get("is_lower_better"))
    valid = bool(g.get("valid"))
    score = g.get("score") if valid else None
    kaggle = source == "kaggle"
    medal = None
    if kaggle:
        medal = next((m for m in MEDALS if g.get(f"{m}_medal")), "none")
    baseline = info.baseline(source)
    own_baseline = g.get("baseline")  # MLAgentBench grades carry their measured baseline
    if own_baseline is not None:
        baseline = float(own_baseline)
    errors = record.get("errors") or []
    usage = _flatten_numbers(record.get("usage") or {})
    provenance = record.get("provenance") or {}
    data = provenance.get("data") or {}
    checks = data.get("checks") or {}
    row.update(
        data_source=source,
        # a valid submission was made, whatever the family's grade says of the file
        submission_exists=bool(g.get("submission_exists")) or valid,
        valid=valid,
        score=score,
        reward=float(record.get("reward") or 0.0) if status == "done" else 0.0,
        steps=int(record.get("steps") or 0),
        medal=medal,
        above_median=bool(g.get("above_median")) if kaggle else None,
        leaderboard_percentile=(float(g.get("percentile") or 0.0) if valid else 0.0)
        if kaggle
        else None,
        baseline_score=baseline,
        success=(
            bool(g.get("success"))
            if own_baseline is not None and "success" in g
            else beats_baseline(score, baseline, lower)
        )
        if baseline is not None
        else None,
        error=(f"{errors[0].get('type')}: {errors[0].get('message')}" if errors else None)
        if status == "failed"
        else None,
        failure_kind=failure_kind(record) if status == "failed" else None,
        reward_mode=record.get("reward_mode") or provenance.get("reward_mode"),
        replica_seed=data.get("replica_seed"),
        data_variant=data.get("variant"),
        mlebench_checksums=checks.get("mlebench_checksums") if kaggle else None,
        software=_software_key(provenance.get("software")),
        sandbox=provenance.get("sandbox"),
        grading=provenance.get("grading"),
        usage={k: v for k, v in usage.items() if "seconds" not in k},
        timing={
            "seconds": (record.get("timing") or {}).get("seconds"),
            "usage": {k: v for k, v in usage.items() if "seconds" in k},
        },
    )
    if g.get("example_id") is not None and "passed" in g:  # pass/fail examples (ML-Bench)
        row.update(example_id=g["example_id"], passed=bool(g.get("passed")))
    return row


#: the failure kind of an error phase, for records written before ``failure_kind`` existed
PHASE_KINDS = {
    "make_env": "environment",
    "make_agent": "agent",
    "agent": "agent",
    "reset": "environment",
    "step": "environment",
    "worker": "environment",
    "snapshot": "environment",
    "close": "environment",
}


def failure_kind(record: dict[str, Any]) -> str:
    """Why a failed episode failed: its record's ``failure_kind`` ("agent" — the agent's
    code or its model endpoint —, "environment", "timeout", ...), else one derived from
    the first error's phase ("unknown" when none tells)."""
    kind = record.get("failure_kind")
    if isinstance(kind, str) and kind:
        return kind
    errors = record.get("errors") or [{}]
    return PHASE_KINDS.get(str(errors[0].get("phase")), "unknown")


def _software_key(block: Any) -> dict[str, Any] | None:
    """The version/commit part of a record's ``software`` provenance."""
    if not isinstance(block, dict):
        return None
    return {k: block.get(k) for k in ("mle_gym", "commit", "dirty")}


def _distinct(values: Iterable[Any]) -> list[dict[str, Any]]:
    """Distinct JSON values with how many episodes had each (first-seen order)."""
    import json

    seen: dict[str, list[Any]] = {}
    for value in values:
        key = json.dumps(value, sort_keys=True)
        seen.setdefault(key, [value, 0])[1] += 1
    return [{"value": v, "episodes": n} for v, n in seen.values()]


def run_provenance(run_dir: Path, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """``report["provenance"]``: the software writing the report, and over the finished
    episodes the distinct software versions, sandboxes, grading modes, data variants and
    MLE-bench checksum statuses (each with its episode count); the agent spec; and the
    selections the run was asked for (``config.json``'s ``selection``: one entry per
    session that selected tasks — split, benchmark, task ids, flags, and every task
    skipped with the reason), when recorded."""
    from mle_gym.provenance import software

    done = _finished(rows)
    stored = layout.read_json(layout.config_path(run_dir)) or {}
    return {
        "report_software": software(),
        "episode_software": _distinct(r.get("software") for r in done),
        "sandbox": _distinct(r.get("sandbox") for r in done),
        "grading": _distinct(r.get("grading") for r in done),
        "data": _distinct(
            {
                "task_id": r["task_id"],
                "source": r.get("data_source"),
                "variant": r.get("data_variant"),
                "replica_seed": r.get("replica_seed"),
                "mlebench_checksums": r.get("mlebench_checksums"),
            }
            for r in done
        ),
        "agent": {"spec": stored.get("agent"), "args": stored.get("agent_args") or {}},
        "selection": stored.get("selection"),
    }


def _fill_reward_modes(rows: list[dict[str, Any]]) -> None:
    """A row without a reward mode (an episode that failed before reset) takes its task's,
    when the task's other episodes agree on one."""
    modes: dict[str, set[str]] = {}
    for r in rows:
        if r.get("reward_mode"):
            modes.setdefault(r["env_id"], set()).add(r["reward_mode"])
    for r in rows:
        if r["status"] != "pending" and not r.get("reward_mode"):
            known = modes.get(r["env_id"], set())
            if len(known) == 1:
                r["reward_mode"] = next(iter(known))


PASS_AT_KS = (1, 2, 5, 10, 20, 50, 100)


def pass_at_k_stats(rows: Iterable[dict[str, Any]]) -> dict[str, Any] | None:
    """Unbiased pass@k over the examples of ML-Bench rows (None when no example was run
    more than once; keys are ``(env_id, example_id)``)."""
    from mle_gym.evaluation.passk import pass_at_ks

    outcomes: dict[tuple[str, Any], list[bool]] = {}
    for r in rows:
        if r.get("status") == "done" and r.get("example_id") is not None:
            outcomes.setdefault((r["env_id"], r["example_id"]), []).append(bool(r["passed"]))
    if not outcomes or max(len(v) for v in outcomes.values()) < 2:
        return None
    counts = [len(v) for v in outcomes.values()]
    values = pass_at_ks(outcomes, PASS_AT_KS)
    return {
        "k": {str(k): round(v, 6) for k, v in values.items()},
        "examples": len(outcomes),
        "samples_per_example": {"min": min(counts), "max": max(counts)},
    }


def load_rows(run_dir: Path, config: RunConfig) -> list[dict[str, Any]]:
    """Outcome rows of every planned episode, in (task, seed) order."""
    infos = {env_id: task_info(env_id) for env_id in config.tasks}
    rows = []
    for env_id in config.tasks:
        for seed in config.seeds:
            folder = layout.episode_dir(run_dir, layout.task_id_of(env_id), seed)
            record = layout.read_episode_record(folder)
            grade = layout.read_json(folder / layout.GRADE_FILE) if record else None
            rows.append(episode_outcome(config, env_id, seed, record, grade, infos[env_id]))
    _fill_reward_modes(rows)
    return rows


def _finished(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in rows if r["status"] in ("done", "failed")]


def _counts(rows: list[dict[str, Any]]) -> dict[str, int]:
    return {
        "planned": len(rows),
        "finished": sum(r["status"] != "pending" for r in rows),
        "done": sum(r["status"] == "done" for r in rows),
        "failed": sum(r["status"] == "failed" for r in rows),
        "pending": sum(r["status"] == "pending" for r in rows),
    }


def _flag(row: dict[str, Any], metric: str) -> bool:
    if metric == "made_submission_pct":
        return bool(row.get("submission_exists"))
    if metric == "valid_submission_pct":
        return bool(row.get("valid"))
    if metric == "above_median_pct":
        return bool(row.get("above_median"))
    if metric == "any_medal_pct":
        return row.get("medal") in MEDALS
    return row.get("medal") == metric.removesuffix("_pct")


def _qualifies(row: dict[str, Any], metric: str) -> bool:
    if metric in KAGGLE_PCTS or metric == "leaderboard_percentile":
        return row.get("data_source") == "kaggle"
    if metric == "success_pct":
        return row.get("baseline_score") is not None
    return True


def _value(row: dict[str, Any], metric: str) -> float:
    if metric == "reward":
        return float(row["reward"])
    if metric == "leaderboard_percentile":
        return float(row["leaderboard_percentile"])
    if metric == "success_pct":
        return 100.0 if row.get("success") else 0.0
    return 100.0 if _flag(row, metric) else 0.0


def _task_stats(info: TaskInfo, env_id: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    done = _finished(rows)
    out: dict[str, Any] = {
        "env_id": env_id,
        "metric": info.metric,
        "lower_is_better": info.lower_is_better,
        "data_sources": sorted({r["data_source"] for r in done if r.get("data_source")}),
        "baseline_score": next(
            (r["baseline_score"] for r in done if r.get("baseline_score") is not None), None
        ),
        "episodes": _counts(rows),
    }
    for metric in (*ALL_DATA_PCTS, *KAGGLE_PCTS, "leaderboard_percentile", "success_pct"):
        out[metric] = mean_sem(_value(r, metric) for r in done if _qualifies(r, metric))
    # scores of valid submissions only: "of" says over how many finished episodes
    out["score"] = {
        **mean_sem(r["score"] for r in done if r.get("score") is not None),
        "of": len(done),
    }
    out["reward"] = mean_sem(r["reward"] for r in done)
    out["reward_modes"] = sorted({r["reward_mode"] for r in done if r.get("reward_mode")})
    out["replica_seeds"] = sorted({r["replica_seed"] for r in done if _has_replica_seed(r)})
    out["mlebench_checksums"] = sorted(
        {r["mlebench_checksums"] for r in done if r.get("mlebench_checksums")}
    )
    out["checksum_mismatch"] = "mismatch" in out["mlebench_checksums"]
    out["failure_kinds"] = _failure_kinds(rows)
    passk = pass_at_k_stats(done)
    if passk is not None:
        out["pass_at_k"] = passk
    out["steps"] = {**mean_sem(r["steps"] for r in done), "over": "episodes"}
    out["usage"] = _sum_usage(done)
    seconds = [r["timing"]["seconds"] for r in done if r["timing"].get("seconds") is not None]
    out["timing"] = {
        "seconds": mean_sem(seconds),
        "total_seconds": round(sum(seconds), 3),
        "usage": _sum_usage_seconds(done),
    }
    return out


def _has_replica_seed(row: dict[str, Any]) -> bool:
    return row.get("data_source") == "replica" and row.get("replica_seed") is not None


def _failure_kinds(rows: Iterable[dict[str, Any]]) -> dict[str, int]:
    kinds: dict[str, int] = {}
    for r in rows:
        if r["status"] == "failed":
            kind = r.get("failure_kind") or "unknown"
            kinds[kind] = kinds.get(kind, 0) + 1
    return dict(sorted(kinds.items()))


def _reward_stats(done: list[dict[str, Any]], seeds: Iterable[int]) -> dict[str, Any]:
    """``overall["reward"]`` and, by resolved reward mode, ``overall["reward_by_mode"]``.

    Rewards of different modes are on different scales (a leaderboard percentile, a
    normalised score): they are averaged only when every finished episode has one mode;
    otherwise ``reward`` has no mean and ``mixed_modes`` lists the modes."""
    seeds = list(seeds)
    modes = sorted({r.get("reward_mode") or "unknown" for r in done})
    by_mode = {
        mode: _across_seeds(
            [r for r in done if (r.get("reward_mode") or "unknown") == mode], seeds, "reward"
        )
        for mode in modes
    }
    if len(modes) <= 1:
        reward = _across_seeds(done, seeds, "reward")
        reward["mode"] = modes[0] if modes else None
        return {"reward": reward, "reward_by_mode": by_mode}
    reward = {"mean": None, "sem": None, "n": 0, "per_seed": {}, "mode": None}
    reward["mixed_modes"] = modes
    return {"reward": reward, "reward_by_mode": by_mode}


def _across_seeds(rows: list[dict[str, Any]], seeds: Iterable[int], metric: str) -> dict[str, Any]:
    per_seed: dict[str, float] = {}
    for seed in seeds:
        values = [_value(r, metric) for r in rows if r["seed"] == seed and _qualifies(r, metric)]
        if values:
            per_seed[str(seed)] = round(sum(values) / len(values), 6)
    return {**mean_sem(per_seed.values()), "per_seed": per_seed}


def aggregate(config: RunConfig, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The ``counts``, ``overall`` and ``tasks`` sections from outcome rows (pure)."""
    infos = {env_id: task_info(env_id) for env_id in config.tasks}
    tasks = {}
    for env_id in config.tasks:
        task_rows = [r for r in rows if r["env_id"] == env_id]
        tasks[layout.task_id_of(env_id)] = _task_stats(infos[env_id], env_id, task_rows)
    done = _finished(rows)
    overall: dict[str, Any] = {"tasks": len(config.tasks), "seeds": len(config.seeds)}
    for metric in (
        *ALL_DATA_PCTS,
        *KAGGLE_PCTS,
        "leaderboard_percentile",
        "success_pct",
    ):
        overall[metric] = _across_seeds(done, config.seeds, metric)
    overall.update(_reward_stats(done, config.seeds))
    # over finished episodes, not seeds (labelled so in report.md)
    overall["steps"] = {**mean_sem(r["steps"] for r in done), "over": "episodes"}
    overall["checksum_mismatch_tasks"] = sorted(
        name for name, t in tasks.items() if t["checksum_mismatch"]
    )
    passk = pass_at_k_stats(done)
    if passk is not None:
        overall["pass_at_k"] = passk
    usage = _sum_usage(done)
    overall["usage"] = {
        "total": usage,
        "per_episode": {k: round(v / len(done), 6) for k, v in usage.items()} if done else {},
    }
    seconds = [r["timing"]["seconds"] for r in done if r["timing"].get("seconds") is not None]
    overall["timing"] = {
        "seconds": {**mean_sem(seconds), "over": "episodes"},
        "total_seconds": round(sum(seconds), 3),
        "usage": _sum_usage_seconds(done),
    }
    failures = [
        {
            "task_id": r["task_id"],
            "seed": r["seed"],
            "kind": r.get("failure_kind") or "unknown",
            "error": r.get("error"),
        }
        for r in rows
        if r["status"] == "failed"
    ]
    return {
        "counts": _counts(rows),
        "failure_kinds": _failure_kinds(rows),
        "overall": overall,
        "tasks": tasks,
        "failures": failures,
    }


def build_report(run_dir: Path | str) -> dict[str, Any]:
    """The full report of a run directory (see the module docstring)."""
    run_dir = Path(run_dir)
    config = load_config(run_dir)
    if config is None:
        raise EvalConfigError(f"{run_dir} holds no evaluation run (no config.json)")
    rows = load_rows(run_dir, config)
    report: dict[str, Any] = {
        "format": REPORT_FORMAT,
        "generated_at": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "config": config.to_json(),
    }
    report.update(aggregate(config, rows))
    report["provenance"] = run_provenance(run_dir, rows)
    report["episodes"] = rows
    return report


def strip_timing(value: Any) -> Any:
    """A copy of ``value`` without any ``timing``/``generated_at`` key, at any depth."""
    if isinstance(value, dict):
        return {k: strip_timing(v) for k, v in value.items() if k not in TIMING_KEYS}
    if isinstance(value, list):
        return [strip_timing(v) for v in value]
    return value


def write_report(run_dir: Path | str, *, plots: bool = True) -> dict[str, Any]:
    """Build the report and write report.json, report.md and (optionally) plots/*.png;
    return the report. Plots are skipped with a note if matplotlib is missing."""
    run_dir = Path(run_dir)
    report = build_report(run_dir)
    report["plots"] = []
    if plots:
        try:
            from mle_gym.evaluation.plots import write_plots
        except ImportError as exc:  # matplotlib is an optional dependency
            report["plots_skipped"] = f"matplotlib is not available: {exc}"
        else:
            written = write_plots(report, run_dir / PLOTS_DIR)
            report["plots"] = [str(p.relative_to(run_dir)) for p in written]
    layout.write_json_atomic(run_dir / REPORT_JSON, report)
    layout.write_text_atomic(run_dir / REPORT_MD, render_markdown(report))
    return report
