"""``mle-gym grade``: grade a submission file with the task's grader."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from mle_gym.cli.arguments import DATA_HELP, GRADING_HELP
from mle_gym.textsafe import json_for_terminal


def register(sub: Any) -> None:
    """Add ``grade`` to an argparse subparsers object."""
    p = sub.add_parser("grade", help="grade a submission file with the task's grader")
    p.add_argument("--task", required=True)
    p.add_argument("--submission", required=True)
    p.add_argument("--data", default="auto", help=DATA_HELP)
    p.add_argument("--seed", type=int, default=0, help="replica seed (default 0)")
    p.add_argument("--grading", help=GRADING_HELP)
    p.set_defaults(func=cmd_grade)


def cmd_grade(args: argparse.Namespace) -> int:
    """Print the grade report as JSON; 0 if the submission is valid, else 1."""
    from mle_gym.families import make_family
    from mle_gym.tasks import get_task

    options = {"grading": args.grading} if args.grading else None
    family = make_family(get_task(args.task), options)
    try:
        report = family.grade_file(Path(args.submission), data=args.data, seed=args.seed)
    except NotImplementedError as exc:
        raise ValueError(str(exc)) from None
    print(json_for_terminal(report.to_dict()))
    return 0 if report.valid else 1
