"""``mle-gym export``: turn recorded trajectories into a dataset file."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from mle_gym.cli.arguments import add_flag


def register(sub: Any) -> None:
    """Add ``export`` to an argparse subparsers object."""
    p = sub.add_parser("export", help="turn recorded trajectories into a dataset file")
    p.add_argument("run_dir", help="a folder of trajectory .jsonl files (searched recursively)")
    p.add_argument(
        "--format",
        default="chat-jsonl",
        choices=["chat-jsonl"],
        help="dataset format: chat-jsonl (one episode a line: its chat messages, tools, grade)",
    )
    p.add_argument("--out", help="output file (default RUN_DIR/episodes.chat.jsonl)")
    add_flag(p, "--include-incomplete", "also export episodes that did not end")
    p.set_defaults(func=cmd_export)


def cmd_export(args: argparse.Namespace) -> int:
    """Write the dataset file; 1 if no episode was exported."""
    from mle_gym.export import export_chat_jsonl

    run_dir = Path(args.run_dir)
    out = Path(args.out) if args.out else run_dir / "episodes.chat.jsonl"
    n = export_chat_jsonl(run_dir, out, include_incomplete=args.include_incomplete)
    print(f"wrote {n} episode(s) to {out}")
    return 0 if n else 1
