"""``mle-gym report RUN_DIR``: rebuild report.json, report.md and plots of an evaluation run."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from mle_gym.cli.arguments import add_flag
from mle_gym.cli.eval_cmd import summary

REPORT_HELP = "rebuild report.json, report.md and plots of an evaluation run directory"


def register(sub: Any) -> None:
    """Add ``report`` to an argparse subparsers object."""
    p = sub.add_parser("report", help=REPORT_HELP, description=REPORT_HELP)
    p.add_argument("run_dir", metavar="RUN_DIR", help="an evaluation run directory")
    add_flag(p, "--no-plots", "do not draw the PNG plots")
    p.set_defaults(func=cmd_report)


def cmd_report(args: argparse.Namespace) -> int:
    """Rebuild the report of a run directory and print its overall figures."""
    from mle_gym.evaluation.run_report import write_report

    run_dir = Path(args.run_dir)
    report = write_report(run_dir, plots=not args.no_plots)
    print(json.dumps({"run_dir": str(run_dir), **summary(report)}, indent=2))
    print(f"wrote {run_dir / 'report.json'} and {run_dir / 'report.md'}", file=sys.stderr)
    return 0
