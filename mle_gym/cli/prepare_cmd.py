"""``mle-gym prepare``: prepare a task's data (Kaggle zip or API, replica, a family's own)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from mle_gym.cli.arguments import add_flag


def register(sub: Any) -> None:
    """Add ``prepare`` to an argparse subparsers object."""
    p = sub.add_parser("prepare", help="prepare a task's data (Kaggle zip/API, or replica)")
    p.add_argument("task", nargs="?", help="task id (or use --split)")
    p.add_argument("--split", help="prepare every task of a split (lite, dev, ...)")
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


def _prepare_split(args: argparse.Namespace) -> int:
    """Prepare every task of ``args.split``; 1 if any failed (each is reported)."""
    from mle_gym.tasks import evaluation_set

    if args.task or args.from_zip:
        raise ValueError("give either a task (optionally with --from) or --split, not both")
    failures = 0
    for spec in evaluation_set(args.split, include_leaky=True):
        if args.replica and "replica" not in spec.data:
            continue
        try:
            summary = _prepare(spec, args, None)
            print(summary.splitlines()[0] if summary else f"prepared {spec.env_id}")
        except NotImplementedError as exc:  # the family prepares nothing: not a failure
            print(f"skipped {spec.env_id}: {exc}")
        except Exception as exc:  # report and go on with the others
            failures += 1
            print(f"FAILED {spec.env_id}: {exc}", file=sys.stderr)
    return 1 if failures else 0


def cmd_prepare(args: argparse.Namespace) -> int:
    """Prepare one task (or a split); print what was prepared."""
    from mle_gym.tasks import get_task

    if args.split:
        return _prepare_split(args)
    if not args.task:
        raise ValueError("name a task, or use --split")
    task = get_task(args.task)
    from_path = Path(args.from_zip).expanduser().resolve() if args.from_zip else None
    print(_prepare(task, args, from_path))
    return 0
