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
    mle-gym bench [--tiny] [--backends local,docker] [--only GROUPS] [--out FILE.json] ...

Exit status: 0 on success, 1 when the command ran but failed (e.g. an invalid
submission for ``grade``), 2 on bad usage or setup errors, which are printed as
one clear line (no traceback; ``--debug`` shows it).

This package holds :func:`main` and the wiring; each command is one module
(``<command>_cmd.py``) with ``register(subparsers)`` and its handler. Handlers
import what they need when they run, so ``mle-gym --help`` stays fast.
"""

from __future__ import annotations

import argparse
import logging
import sys

from mle_gym.cli import (
    bench_cmd,
    eval_cmd,
    export_cmd,
    grade_cmd,
    list_cmd,
    prepare_cmd,
    report_cmd,
    run_cmd,
    sandbox_cmd,
)
from mle_gym.cli.run_cmd import format_result, format_step
from mle_gym.textsafe import escape_text

#: the command modules, in the order ``mle-gym --help`` lists them
COMMANDS = (
    list_cmd,
    prepare_cmd,
    run_cmd,
    sandbox_cmd,
    export_cmd,
    grade_cmd,
    bench_cmd,
    eval_cmd,
    report_cmd,
)


def build_parser() -> argparse.ArgumentParser:
    """The ``mle-gym`` parser with every command of :data:`COMMANDS`."""
    parser = argparse.ArgumentParser(prog="mle-gym", description=__doc__.split("\n\n")[0])
    parser.add_argument("--debug", action="store_true", help="show tracebacks and debug logs")
    sub = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.register(sub)
    return parser


def _known_errors() -> tuple[type[BaseException], ...]:
    """Errors printed as one ``mle-gym: error:`` line with exit status 2 (bad usage or setup)."""
    from mle_gym.errors import SetupError

    # TaskError, option and reward-mode errors are ValueErrors; data, credentials,
    # repositories and sandboxes raise SetupErrors; a family without a step (prepare, a
    # reference policy) says so with NotImplementedError
    return (SetupError, ValueError, FileNotFoundError, NotImplementedError)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``mle-gym`` console script; returns the exit status."""
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
        if isinstance(exc, _known_errors()):
            print(f"mle-gym: error: {escape_text(str(exc))}", file=sys.stderr)
            return 2
        raise


__all__ = ["COMMANDS", "build_parser", "format_result", "format_step", "main"]
