"""``mle-gym eval`` (also ``scripts/evaluate.py``): evaluate an agent on many tasks and seeds.

    mle-gym eval [TASK ...] [--split lite|medium|high|dev] [--benchmark B] [--include-leaky]
                 [--seeds N | --seed-list K [K ...]]
                 [--agent scripted|random|llm|pkg.mod:Class|path/agent.py:Class]
                 [--agent-arg KEY=VALUE ...] [--sandbox local|docker|unsafe-local]
                 [--data auto|kaggle|replica|bundled] [--reward-mode MODE] [--grading G]
                 [--replica-seed N|per-seed] [--max-steps N] [--time-budget SECONDS]
                 --out RUN_DIR [--resume] [--retry-failed]
                 [--workers N] [--backend local|ray] [--ray-address ADDRESS]
                 [--start-method spawn|forkserver] [--episode-timeout SECONDS]
                 [--max-consecutive-failures N] [--[no-]progress] [--[no-]plots]

Execution options (the last two lines) are stored in RUN_DIR/config.json: a
resumed run uses them unless given again (then the new ones are stored).

Exit status: 0 when every planned episode finished and none failed, 1 when some
failed (the run still completed and was reported), 2 on a configuration error —
including a run stopped early because its first episodes all failed the same way
(``--max-consecutive-failures``) —, 130 when interrupted (Ctrl-C, SIGTERM: the
counts and the command that continues the run are printed).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from mle_gym.cli.arguments import (
    DATA_HELP,
    GRADING_HELP,
    REWARD_MODE_HELP,
    SANDBOX_CHOICES,
    SANDBOX_HELP,
    add_flag,
)

# Copies of mle_gym.evaluation.plan.BACKENDS and local_backend.START_METHODS: importing
# mle_gym.evaluation would slow every `mle-gym` command by ~50 ms (tests/test_cli.py checks
# that they agree).
EVAL_BACKENDS = ("local", "ray")
START_METHODS = ("spawn", "forkserver")

EVAL_HELP = "evaluate an agent on many tasks and seeds (resumable; local processes or Ray)"


def register(sub: Any) -> None:
    """Add ``eval`` to an argparse subparsers object."""
    p = sub.add_parser(
        "eval",
        help=EVAL_HELP,
        description=EVAL_HELP,
        epilog="With --resume, options left out are taken from RUN_DIR/config.json; the "
        "settings must match it and the plan may only grow; execution options given again "
        "replace the stored ones. Exit status: 0 all episodes done, 1 some failed, 2 "
        "configuration error (or an early stop on a systematic failure), 130 interrupted.",
    )
    add_eval_arguments(p)
    p.set_defaults(func=cmd_eval)


def _add_selection_arguments(p: argparse.ArgumentParser) -> None:
    """Which tasks and seeds ``eval`` runs."""
    sel = p.add_argument_group("tasks and seeds")
    sel.add_argument("tasks", nargs="*", metavar="TASK", help="task ids or env ids")
    sel.add_argument("--split", help="every task of a split: lite (= low), medium, high, dev")
    sel.add_argument("--benchmark", help="every task of a benchmark (e.g. MLEBench)")
    add_flag(
        sel,
        "--include-leaky",
        "keep tasks with known test-label leakage in --split/--benchmark selections",
    )
    add_flag(sel, "--skip-unavailable", "drop tasks whose data is not prepared")
    sel.add_argument("--seeds", type=int, help="run seeds 0..N-1 (default 1)")
    sel.add_argument("--seed-list", type=int, nargs="+", metavar="K", help="run these seeds")


def _add_episode_arguments(p: argparse.ArgumentParser) -> None:
    """How each episode of ``eval`` is configured."""
    ep = p.add_argument_group("episodes")
    ep.add_argument(
        "--agent",
        help="built-in agent name (scripted, random, llm...) or module:Class / file.py:Class "
        "(default scripted)",
    )
    ep.add_argument(
        "--agent-arg",
        action="append",
        metavar="KEY=VALUE",
        help="argument for the agent (repeatable; JSON values are parsed)",
    )
    ep.add_argument("--sandbox", choices=SANDBOX_CHOICES, help=SANDBOX_HELP)
    ep.add_argument("--data", help=DATA_HELP)
    ep.add_argument("--reward-mode", help=REWARD_MODE_HELP)
    ep.add_argument("--grading", help=GRADING_HELP)
    ep.add_argument(
        "--replica-seed",
        type=replica_seed_arg,
        metavar="N|per-seed",
        help="replica data variant (tasks with offline replicas): N for every episode, or "
        "per-seed: the episode of seed k on variant k (default: the family's, 0)",
    )
    ep.add_argument("--max-steps", type=int, help="step budget per episode (default: task's)")
    ep.add_argument(
        "--time-budget", type=float, metavar="SECONDS", help="wall-clock budget per episode"
    )


def replica_seed_arg(text: str) -> int | str:
    """``--replica-seed`` value: a non-negative integer or ``per-seed``."""
    if text == "per-seed":
        return text
    if text.strip().isdigit():
        return int(text)
    raise argparse.ArgumentTypeError(f"expected a non-negative integer or per-seed, got {text!r}")


def _add_execution_arguments(p: argparse.ArgumentParser) -> None:
    """Where and how ``eval`` runs its episodes."""
    run = p.add_argument_group("execution")
    run.add_argument("--out", required=True, metavar="RUN_DIR", help="the run directory")
    add_flag(run, "--resume", "continue the run in RUN_DIR (finished episodes kept)")
    add_flag(run, "--retry-failed", "with --resume: run failed episodes again")
    run.add_argument(
        "--workers",
        type=int,
        help="episodes at a time (local default 1; ray default: the cluster's CPUs)",
    )
    run.add_argument("--backend", choices=EVAL_BACKENDS, help="where episodes run (default local)")
    run.add_argument(
        "--ray-address",
        help="join this Ray cluster (default: start a local instance); RUN_DIR must be on a "
        "filesystem every node mounts at the same path",
    )
    run.add_argument(
        "--start-method",
        choices=START_METHODS,
        help="how local workers are started (default spawn; never a plain fork)",
    )
    run.add_argument(
        "--episode-timeout",
        type=float,
        metavar="SECONDS",
        help="local backend: stop a worker whose episode runs longer than this (failed; "
        "0: no limit)",
    )
    run.add_argument(
        "--max-consecutive-failures",
        type=int,
        metavar="N",
        help="stop the run (exit 2) when N episodes in a row fail with the same error and "
        "none has succeeded (default 3; 0: never stop early)",
    )
    run.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        help="the progress line on stderr (default on)",
    )
    run.add_argument(
        "--plots",
        action=argparse.BooleanOptionalAction,
        help="PNG plots in the report (default on)",
    )


def add_eval_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``eval`` (defaults of None mean: stored value when resuming)."""
    _add_selection_arguments(p)
    _add_episode_arguments(p)
    _add_execution_arguments(p)


