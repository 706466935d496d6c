"""PNG plots of an evaluation report (matplotlib, Agg canvas; no pyplot state).

:func:`write_plots` writes into ``RUN_DIR/plots/``:

* ``reward.png`` — mean reward per task (± SEM over seeds), each seed a dot;
* ``score.png`` — each task's score per seed (one panel per task, in the task's
  own units; a dashed line at the mean), with the task's anchors: medal
  thresholds and median on Kaggle data, sample-submission and reference
  solution scores otherwise;
* ``medals.png`` — outcome distribution per task and pooled (Kaggle-data episodes
  apart from the others, as the report's medal figures count them; every bar says its
  episode count): gold / silver / bronze / above median / other valid / invalid / no
  submission / failed (medal categories only exist on Kaggle data);
* ``leaderboard.png`` — each task's score against its human leaderboard (the
  101 score-at-rank-fraction quantiles) on Kaggle data; against the replica's
  sample-submission and reference scores otherwise.

Importing this module imports matplotlib (an optional dependency); the report
writer skips plots when it is missing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from mle_gym.evaluation.task_figures import TaskInfo, task_info

OUTCOMES = (
    ("gold", "#d4af37"),
    ("silver", "#a8a9ad"),
    ("bronze", "#cd7f32"),
    ("above median", "#6baed6"),
    ("valid", "#9ecae1"),
    ("invalid", "#fdae6b"),
    ("no submission", "#d9d9d9"),
    ("failed", "#e6550d"),
)


def _save(fig: Figure, path: Path) -> Path:
    FigureCanvasAgg(fig)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90, bbox_inches="tight")
    return path


def _grid(n: int) -> tuple[Figure, list[Any]]:
    cols = max(1, min(4, n))
    rows = max(1, math.ceil(n / cols))
    fig = Figure(figsize=(4.2 * cols, 3.0 * rows + 0.4), layout="constrained")
    axes = [fig.add_subplot(rows, cols, i + 1) for i in range(n)]
    return fig, axes


def _rows_by_task(report: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {t: [] for t in report["tasks"]}
    for row in report["episodes"]:
        if row["status"] != "pending":
            out.setdefault(row["task_id"], []).append(row)
    return out


@dataclass(frozen=True)
class _Panel:
    """One task's subplot and what a per-task plot draws in it."""

    ax: Any
    name: str
    task: dict[str, Any]  # the report's entry of the task
    info: TaskInfo
    rows: list[dict[str, Any]]  # the task's finished episodes that have a score
    source: str | None  # the task's first data source


def _task_panels(report: dict[str, Any]) -> tuple[Figure, list[_Panel]]:
    """A figure with one subplot per task of ``report`` (see :func:`_grid`)."""
    names = list(report["tasks"])
    by_task = _rows_by_task(report)
    fig, axes = _grid(len(names))
    panels = []
    for ax, name in zip(axes, names, strict=True):
        task = report["tasks"][name]
        rows = [r for r in by_task[name] if r.get("score") is not None]
        source = task["data_sources"][0] if task["data_sources"] else None
        panels.append(_Panel(ax, name, task, task_info(task["env_id"]), rows, source))
    return fig, panels


def plot_reward(report: dict[str, Any], path: Path) -> Path:
    """``reward.png`` (see the module docstring)."""
    names = list(report["tasks"])
    by_task = _rows_by_task(report)
    fig = Figure(figsize=(8, 1.2 + 0.45 * max(1, len(names))), layout="constrained")
    ax = fig.add_subplot(1, 1, 1)
    for i, name in enumerate(names):
        stat = report["tasks"][name]["reward"]
        if stat["mean"] is not None:
            ax.barh(i, stat["mean"], xerr=stat["sem"] or 0.0, color="#9ecae1", capsize=3)
        rewards = [r["reward"] for r in by_task[name]]
        ax.scatter(rewards, [i] * len(rewards), color="#08519c", s=14, zorder=3)
    ax.set_yticks(range(len(names)), names)
    ax.invert_yaxis()
    ax.set_xlabel("reward (mean ± SEM over seeds; dots: seeds)")
    modes = sorted({m for t in report["tasks"].values() for m in t.get("reward_modes") or []})
    shown = ", ".join(modes) or report["config"]["reward_mode"]
    ax.set_title(
        f"Reward per task · {shown} mode" + (" (different scales)" if len(modes) > 1 else "")
    )
    return _save(fig, path)


def _anchors(info: TaskInfo, source: str | None) -> list[tuple[str, float, str]]:
    lb = info.leaderboard
    if source == "kaggle" and lb is not None:
        return [
            ("gold", lb.gold, "#d4af37"),
            ("silver", lb.silver, "#a8a9ad"),
            ("bronze", lb.bronze, "#cd7f32"),
            ("median", lb.median, "#636363"),
        ]
    figures = (info.data or {}).get(source or "") or {}
    out = []
    if figures.get("reference_score") is not None:
        out.append(("reference", float(figures["reference_score"]), "#31a354"))
    if figures.get("sample_submission_score") is not None:
        out.append(("sample", float(figures["sample_submission_score"]), "#969696"))
    return out


