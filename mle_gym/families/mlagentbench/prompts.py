"""The texts the agent of an MLAgentBench episode reads: the first observation (the
research problem, the success rule, the budget) and MLAgentBench's tool names."""

from __future__ import annotations

from mle_gym.families.mlagentbench.task import MLABConfig
from mle_gym.task_spec import Limits, TaskSpec
from mle_gym.textfmt import budget_line
from mle_gym.tools.spec import ToolSpec


def display_name(name: str) -> str:
    """``List_Files`` -> ``List Files`` (MLAgentBench's names); snake_case names unchanged."""
    return name.replace("_", " ") if name[:1].isupper() else name


def task_observation(
    task: TaskSpec,
    cfg: MLABConfig,
    has_data: bool,
    listing: str,
    tools: list[ToolSpec],
    max_steps: int,
    limits: Limits,
) -> str:
    """The first observation of an episode (``has_data``: data is mounted at
    /workspace/data)."""
    direction = "lower is better" if task.lower_is_better else "higher is better"
    outputs = ", ".join(cfg.outputs)
    lines = [
        f"# Research problem: {task.title} ({task.env_id})",
        "",
        task.description().strip(),
        "",
        "## Your episode",
        f"- The workspace starts with working starter code (`{cfg.run}` runs it). Improve "
        f"on it: the episode succeeds if the final result beats the starter code's own "
        f"score by more than {cfg.success_threshold:.0%} ({task.metric}, {direction}).",
        f"- What is evaluated when the episode ends: {outputs} as your final code left "
        f"it in /workspace, scored by a hidden evaluator.",
    ]
    if cfg.read_only:
        lines.append(
            f"- Read-only (changing them invalidates the result): {', '.join(cfg.read_only)}."
        )
    if has_data:
        lines.append("- The data is in /workspace/data (read-only).")
    lines += [
        budget_line(max_steps, limits.time_budget_s, limits.exec_timeout_s),
        f"- Sandbox limits: {limits.memory_mb:,} MB of memory, {limits.cpus:g} CPU core(s), "
        f"no network.",
        "",
        "## Workspace",
        listing,
        "",
        "## Tools",
        ", ".join(display_name(t.name) for t in tools),
    ]
    return "\n".join(lines)
