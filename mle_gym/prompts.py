"""The texts the agent reads: system prompt, task observation, end-of-episode summary."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from mle_gym.tasks import Limits, TaskSpec
from mle_gym.textfmt import budget_line
from mle_gym.tools.spec import ToolSpec

if TYPE_CHECKING:
    from mle_gym.grading import GradeReport


def system_prompt(tools: list[ToolSpec]) -> str:
    """Role, rules of the environment, the tools and the tool-call format."""
    lines = [
        "You are an expert machine-learning engineer working alone in a sandboxed Linux "
        "workspace. Solve the task you are given by inspecting the data, writing and running "
        "code, and producing the requested submission file.",
        "",
        "Rules of this environment:",
        "- Your working directory is /workspace. The task's data is in /workspace/data "
        "(read-only). There is no internet access.",
        "- Act by calling exactly one tool per turn. Each call costs one step of your budget.",
        "- validate_submission checks the format of your submission; it never reveals a score.",
        "- Call submit when your submission file is ready; it is graded and the episode ends. "
        "If your budget runs out first, the submission file as it is then is graded.",
        "",
        "Tools:",
    ]
    for t in tools:
        lines.append(f"- {t.signature_line()}: {t.description}")
    example = json.dumps({"name": "execute", "arguments": {"command": "ls data"}})
    lines += [
        "",
        "If your interface has no native tool calling, answer with one block:",
        f"<tool_call>{example}</tool_call>",
    ]
    return "\n".join(lines)


def task_observation(
    task: TaskSpec, listing: str, tools: list[ToolSpec], max_steps: int, limits: Limits
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
    return "\n".join(parts)