def plot_scores(report: dict[str, Any], path: Path) -> Path:
    """``score.png`` (see the module docstring)."""
    fig, panels = _task_panels(report)
    for p in panels:
        ax, name, task, rows = p.ax, p.name, p.task, p.rows
        ax.scatter([r["seed"] for r in rows], [r["score"] for r in rows], color="#08519c", s=20)
        if task["score"]["mean"] is not None:
            ax.axhline(task["score"]["mean"], color="#08519c", linestyle="--", linewidth=1)
        for label, value, color in _anchors(p.info, p.source):
            ax.axhline(value, color=color, linewidth=1, label=label)
        arrow = " (lower is better)" if task.get("lower_is_better") else ""
        ax.set_title(f"{name}{arrow}", fontsize=8)
        ax.set_xlabel("seed", fontsize=7)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylabel(task.get("metric") or "score", fontsize=7)
        ax.tick_params(labelsize=7)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=6, loc="best")
        if not rows:
            ax.text(0.5, 0.5, "no valid score", ha="center", va="center", transform=ax.transAxes)
    fig.suptitle("Score per seed (dashed: mean)")
    return _save(fig, path)


def _outcome(row: dict[str, Any]) -> str:
    if row["status"] == "failed":
        return "failed"
    if not row.get("submission_exists"):
        return "no submission"
    if not row.get("valid"):
        return "invalid"
    if row.get("medal") in ("gold", "silver", "bronze"):
        return str(row["medal"])
    if row.get("above_median"):
        return "above median"
    return "valid"


def medal_groups(report: dict[str, Any]) -> list[tuple[str, list[dict[str, Any]]]]:
    """The bars of ``medals.png``: one per task, then the pooled ones, each labelled with
    its episode count. Pooled episodes are split by data kind as the report's table
    counts them: "all tasks, Kaggle data" (the denominator of the medal figures) and,
    when the run has other data too, "all tasks, other data" (no medals there)."""
    by_task = _rows_by_task(report)
    groups = [(f"{name} (n={len(rows)})", rows) for name, rows in by_task.items()]
    pooled = [r for rows in by_task.values() for r in rows]
    kaggle = [r for r in pooled if r.get("data_source") == "kaggle"]
    other = [r for r in pooled if r.get("data_source") != "kaggle"]
    if kaggle:
        groups.append((f"all tasks, Kaggle data (n={len(kaggle)})", kaggle))
    if other:
        label = "all tasks, other data" if kaggle else "all tasks"
        groups.append((f"{label} (n={len(other)})", other))
    return groups


def plot_medals(report: dict[str, Any], path: Path) -> Path:
    """``medals.png`` (see the module docstring)."""
    labelled = medal_groups(report)
    names = [name for name, _ in labelled]
    groups = [rows for _, rows in labelled]
    fig = Figure(figsize=(10, 1.4 + 0.45 * len(names)), layout="constrained")
    ax = fig.add_subplot(1, 1, 1)
    left = [0.0] * len(names)
    for label, color in OUTCOMES:
        shares = []
        for rows in groups:
            n = len(rows)
            shares.append(100.0 * sum(_outcome(r) == label for r in rows) / n if n else 0.0)
        ax.barh(range(len(names)), shares, left=left, color=color, label=label)
        left = [a + b for a, b in zip(left, shares, strict=True)]
    ax.set_yticks(range(len(names)), names)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("% of finished episodes")
    ax.set_title("Outcomes (medals and median only on Kaggle data)")
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    return _save(fig, path)


def plot_leaderboard(report: dict[str, Any], path: Path) -> Path:
    """``leaderboard.png`` (see the module docstring)."""
    fig, panels = _task_panels(report)
    for p in panels:
        ax, name, task, info, rows, source = p.ax, p.name, p.task, p.info, p.rows, p.source
        lb = info.leaderboard
        ax.tick_params(labelsize=7)
        if source == "kaggle" and lb is not None and lb.score_at_rank_fraction:
            q = lb.score_at_rank_fraction
            xs = [i / (len(q) - 1) for i in range(len(q))]
            ax.plot(xs, q, color="#636363", linewidth=1, label="leaderboard")
            for r in rows:
                ax.axhline(r["score"], color="#08519c", linewidth=0.8, alpha=0.7)
                pct = r.get("leaderboard_percentile")
                if pct is not None:
                    ax.scatter([1.0 - pct], [r["score"]], color="#08519c", s=18, zorder=3)
            ax.set_xlabel("rank fraction (0 = first place)", fontsize=7)
            ax.set_ylabel(task.get("metric") or "score", fontsize=7)
        else:
            anchors = _anchors(info, source)
            for label, value, color in anchors:
                ax.axvline(value, color=color, linewidth=1.5, label=label)
            ax.scatter(
                [r["score"] for r in rows],
                [r["seed"] for r in rows],
                color="#08519c",
                s=20,
                label="agent",
                zorder=3,
            )
            ax.set_xlabel(task.get("metric") or "score", fontsize=7)
            ax.set_ylabel("seed", fontsize=7)
            ax.yaxis.set_major_locator(MaxNLocator(integer=True))
            if not anchors and not rows:
                ax.text(0.5, 0.5, "nothing to compare", ha="center", transform=ax.transAxes)
        ax.set_title(f"{name} · {source or 'no data'}", fontsize=8)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=6, loc="best")
    fig.suptitle("Scores against the leaderboard (Kaggle) or the replica's reference scores")
    return _save(fig, path)


def write_plots(report: dict[str, Any], out_dir: Path) -> list[Path]:
    """Write every plot into ``out_dir``; return the paths."""
    out_dir = Path(out_dir)
    return [
        plot_reward(report, out_dir / "reward.png"),
        plot_scores(report, out_dir / "score.png"),
        plot_medals(report, out_dir / "medals.png"),
        plot_leaderboard(report, out_dir / "leaderboard.png"),
    ]
