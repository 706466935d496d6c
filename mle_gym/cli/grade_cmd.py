"""``mle-gym grade``: grade a submission file with the task's grader.

The report's messages call the file by its own name (``preds.csv is ...``) and give no
advice meant for an agent; a ``--submission`` that is not a file is bad usage (exit 2).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from mle_gym.cli.arguments import DATA_HELP, GRADING_HELP
from mle_gym.textsafe import escape_line, json_for_terminal


def register(sub: Any) -> None:
    """Add ``grade`` to an argparse subparsers object."""
    p = sub.add_parser("grade", help="grade a submission file with the task's grader")
    p.add_argument("--task", required=True, help="task id or env id (e.g. spaceship-titanic)")
    p.add_argument("--submission", required=True, metavar="FILE", help="the file to grade")
    p.add_argument("--data", default="auto", help=DATA_HELP)
    p.add_argument("--seed", type=int, default=0, help="replica seed (default 0)")
    p.add_argument("--grading", help=GRADING_HELP)
    p.set_defaults(func=cmd_grade)


def cmd_grade(args: argparse.Namespace) -> int:
    """Print the grade report as JSON; 0 if the submission is valid, else 1."""
    from mle_gym.families import make_family
    from mle_gym.tasks import get_task_noting

    task, note = get_task_noting(args.task)
    submission = Path(args.submission).expanduser()
    if not submission.exists():
        raise FileNotFoundError(f"--submission {args.submission}: no such file")
    if not submission.is_file():
        raise ValueError(f"--submission {args.submission}: not a file")
    if note:
        print(f"mle-gym: note: {escape_line(note)}", file=sys.stderr)
    options = {"grading": args.grading} if args.grading else None
    family = make_family(task, options)
    try:
        report = family.grade_file(submission, data=args.data, seed=args.seed)
    except NotImplementedError as exc:
        raise ValueError(str(exc)) from None
    print(json_for_terminal(report.to_dict()))
    return 0 if report.valid else 1
