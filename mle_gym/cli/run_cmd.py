"""``mle-gym run``: run one episode and print its transcript and grade.

The options are checked against the task's family before anything starts: ``--data``,
``--reward-mode`` take one of the family's ``data_choices`` / ``reward_modes``, and
``--grading``, ``--replica-seed`` need a family with that option; a wrong one is an
error naming what the family takes. The agent is built as ``mle-gym eval`` builds it
(:func:`mle_gym.agents.make_agent`: a built-in name, ``module:Class`` or
``path/agent.py:Class``), before the env; an agent that cannot be built or fails while
the episode runs (e.g. its model endpoint is down) is an AgentError, which ``mle-gym``
prints as one line (exit status 2).

What the agent produced is printed escaped and quoted (every line starts with
``| ``), so no agent output can pass for a line of the command's own.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mle_gym import paths
from mle_gym.cli.arguments import (
    DATA_HELP,
    GRADING_HELP,
    REWARD_MODE_HELP,
    SANDBOX_CHOICES,
    SANDBOX_HELP,
    add_flag,
)
from mle_gym.textsafe import escape_line, json_for_terminal, quote_block

if TYPE_CHECKING:
    from mle_gym.episode_runner import EpisodeResult
    from mle_gym.families.base import TaskFamily
    from mle_gym.task_spec import TaskSpec

DISPLAY_CHARS = 3000


def register(sub: Any) -> None:
    """Add ``run`` to an argparse subparsers object."""
    p = sub.add_parser("run", help="run one episode and print its transcript and grade")
    p.add_argument(
        "--env",
        required=True,
        metavar="ID",
        help="env id (MLEBench/spaceship-titanic-v0) or task id (spaceship-titanic)",
    )
    p.add_argument(
        "--agent",
        default="scripted",
        help="built-in agent (scripted, random, llm) or a class with reset/act methods: "
        "package.module:Class or path/agent.py:Class (default scripted)",
    )
    p.add_argument(
        "--agent-arg",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="argument for the agent (repeatable; JSON values are parsed), e.g. model=gpt-4o",
    )
    p.add_argument(
        "--seed", type=int, default=0, metavar="N", help="episode and agent seed (default 0)"
    )
    p.add_argument("--data", default="auto", help=DATA_HELP)
    p.add_argument(
        "--replica-seed",
        type=int,
        metavar="N",
        help="replica data variant (families with offline replicas: MLE-bench, "
        "MLAgentBench; default: the family's, 0)",
    )
    p.add_argument("--sandbox", choices=SANDBOX_CHOICES, help=SANDBOX_HELP)
    p.add_argument("--reward-mode", metavar="MODE", help=REWARD_MODE_HELP)
    p.add_argument("--grading", help=GRADING_HELP)
    p.add_argument("--max-steps", type=int, metavar="N", help="step budget (default: the task's)")
    p.add_argument(
        "--trajectory",
        metavar="PATH",
        help="trajectory JSONL path (default under $MLE_GYM_HOME/runs)",
    )
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


def _choice(flag: str, value: str, allowed: tuple[str, ...], what: str, task: TaskSpec) -> None:
    """ValueError unless ``value`` is one of ``allowed`` (the family's ``what``)."""
    if value not in allowed:
        raise ValueError(
            f"{flag} {value!r} is not one of the {what} of {task.env_id} ({task.family} "
            f"family): {', '.join(allowed)}"
        )


def _family_option(flag: str, name: str, family: type[TaskFamily], task: TaskSpec) -> None:
    """ValueError unless the task's family has the option ``name``."""
    known = family.option_names()
    if name not in known:
        takes = f"its options are {', '.join(known)}" if known else "it takes no options"
        raise ValueError(
            f"{flag} does not apply to {task.env_id}: the {task.family} family has no "
            f"{name} option ({takes})"
        )


def _make_kwargs(
    args: argparse.Namespace, trajectory: Path | None, task: TaskSpec, family: type[TaskFamily]
) -> dict[str, Any]:
    """The ``gym.make`` keywords the options ask for (unset options keep the env's
    defaults), each checked against the task's ``family`` first (ValueError naming what
    the family takes)."""
    _choice("--data", args.data, family.data_choices, "data sources", task)
    make_kwargs: dict[str, Any] = {"data": args.data, "trajectory_path": trajectory}
    if args.sandbox:
        make_kwargs["sandbox"] = args.sandbox
    if args.max_steps:
        make_kwargs["max_episode_steps"] = args.max_steps
    if args.reward_mode:
        _choice("--reward-mode", args.reward_mode, family.reward_modes, "reward modes", task)
        make_kwargs["reward_mode"] = args.reward_mode
    if args.grading:
        _family_option("--grading", "grading", family, task)
        make_kwargs["grading"] = args.grading
    if args.replica_seed is not None:
        _family_option("--replica-seed", "replica_seed", family, task)
        if args.data not in ("auto", "replica"):
            raise ValueError(
                f"--replica-seed chooses a variant of replica data; it does not apply to "
                f"--data {args.data}"
            )
        if args.replica_seed < 0:
            raise ValueError(f"--replica-seed must be >= 0, got {args.replica_seed}")
        make_kwargs["replica_seed"] = args.replica_seed
    return make_kwargs


def _agent_label(spec: str) -> str:
    """The agent's name in file names: a built-in name, else the class name of a path."""
    name = spec.strip().rpartition(":")[2] or spec
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "agent"


def _resolve_task(name: str) -> TaskSpec:
    """The task ``--env`` names (unknown names get a did-you-mean); a bare id that tasks
    of several benchmarks share says on stderr which one it chose."""
    from mle_gym.tasks import get_task, task_index

    task = get_task(name)
    bare = "/" not in name.split(":", 1)[-1]
    others = sorted(
        e.env_id for e in task_index().values() if e.id == task.id and e.env_id != task.env_id
    )
    if bare and others:
        print(
            f"mle-gym run: {name!r} is {task.env_id} (also {', '.join(others)}: give the "
            "env id to run another)",
            file=sys.stderr,
        )
    return task


def cmd_run(args: argparse.Namespace) -> int:
    """Run the episode, printing each step unless ``--quiet``; 0 if the submission was valid."""
    import gymnasium as gym

    import mle_gym  # noqa: F401 - registers the envs
    from mle_gym.agents import make_agent
    from mle_gym.agents.base import AgentError
    from mle_gym.episode_runner import run_episode
    from mle_gym.evaluation.agent_spec import parse_agent_args
    from mle_gym.families import family_class

    task = _resolve_task(args.env)
    trajectory = None
    if not args.no_trajectory:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        label = _agent_label(args.agent)
        trajectory = (
            Path(args.trajectory)
            if args.trajectory
            else paths.home() / "runs" / f"{task.id}-{label}-{stamp}-seed{args.seed}.jsonl"
        )
    make_kwargs = _make_kwargs(args, trajectory, task, family_class(task.family))
    agent = make_agent(args.agent, seed=args.seed, **parse_agent_args(args.agent_arg))
    env = gym.make(task.env_id, **make_kwargs)
    quiet = args.quiet
    steps = 0

    def on_step(i: int, action: Any, obs: str, reward: float, info: dict[str, Any]) -> None:
        nonlocal steps
        steps = i
        if not quiet:
            print(format_step(i, action, obs, info, full=args.full))

    def on_reset(obs: str, info: dict[str, Any]) -> None:
        if not quiet:
            print(_show(obs, args.full))

    try:
        if not quiet:
            print(f"=== {task.env_id} · agent {args.agent} · seed {args.seed} ===")
        result = run_episode(env, agent, seed=args.seed, on_step=on_step, on_reset=on_reset)
    except AgentError as exc:
        raise AgentError(f"agent {args.agent!r} failed at step {steps + 1}: {exc}") from exc
    finally:
        env.close()
    print(format_result(result, trajectory))
    return 0 if (result.grade or {}).get("valid") else 1
