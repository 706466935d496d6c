"""``mle-gym run``: run one episode and print its transcript and grade.

What the agent produced is printed escaped and quoted (every line starts with
``| ``), so no agent output can pass for a line of the command's own.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mle_gym import paths
from mle_gym.cli.arguments import (
    DATA_HELP,
    GRADING_HELP,
    REWARD_MODE_HELP,
    SANDBOX_CHOICES,
    add_flag,
)
from mle_gym.textsafe import escape_line, json_for_terminal, quote_block

if TYPE_CHECKING:
    from mle_gym.episode_runner import EpisodeResult

DISPLAY_CHARS = 3000


def register(sub: Any) -> None:
    """Add ``run`` to an argparse subparsers object."""
    p = sub.add_parser("run", help="run one episode and print its transcript and grade")
    p.add_argument("--env", required=True, help="env id, e.g. MLEBench/spaceship-titanic-v0")
    p.add_argument(
        "--agent",
        default="scripted",
        help="scripted, random, llm, or an import path pkg.module:Class",
    )
    p.add_argument(
        "--agent-arg",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="keyword argument for the agent (repeatable), e.g. model=gpt-4o",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--data", default="auto", help=DATA_HELP)
    p.add_argument("--sandbox", choices=SANDBOX_CHOICES)
    p.add_argument("--reward-mode", help=REWARD_MODE_HELP)
    p.add_argument("--grading", help=GRADING_HELP)
    p.add_argument("--max-steps", type=int, help="step budget (default: the task's)")
    p.add_argument("--trajectory", help="trajectory JSONL path (default under $MLE_GYM_HOME/runs)")
    add_flag(p, "--no-trajectory", "do not record a trajectory")
    add_flag(p, "--full", "print observations in full")
    add_flag(p, "--quiet", "print only the result")
    p.set_defaults(func=cmd_run)


def _show(text: str, full: bool = False) -> str:
    """Agent-produced ``text`` for the transcript: escaped, every line quoted with ``| ``
    (so the agent cannot print a line that looks like the CLI's own), the middle left out
    past :data:`DISPLAY_CHARS` characters unless ``full``."""
    if full or len(text) <= DISPLAY_CHARS:
        return quote_block(text)
    return (
        quote_block(text[: DISPLAY_CHARS // 2])
        + "\n  [... shortened for display ...]\n"
        + quote_block(text[-DISPLAY_CHARS // 2 :])
    )


def _show_line(text: str, full: bool = False) -> str:
    """Agent-produced ``text`` on one line of the CLI's own (a step's tool and arguments)."""
    if not full and len(text) > DISPLAY_CHARS:
        text = text[: DISPLAY_CHARS // 2] + " [... shortened ...] " + text[-DISPLAY_CHARS // 2 :]
    return escape_line(text)


def _step_description(action: Any, info: dict[str, Any]) -> str:
    """``tool arguments`` of a step from its assistant message (the agent's own, any
    shape: read defensively), else the action's repr."""
    messages = info.get("messages")
    first = messages[0] if isinstance(messages, list) and messages else None
    calls = first.get("tool_calls") if isinstance(first, dict) else None
    if isinstance(calls, list) and calls and isinstance(calls[0], dict):
        fn = calls[0].get("function")
        if isinstance(fn, dict):
            return f"{fn.get('name')} {fn.get('arguments', '')}"
    return repr(action)[:200]


def format_step(i: int, action: Any, obs: str, info: dict[str, Any], *, full: bool = False) -> str:
    """How ``mle-gym run`` prints step ``i``: a ``--- step`` line of its own (the tool
    and arguments escaped onto it), then the observation quoted with ``| ``."""
    heading = _show_line(_step_description(action, info), full)
    return f"\n--- step {i}: {heading}\n{_show(obs, full)}"


def format_result(result: EpisodeResult, trajectory: Path | None) -> str:
    """How ``mle-gym run`` prints the outcome: an ``=== result ===`` line, then JSON
    (ASCII, controls escaped: a grader message quoting the agent stays inside its
    string). No line of it starts with ``| ``, and no agent text can start a line."""
    grade = result.grade or {}
    fields = {
        "env_id": result.env_id,
        "data_source": result.data_source,
        "steps": result.steps,
        "reward": round(result.reward, 6),
        "score": grade.get("score"),
        "valid": grade.get("valid"),
        "message": grade.get("message"),
        **({"grading": grade["grading"]} if "grading" in grade else {}),
        **({"strict_findings": grade["strict_findings"]} if grade.get("strict_findings") else {}),
        "seconds": result.seconds,
        "trajectory": str(trajectory) if trajectory else None,
    }
    return "\n=== result ===\n" + json_for_terminal(fields)


def _make_kwargs(args: argparse.Namespace, trajectory: Path | None) -> dict[str, Any]:
    """The ``gym.make`` keywords the options ask for (unset options keep the env's defaults)."""
    make_kwargs: dict[str, Any] = {"data": args.data, "trajectory_path": trajectory}
    if args.sandbox:
        make_kwargs["sandbox"] = args.sandbox
    if args.max_steps:
        make_kwargs["max_episode_steps"] = args.max_steps
    if args.reward_mode:
        make_kwargs["reward_mode"] = args.reward_mode
    if args.grading:
        make_kwargs["grading"] = args.grading
    return make_kwargs


def cmd_run(args: argparse.Namespace) -> int:
    """Run the episode, printing each step unless ``--quiet``; 0 if the submission was valid."""
    import gymnasium as gym

    import mle_gym  # noqa: F401 - registers the envs
    from mle_gym.agents import make_agent
    from mle_gym.episode_runner import run_episode
    from mle_gym.evaluation.agent_spec import parse_agent_args
    from mle_gym.tasks import get_task

    task = get_task(args.env)
    trajectory = None
    if not args.no_trajectory:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        trajectory = (
            Path(args.trajectory)
            if args.trajectory
            else paths.home() / "runs" / f"{task.id}-{args.agent}-{stamp}-seed{args.seed}.jsonl"
        )
    env = gym.make(task.env_id, **_make_kwargs(args, trajectory))
    agent = make_agent(args.agent, seed=args.seed, **parse_agent_args(args.agent_arg))
    quiet = args.quiet

    def on_step(i: int, action: Any, obs: str, reward: float, info: dict[str, Any]) -> None:
        if not quiet:
            print(format_step(i, action, obs, info, full=args.full))

    def on_reset(obs: str, info: dict[str, Any]) -> None:
        if not quiet:
            print(_show(obs, args.full))

    try:
        if not quiet:
            print(f"=== {task.env_id} · agent {args.agent} · seed {args.seed} ===")
        result = run_episode(env, agent, seed=args.seed, on_step=on_step, on_reset=on_reset)
    finally:
        env.close()
    print(format_result(result, trajectory))
    return 0 if (result.grade or {}).get("valid") else 1
