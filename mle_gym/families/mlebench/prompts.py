"""The texts the agent of an MLE-bench episode reads: the task observation and the
end-of-episode summary (the system prompt is the default toolset's,
:func:`mle_gym.families.toolsets.system_prompt`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mle_gym.families.mlebench.task import MLEBenchTask
from mle_gym.families.toolsets import system_prompt
from mle_gym.task_spec import Limits
from mle_gym.textfmt import budget_line
from mle_gym.tools.spec import ToolSpec

__all__ = ["end_summary", "system_prompt", "task_observation"]

if TYPE_CHECKING:
    from mle_gym.families.mlebench.grade_report import GradeReport


def task_observation(
    task: MLEBenchTask, listing: str, tools: list[ToolSpec], max_steps: int, limits: Limits
) -> str:
    """The first observation of an episode."""
    sub = task.submission
    return "\n".join(
        [
            f"# Task: {task.title} ({task.env_id})",
            "",
            task.description().strip(),
            "",
            "## Your episode",
            f"- Write your predictions to /workspace/{sub.file} "
            f"(columns: {', '.join([sub.id_column, *sub.target_columns])}), then call submit.",
            budget_line(max_steps, limits.time_budget_s, limits.exec_timeout_s),
            f"- Sandbox limits: {limits.memory_mb:,} MB of memory, {limits.cpus:g} CPU core(s), "
            f"{limits.pids} processes, {limits.disk_mb:,} MB of workspace disk, no network.",
            "",
            "## Workspace",
            listing,
            "",
            "## Tools",
            ", ".join(t.name for t in tools),
        ]
    )


def end_summary(grade: GradeReport, reward: float, reason: str | None) -> str:
    """What the agent is told when the episode ends."""
    why = (
        f"Episode over ({reason}); the submission file was graded."
        if reason
        else ("Episode over: your submission was graded.")
    )
    if not grade.valid:
        return f"{why}\nThe submission is invalid: {grade.message}\nReward: {reward:g}"
    parts = [why, f"Score: {grade.score} · reward: {reward:.4g}"]
    if grade.any_medal is not None:
        medal = next(
            (m for m in ("gold", "silver", "bronze") if getattr(grade, f"{m}_medal")), None
        )
        parts.append(f"Medal: {medal or 'none'}")
    if grade.strict_findings:  # graded as MLE-bench grades; the habits it does not enforce
        parts.append("Strict grading would have flagged: " + " | ".join(grade.strict_findings))
    return "\n".join(parts)
