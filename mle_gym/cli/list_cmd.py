"""``mle-gym list``: the tasks with their split, metric, data status and notes.

The default table fits in :data:`WIDTH` columns: env id, split, data status and notes,
cells too wide for their share of the line cut with ``...`` (the data status is kept whole
up to 44 characters, "kaggle needs preparation, replica available"). ``--wide`` adds the
benchmark and metric columns and prints every cell whole; ``--json`` prints one object per
task with every field (:func:`task_record`).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from mle_gym.cli.arguments import add_flag

#: the width of the default table
WIDTH = 120
_GAP = "  "
_CUT = "..."
#: the columns of the default table and of ``--wide``
COLUMNS = ("env id", "split", "data", "notes")
WIDE_COLUMNS = ("env id", "benchmark", "split", "metric", "data", "notes")
#: (column, narrowest width it is cut to) for the default table, in the order they are cut
_SHRINK = (("data", 44), ("env id", 50), ("data", 30), ("env id", 40))


def register(sub: Any) -> None:
    """Add ``list`` to an argparse subparsers object."""
    p = sub.add_parser("list", help="list tasks with their split, data status and notes")
    p.add_argument(
        "--benchmark",
        help="only this benchmark: MLEBench, MLAgentBench or MLBench (case and hyphens "
        "ignored: MLE-bench, ML-Bench)",
    )
    p.add_argument("--split", help="only this split: lite (= low), medium, high, dev")
    add_flag(
        p,
        "--exclude-leaky",
        "leave out tasks with known test-label leakage (as evaluation sets do)",
    )
    out = p.add_mutually_exclusive_group()
    add_flag(
        out,
        "--wide",
        f"add the benchmark and metric columns, every cell whole (default: fit in {WIDTH} columns)",
    )
    add_flag(out, "--json", "print a JSON list with every field of each task")
    p.set_defaults(func=cmd_list)


def task_record(task: Any) -> dict[str, Any]:
    """Every field ``mle-gym list`` knows of ``task`` (plain JSON values)."""
    from mle_gym.families import make_family

    family = make_family(task)
    problem = family.problem()
    notes = (["GRADER MISSING"] if problem else []) + (["leaky"] if task.leaky else [])
    return {
        "env_id": task.env_id,
        "id": task.id,
        "key": task.key,
        "benchmark": task.benchmark,
        "version": task.version,
        "family": task.family,
        "title": task.title,
        "split": task.split,
        "metric": task.metric,
        "lower_is_better": task.lower_is_better,
        "data": family.data_status(),
        "data_sources": sorted(task.data),
        "max_steps": task.limits.max_steps,
        "leaky": task.leaky,
        "leakage": task.leakage,
        "problem": problem,
        "notes": notes,
        "folder": str(task.folder),
    }


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(width - len(_CUT), 0)] + _CUT


def fit_widths(widths: dict[str, int], limit: int = WIDTH) -> dict[str, int]:
    """Column widths (``widths``: each column's natural width) cut, in :data:`_SHRINK`
    order, until a line of them with their gaps fits in ``limit`` characters (or nothing
    more can be cut)."""
    out = dict(widths)

    def total() -> int:
        return sum(out.values()) + len(_GAP) * (len(out) - 1)

    for column, floor in _SHRINK:
        excess = total() - limit
        if excess <= 0:
            break
        if column in out and out[column] > floor:
            out[column] = max(floor, out[column] - excess)
    return out


def table(rows: list[dict[str, str]], *, wide: bool) -> tuple[list[str], bool]:
    """The lines of the table of ``rows`` (column -> cell text), header first, and whether
    a cell was cut to fit."""
    columns = WIDE_COLUMNS if wide else COLUMNS
    natural = {c: max([len(c), *(len(r[c]) for r in rows)]) for c in columns}
    widths = natural if wide else fit_widths(natural)
    lines = []
    for row in [{c: c for c in columns}, *rows]:
        cells = [_cut(row[c], widths[c]).ljust(widths[c]) for c in columns]
        lines.append(_GAP.join(cells).rstrip())
    return lines, widths != natural


def cmd_list(args: argparse.Namespace) -> int:
    """Print the tasks (stdout) and the invalid task folders (stderr); 0."""
    from mle_gym.tasks import evaluation_set, task_errors
    from mle_gym.textsafe import escape_line, json_for_terminal

    tasks = evaluation_set(args.split, args.benchmark, include_leaky=not args.exclude_leaky)
    records = [task_record(task) for task in tasks]
    if args.json:
        print(json_for_terminal(records))
    else:
        rows = [
            {
                "env id": escape_line(r["env_id"]),
                "benchmark": escape_line(r["benchmark"]),
                "split": escape_line(r["split"] or "-"),
                "metric": escape_line(r["metric"]),
                "data": escape_line(r["data"]),
                "notes": escape_line(", ".join(r["notes"])),
            }
            for r in records
        ]
        lines, cut = table(rows, wide=args.wide)
        print("\n".join(lines))
        more = " (cells cut to fit: --wide shows them whole, --json every field)" if cut else ""
        print(f"\n{len(rows)} task(s){more}")
    errors = task_errors()
    if errors:
        print(f"\n{len(errors)} invalid task folder(s) skipped:", file=sys.stderr)
        for message in errors:
            print(f"  {escape_line(message)}", file=sys.stderr)
    return 0
