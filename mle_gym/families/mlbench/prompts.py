"""What the agent reads in an ML-Bench episode: the first observation and the end summary.

The first observation holds the instruction, where to write the solution and how it
is run, the required argument values (unless hidden), the chosen context (``oracle``:
the README segment ML-Bench attaches to the example; ``readme``: the repository's whole
README; ``none``: nothing — the agent explores the checkout, as in ML-Agent-Bench),
the budget, the workspace listing and the tools. A few lines have a fixed form so
that programs can read them:

    - Task folder: examples/classification
    - Submission file: run.sh (Bash Script)
    - Required argument values (JSON): {"dataset": "wine", ...}
"""

from __future__ import annotations

import json
from typing import Any

from mle_gym.families.mlbench.execution import solution_command
from mle_gym.families.mlbench.schema import MLBenchExample
from mle_gym.textfmt import budget_line, duration

CONTEXTS = ("none", "oracle", "readme")
README_LIMIT = 60_000


def task_observation(
    example: MLBenchExample,
    *,
    env_id: str,
    context: str,
    readme: str | None,
    show_arguments: bool,
    run_timeout_s: float,
    listing: str,
    tool_names: list[str],
    max_steps: int,
    limits: Any,
) -> str:
    """The first observation of an ML-Bench episode (see the module docstring)."""
    workdir = "/workspace" if example.path == "." else f"/workspace/{example.path}"
    kind = "a shell script" if not example.is_python else "a Python script"
    lines = [
        f"# ML-Bench task: {example.repo_name}, example {example.id} ({env_id})",
        "",
        example.instruction.strip(),
        "",
        "## What to hand in",
        f"- Repository: {example.github}, checked out at /workspace "
        "(its README is /workspace/README.md).",
        f"- Task folder: {example.path}",
        f"- Your working directory is {workdir}: commands and relative paths start there.",
        f"- Submission file: {example.submission_file} ({example.type})",
        f"- Write {kind} `{example.submission_file}` in the task folder that does what the "
        "instruction asks, using the repository's own code, then call submit.",
        f"- It is graded by running `{solution_command(example)}` from the task folder in a "
        f"fresh copy of the repository (changes to the repository's own files are discarded; "
        f"files you add are kept), with a timeout of {duration(run_timeout_s)}. It must run "
        "to completion without error, and every required argument value must appear in it.",
    ]
    if show_arguments:
        lines.append(f"- Required argument values (JSON): {json.dumps(example.arguments)}")
    if example.prefix_code.strip():
        lines.append(f"- Before your file runs, this setup runs there: `{example.prefix_code}`")
    if context == "oracle" and example.oracle.strip():
        lines += ["", "## Context: the relevant README segment", "", example.oracle.strip()]
    elif context == "readme" and readme:
        text = readme.strip()
        if len(text) > README_LIMIT:
            text = text[:README_LIMIT] + "\n[... README truncated ...]"
        lines += ["", "## Context: the repository's README", "", text]
    lines += [
        "",
        "## Your episode",
        budget_line(max_steps, limits.time_budget_s, limits.exec_timeout_s),
        f"- Sandbox limits: {limits.memory_mb:,} MB of memory, {limits.cpus:g} CPU core(s), "
        f"{limits.pids} processes, no network.",
        "",
        "## Task folder",
        listing,
        "",
        "## Tools",
        ", ".join(tool_names),
    ]
    return "\n".join(lines)


def end_summary(grade: dict[str, Any], reward: float, reason: str | None) -> str:
    """What the agent is told when the episode ends."""
    why = (
        f"Episode over ({reason}); the submission was graded."
        if reason
        else ("Episode over: your submission was graded.")
    )
    args = grade.get("argument_check") or {}
    run = grade.get("execution") or {}
    parts = [why, f"Result: {'passed' if grade.get('passed') else 'failed'} ({grade['message']})"]
    if args:
        parts.append(
            f"Argument check: {'passed' if args.get('passed') else 'failed'}; "
            f"run: {run.get('status', 'not run')}"
        )
    parts.append(f"Reward: {reward:g}")
    return "\n".join(parts)