def request_from_args(args: argparse.Namespace) -> Any:
    """An :class:`~mle_gym.evaluation.plan.EvalRequest` from parsed ``eval`` options."""
    from mle_gym.evaluation.agent_spec import parse_agent_args
    from mle_gym.evaluation.errors import EvalConfigError
    from mle_gym.evaluation.plan import EvalRequest

    if args.retry_failed and not args.resume:
        raise EvalConfigError("--retry-failed needs --resume")
    return EvalRequest(
        out=Path(args.out),
        tasks=list(args.tasks or []),
        split=args.split,
        benchmark=args.benchmark,
        include_leaky=args.include_leaky,
        skip_unavailable=args.skip_unavailable,
        seeds=args.seeds,
        seed_list=args.seed_list,
        agent=args.agent,
        agent_args=parse_agent_args(args.agent_arg) if args.agent_arg else None,
        sandbox=args.sandbox,
        data=args.data,
        reward_mode=args.reward_mode,
        grading=args.grading,
        replica_seed=args.replica_seed,
        max_steps=args.max_steps,
        time_budget_s=args.time_budget,
        resume=args.resume,
        retry_failed=args.retry_failed,
        workers=args.workers,
        backend=args.backend,
        ray_address=args.ray_address,
        start_method=args.start_method,
        episode_timeout_s=args.episode_timeout,
        max_consecutive_failures=args.max_consecutive_failures,
        progress=args.progress,
        plots=args.plots,
    )


def summary(report: dict[str, Any]) -> dict[str, Any]:
    """The overall figures of an evaluation report that ``eval`` and ``report`` print."""
    overall = report["overall"]
    out = {
        "episodes": report["counts"],
        "failure_kinds": report.get("failure_kinds") or {},
        "made_submission_pct": overall["made_submission_pct"]["mean"],
        "valid_submission_pct": overall["valid_submission_pct"]["mean"],
        "any_medal_pct": overall["any_medal_pct"]["mean"],
        "mean_reward": overall["reward"]["mean"],
        "reward_mode": overall["reward"].get("mode"),
    }
    if overall["reward"].get("mixed_modes"):  # different scales: one mean per mode
        out["mean_reward_by_mode"] = {
            mode: stat["mean"] for mode, stat in (overall.get("reward_by_mode") or {}).items()
        }
    return out


def cmd_eval(args: argparse.Namespace) -> int:
    """Run ``eval``; print where the results are and a short summary (stdout). Interrupted:
    the counts and the command that continues the run (stderr, exit 130); stopped early
    on a systematic failure: that error as one line and the command (stderr, exit 2)."""
    from mle_gym.evaluation.evaluate import EarlyStop, EvalInterrupted, run_eval
    from mle_gym.textsafe import escape_line

    try:
        result = run_eval(request_from_args(args))
    except EvalInterrupted as stop:
        print(f"[eval] {stop.summary()}", file=sys.stderr)
        print(f"[eval] to continue: {stop.resume_command}", file=sys.stderr)
        return 130
    except EarlyStop as stop:
        print(f"mle-gym: error: {escape_line(str(stop))}", file=sys.stderr)
        print(
            f"[eval] {stop.failed} failed, {stop.done} done, {stop.pending} pending; once the "
            f"cause is fixed, continue with: {stop.resume_command} "
            "(--max-consecutive-failures 0 never stops early)",
            file=sys.stderr,
        )
        return 2
    out: dict[str, Any] = {"run_dir": str(result.run_dir), "ran": result.ran}
    if result.report is not None:
        out.update(summary(result.report))
        out["report"] = str(result.run_dir / "report.md")
    print(json.dumps(out, indent=2))
    finished = result.done + result.failed
    return 0 if finished == result.planned and result.failed == 0 else 1


def script_main(argv: list[str] | None = None) -> int:
    """``scripts/evaluate.py [eval options]`` or ``scripts/evaluate.py report RUN_DIR``:
    the same commands through the ``mle-gym`` entry point's error handling."""
    from mle_gym.cli import main

    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["report"] or argv[:2] == ["--debug", "report"]:
        return main(argv)
    debug = ["--debug"] if argv[:1] == ["--debug"] else []
    return main([*debug, "eval", *argv[len(debug) :]])
