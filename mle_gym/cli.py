"""The ``mle-gym`` command: list, prepare, run, grade.

    mle-gym list [--benchmark B] [--split S]
    mle-gym prepare TASK [--from PATH.zip | --replica [--seed N]] [--force]
        (ML-Bench tasks: clone the repositories at their pinned commits)
    mle-gym prepare --split lite|dev|... [--replica] [--force]
    mle-gym run --env ID --agent scripted|random [--seed N] [--data auto|kaggle|replica]
    mle-gym grade --task ID --submission FILE [--data auto|kaggle|replica]
    mle-gym sandbox build|gc|status
    mle-gym export RUN_DIR --format chat-jsonl [--out FILE]
    mle-gym eval [TASK ...] [--split S] [--seeds N] [--agent A] --out RUN_DIR [--resume] ...
    mle-gym report RUN_DIR
    mle-gym bench [--tiny] [--backends local,docker] [--only FAMILIES] [--out FILE.json] ...

Exit status: 0 on success, 1 when the command ran but failed (e.g. an invalid
submission for ``grade``), 2 on bad usage or setup errors, which are printed as
one clear line (no traceback; ``--debug`` shows it).
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mle_gym import paths
from mle_gym.textsafe import escape_line, escape_text, json_for_terminal, quote_block

if TYPE_CHECKING:
    from mle_gym.runner import EpisodeResult

DISPLAY_CHARS = 3000


def _data_status(task: Any) -> str:
    from mle_gym.data import store

    if task.family != "mlebench":
        from mle_gym.families import family_class

        return family_class(task.family)(task).data_status()
    parts = []
    if "kaggle" in task.data:
        if store.lookup(task, "kaggle"):
            parts.append("kaggle prepared")
        elif task.kaggle_supported:
            parts.append("kaggle needs preparation")
        else:
            parts.append("kaggle not yet supported")
    if "replica" in task.data:
        parts.append("replica available")
    return ", ".join(parts)


def cmd_list(args: argparse.Namespace) -> int:
    from mle_gym.tasks import evaluation_set, task_errors

    rows = []
    for task in evaluation_set(args.split, args.benchmark, include_leaky=not args.exclude_leaky):
        notes = []
        problem = task.grader_problem()
        if problem:
            notes.append("GRADER MISSING")
        if task.leaky:
            notes.append("leaky")
        rows.append(
            (
                task.env_id,
                task.benchmark,
                task.split or "-",
                task.metric,
                _data_status(task),
                ", ".join(notes),
            )
        )
    header = ("env id", "benchmark", "split", "metric", "data", "notes")
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        print("  ".join(str(v).ljust(w) for v, w in zip(row, widths, strict=True)).rstrip())
    print(f"\n{len(rows)} task(s)")
    errors = task_errors()
    if errors:
        print(f"\n{len(errors)} invalid task folder(s) skipped:", file=sys.stderr)
        for message in errors:
            print(f"  {message}", file=sys.stderr)
    return 0


def cmd_prepare(args: argparse.Namespace) -> int:
    from mle_gym.data import sources
    from mle_gym.tasks import evaluation_set, get_task

    if args.split:
        if args.task or args.from_zip:
            raise ValueError("give either a task (optionally with --from) or --split, not both")
        failures = 0
        for spec in evaluation_set(args.split, "MLEBench", include_leaky=True):
            if args.replica and "replica" not in spec.data:
                continue
            try:
                if args.replica:
                    data = sources.prepare_replica(spec, args.seed, force=args.force)
                else:
                    data = sources.prepare_kaggle(spec, None, force=args.force)
                print(f"prepared {spec.env_id} ({data.variant})")
            except Exception as exc:  # report and go on with the others
                failures += 1
                print(f"FAILED {spec.env_id}: {exc}", file=sys.stderr)
        return 1 if failures else 0
    if not args.task:
        raise ValueError("name a task, or use --split")
    task = get_task(args.task)
    if task.family != "mlebench":  # MLAgentBench, ML-Bench...: the family prepares
        from mle_gym.families import make_family

        from_path = Path(args.from_zip).expanduser().resolve() if args.from_zip else None
        print(
            make_family(task).prepare(
                source="replica" if args.replica else None,
                from_path=from_path,
                seed=args.seed,
                force=args.force,
            )
        )
        return 0
    if args.replica:
        data = sources.prepare_replica(task, args.seed, force=args.force)
    else:
        zip_path = Path(args.from_zip).expanduser().resolve() if args.from_zip else None
        data = sources.prepare_kaggle(task, zip_path, force=args.force)
    manifest = data.manifest()
    print(f"prepared {task.env_id} ({data.variant}) in {data.root}")
    print(f"  public files: {sorted(p.name for p in data.public.iterdir())}")
    if "mlebench_checksums" in manifest:
        print(f"  MLE-bench checksums: {manifest['mlebench_checksums']}")
    return 0


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
        "seconds": result.seconds,
        "trajectory": str(trajectory) if trajectory else None,
    }
    return "\n=== result ===\n" + json_for_terminal(fields)


def cmd_run(args: argparse.Namespace) -> int:
    import gymnasium as gym

    import mle_gym  # noqa: F401 - registers the envs
    from mle_gym.agents import make_agent
    from mle_gym.runner import run_episode
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
    make_kwargs: dict[str, Any] = {"data": args.data, "trajectory_path": trajectory}
    if args.sandbox:
        make_kwargs["sandbox"] = args.sandbox
    if args.max_steps:
        make_kwargs["max_episode_steps"] = args.max_steps
    if args.reward_mode:
        make_kwargs["reward_mode"] = args.reward_mode
    env = gym.make(task.env_id, **make_kwargs)
    from mle_gym.evaluation.agent_spec import parse_agent_args

    agent = make_agent(args.agent, seed=args.seed, **parse_agent_args(args.agent_arg))
    quiet = args.quiet

    def on_step(i: int, action: Any, obs: str, reward: float, info: dict[str, Any]) -> None:
        if quiet:
            return
        print(format_step(i, action, obs, info, full=args.full))

    try:
        if not quiet:
            print(f"=== {task.env_id} · agent {args.agent} · seed {args.seed} ===")

        def on_reset(obs: str, info: dict[str, Any]) -> None:
            if not quiet:
                print(_show(obs, args.full))

        result = run_episode(env, agent, seed=args.seed, on_step=on_step, on_reset=on_reset)
    finally:
        env.close()
    print(format_result(result, trajectory))
    return 0 if (result.grade or {}).get("valid") else 1


def cmd_grade(args: argparse.Namespace) -> int:
    import shutil
    import tempfile

    from mle_gym.data import sources
    from mle_gym.grading import grade_submission
    from mle_gym.tasks import get_task

    task = get_task(args.task)
    data = sources.resolve(task, args.data, args.seed)
    submission = Path(args.submission)
    with tempfile.TemporaryDirectory(prefix="mle_gym-grade-") as tmp:
        copy = None
        if submission.is_file():
            copy = Path(tmp) / "submission.csv"
            shutil.copyfile(submission, copy)
        report = grade_submission(
            task, copy, answers=data.private / task.answers_file, data_source=data.source
        )
    print(json_for_terminal(report.to_dict()))
    return 0 if report.valid else 1


def cmd_sandbox(args: argparse.Namespace) -> int:
    if args.action == "build":
        from mle_gym.sandbox.image import build_image, read_requirements

        extra = read_requirements(args.requirements or [])
        name = build_image(
            args.image, force=args.force, extra_requirements=extra, pip_args=args.pip_arg or []
        )
        print(f"image {name} is ready")
        return 0
    if args.action == "gc":
        from mle_gym.sandbox.docker import gc_containers

        removed = gc_containers(all_hosts=args.all_hosts)
        print(f"removed {len(removed)} orphaned container(s)")
        for cid in removed:
            print(f"  {cid[:12]}")
        return 0
    from mle_gym.sandbox import BACKENDS, check_kind
    from mle_gym.sandbox.base import SandboxUnavailable

    for kind in BACKENDS:
        try:
            check_kind(kind)
            status = "available"
        except SandboxUnavailable as exc:
            status = f"unavailable: {exc}"
        print(f"{kind:13s} {status}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from mle_gym.export import export_chat_jsonl

    run_dir = Path(args.run_dir)
    out = Path(args.out) if args.out else run_dir / "episodes.chat.jsonl"
    n = export_chat_jsonl(run_dir, out, include_incomplete=args.include_incomplete)
    print(f"wrote {n} episode(s) to {out}")
    return 0 if n else 1


def cmd_bench(args: argparse.Namespace) -> int:
    from mle_gym.bench.cli import cmd_bench as run_bench_command

    return run_bench_command(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mle-gym", description=__doc__.split("\n\n")[0])
    parser.add_argument("--debug", action="store_true", help="show tracebacks and debug logs")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("list", help="list tasks with split, metric and data status")
    p.add_argument("--benchmark", help="only this benchmark (e.g. MLEBench)")
    p.add_argument("--split", help="only this split: lite (= low), medium, high, dev")
    p.add_argument(
        "--exclude-leaky",
        action="store_true",
        help="leave out tasks with known test-label leakage (as evaluation sets do)",
    )
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("prepare", help="prepare a task's data (Kaggle zip/API, or replica)")
    p.add_argument("task", nargs="?", help="task id (or use --split)")
    p.add_argument("--split", help="prepare every MLE-bench task of a split (lite, dev, ...)")
    p.add_argument(
        "--from",
        dest="from_zip",
        metavar="PATH",
        help="a downloaded Kaggle zip (MLAgentBench tasks: the downloaded file or folder; "
        "ML-Bench tasks: a local clone of ML-Bench to read the repositories' pins from)",
    )
    p.add_argument("--replica", action="store_true", help="generate the offline replica")
    p.add_argument("--seed", type=int, default=0, help="replica seed (default 0)")
    p.add_argument("--force", action="store_true", help="prepare again even if cached")
    p.set_defaults(func=cmd_prepare)

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
    p.add_argument("--data", default="auto", choices=["auto", "kaggle", "replica", "bundled"])
    p.add_argument("--sandbox", choices=["local", "docker", "unsafe-local"])
    p.add_argument("--reward-mode", choices=["auto", "percentile", "medal", "normalized", "raw"])
    p.add_argument("--max-steps", type=int, help="step budget (default: the task's)")
    p.add_argument("--trajectory", help="trajectory JSONL path (default under $MLE_GYM_HOME/runs)")
    p.add_argument("--no-trajectory", action="store_true", help="do not record a trajectory")
    p.add_argument("--full", action="store_true", help="print observations in full")
    p.add_argument("--quiet", action="store_true", help="print only the result")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("sandbox", help="sandbox backends: build the docker image, gc, status")
    p.add_argument("action", choices=["build", "gc", "status"])
    p.add_argument(
        "--image", help="image name (default $MLE_GYM_DOCKER_IMAGE or mle-gym-runtime:py<X.Y>)"
    )
    p.add_argument("--force", action="store_true", help="rebuild even if up to date")
    p.add_argument(
        "--requirements",
        action="append",
        metavar="FILE",
        help="build: also install this requirements file (e.g. a repository's); repeatable",
    )
    p.add_argument(
        "--pip-arg",
        action="append",
        metavar="ARG",
        help="build: an argument for that pip install, e.g. --pip-arg=--find-links=DIR",
    )
    p.add_argument(
        "--all-hosts",
        action="store_true",
        help="gc: also remove containers of other hosts sharing the engine",
    )
    p.set_defaults(func=cmd_sandbox)

    p = sub.add_parser("export", help="turn recorded trajectories into a dataset file")
    p.add_argument("run_dir", help="a folder of trajectory .jsonl files (searched recursively)")
    p.add_argument("--format", default="chat-jsonl", choices=["chat-jsonl"])
    p.add_argument("--out", help="output file (default RUN_DIR/episodes.chat.jsonl)")
    p.add_argument(
        "--include-incomplete", action="store_true", help="also export episodes that did not end"
    )
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("grade", help="grade a submission file with the task's grader")
    p.add_argument("--task", required=True)
    p.add_argument("--submission", required=True)
    p.add_argument("--data", default="auto", choices=["auto", "kaggle", "replica", "bundled"])
    p.add_argument("--seed", type=int, default=0, help="replica seed (default 0)")
    p.set_defaults(func=cmd_grade)

    from mle_gym.bench import cli as bench_cli

    p = sub.add_parser("bench", help=bench_cli.HELP, description=bench_cli.DESCRIPTION)
    bench_cli.add_arguments(p)
    p.set_defaults(func=cmd_bench)

    from mle_gym.evaluation.cli import register as register_evaluation

    register_evaluation(sub)  # `eval` and `report`
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``mle-gym`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.debug else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        if args.debug:
            raise
        from mle_gym.data.kaggle import KaggleError
        from mle_gym.data.store import DataNotPrepared
        from mle_gym.mlbench.repos import RepoUnavailable
        from mle_gym.rewards import RewardConfigError
        from mle_gym.sandbox.base import SandboxError
        from mle_gym.tasks import TaskError

        known = (
            TaskError,
            DataNotPrepared,
            KaggleError,
            SandboxError,
            RewardConfigError,
            RepoUnavailable,
            ValueError,
            FileNotFoundError,
        )
        if isinstance(exc, known):
            print(f"mle-gym: error: {escape_text(str(exc))}", file=sys.stderr)
            return 2
        raise


if __name__ == "__main__":
    sys.exit(main())
