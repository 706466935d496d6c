"""``mle-gym grade``: grade a submission file with the task's grader."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from mle_gym.cli.options import DATA_CHOICES
from mle_gym.textsafe import json_for_terminal


def register(sub: Any) -> None:
    """Add ``grade`` to an argparse subparsers object."""
    p = sub.add_parser("grade", help="grade a submission file with the task's grader")
    p.add_argument("--task", required=True)
    p.add_argument("--submission", required=True)
    p.add_argument("--data", default="auto", choices=DATA_CHOICES)
    p.add_argument("--seed", type=int, default=0, help="replica seed (default 0)")
    p.set_defaults(func=cmd_grade)


def cmd_grade(args: argparse.Namespace) -> int:
    """Print the grade report as JSON; 0 if the submission is valid, else 1."""
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
