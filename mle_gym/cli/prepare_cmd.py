"""``mle-gym prepare``: prepare a task's data (Kaggle zip or API, replica, a family's own).

One task (``prepare TASK``): its family's summary, or the error as one line (exit 2).
Many (``--split`` and/or ``--benchmark``): every task is tried and one table says how each
went (:mod:`mle_gym.cli.prepare_summary`); exit 0 when all are ready, 1 otherwise, 2 on bad
usage (an unknown split or benchmark, a task given too).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from mle_gym.cli.arguments import add_flag


def register(sub: Any) -> None:
    """Add ``prepare`` to an argparse subparsers object."""
    p = sub.add_parser("prepare", help="prepare a task's data (Kaggle zip/API, or replica)")
    p.add_argument("task", nargs="?", help="task id or env id (or use --split / --benchmark)")
    p.add_argument("--split", help="prepare every task of a split: lite (= low), medium, high, dev")
    p.add_argument(
        "--benchmark",
        help="prepare every task of a benchmark (MLEBench, MLAgentBench, MLBench; with "
        "--split: its tasks of that split)",
    )
    p.add_argument(
        "--from",
        dest="from_zip",
        metavar="PATH",
        help="a downloaded Kaggle zip (MLAgentBench tasks: the downloaded file or folder; "
        "ML-Bench tasks: a local clone of ML-Bench to read the repositories' pins from)",
    )
    add_flag(p, "--replica", "generate the offline replica")
    p.add_argument("--seed", type=int, default=0, help="replica seed (default 0)")
    add_flag(p, "--force", "prepare again even if cached")
    p.set_defaults(func=cmd_prepare)


def _prepare(task: Any, args: argparse.Namespace, from_path: Path | None) -> str:
    """``task``'s family prepares it (data, a replica, repositories...); its summary."""
    from mle_gym.families import make_family
    from mle_gym.families.base import PrepareRequest

    request = PrepareRequest(
        source="replica" if args.replica else None,
        from_path=from_path,
        seed=args.seed,
        force=args.force,
    )
    return make_family(task).prepare(request)


def _manifests(task: Any) -> dict[str, int]:
    """The prepared variants of ``task`` in the data cache: folder name -> the time its
    manifest was written (ns)."""
    from mle_gym.data import store

    folder = store.variant_dir(task, "variant").parent  # the folder of the task's variants
    if not folder.is_dir():
        return {}
    return {m.parent.name: m.stat().st_mtime_ns for m in folder.glob(f"*/{store.MANIFEST}")}


def _prepare_one_of_many(task: Any, args: argparse.Namespace) -> Any:
    """Prepare ``task`` for the summary: ``prepared`` (naming the variants built) or
    ``already prepared`` when the cache held it; raises as the family does."""
    from mle_gym.cli.prepare_summary import Outcome

    before = _manifests(task)
    _prepare(task, args, None)
    built = sorted(name for name, when in _manifests(task).items() if before.get(name) != when)
    if built or args.force:
        return Outcome(task.env_id, "prepared", ", ".join(built))
    return Outcome(task.env_id, "already prepared")


def _selection(args: argparse.Namespace) -> tuple[list[Any], int]:
    """The tasks ``--split``/``--benchmark`` select (with ``--replica``: those with an
    offline replica) and how many were left out for having none."""
    from mle_gym.tasks import evaluation_set

    tasks = evaluation_set(args.split, args.benchmark, include_leaky=True)
    if not tasks:
        raise ValueError(
            f"no task of benchmark {args.benchmark} is in split {args.split}"
            if args.split and args.benchmark
            else "no task selected"
        )
    if not args.replica:
        return tasks, 0
    kept = [t for t in tasks if "replica" in t.data]
    if not kept:
        raise ValueError("no selected task has an offline replica")
    return kept, len(tasks) - len(kept)


def _prepare_many(args: argparse.Namespace) -> int:
    """Prepare every task of the selection; print the summary table; 0 if all are ready."""
    from mle_gym.cli.prepare_summary import run_each, summary_lines
    from mle_gym.textsafe import escape_line

    if args.task or args.from_zip:
        raise ValueError(
            "give either a task (optionally with --from) or --split/--benchmark, not both"
        )
    tasks, without_replica = _selection(args)
    by_id = {t.env_id: t for t in tasks}
    interactive = sys.stderr.isatty()

    def progress(line: str) -> None:
        if interactive:
            print(f"preparing {line}", file=sys.stderr, flush=True)

    outcomes = run_each(list(by_id), lambda e: _prepare_one_of_many(by_id[e], args), progress)
    lines = summary_lines(outcomes)
    if without_replica:
        lines.append(f"{without_replica} selected task(s) have no offline replica (left out)")
    print("\n".join(escape_line(line) for line in lines))
    return 0 if all(o.done for o in outcomes) else 1


def cmd_prepare(args: argparse.Namespace) -> int:
    """Prepare one task (or a split / benchmark); print what was prepared."""
    from mle_gym.tasks import get_task_noting
    from mle_gym.textsafe import escape_line

    if args.split or args.benchmark:
        return _prepare_many(args)
    if not args.task:
        raise ValueError("name a task, or use --split / --benchmark")
    task, note = get_task_noting(args.task)
    if note:
        print(f"mle-gym: note: {escape_line(note)}", file=sys.stderr)
    from_path = Path(args.from_zip).expanduser().resolve() if args.from_zip else None
    print(_prepare(task, args, from_path))
    return 0
