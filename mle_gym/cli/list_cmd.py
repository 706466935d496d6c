"""``mle-gym list``: the tasks with their split, metric, data status and notes."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from mle_gym.cli.arguments import add_flag


def register(sub: Any) -> None:
    """Add ``list`` to an argparse subparsers object."""
    p = sub.add_parser("list", help="list tasks with split, metric and data status")
    p.add_argument("--benchmark", help="only this benchmark (e.g. MLEBench)")
    p.add_argument("--split", help="only this split: lite (= low), medium, high, dev")
    add_flag(
        p,
        "--exclude-leaky",
        "leave out tasks with known test-label leakage (as evaluation sets do)",
    )
    p.set_defaults(func=cmd_list)


def cmd_list(args: argparse.Namespace) -> int:
    """Print the table of tasks (stdout) and the invalid task folders (stderr); 0."""
    from mle_gym.families import make_family
    from mle_gym.tasks import evaluation_set, task_errors

    rows = []
    for task in evaluation_set(args.split, args.benchmark, include_leaky=not args.exclude_leaky):
        family = make_family(task)
        notes = []
        problem = family.problem()
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
                family.data_status(),
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
