"""The ``mle-gym`` command (``mle-gym --help`` lists every command of :data:`COMMANDS`).

    mle-gym list [--benchmark B] [--split S]
    mle-gym prepare TASK [--from PATH.zip | --replica [--seed N]] [--force]
        (ML-Bench tasks: clone the repositories at their pinned commits)
    mle-gym prepare --split lite|dev|... [--replica] [--force]
    mle-gym run --env ID --agent scripted|random|llm|module:Class|path/agent.py:Class
                [--agent-arg KEY=VALUE ...] [--seed N] [--data D] [--replica-seed N]
                [--reward-mode MODE] ...
    mle-gym grade --task ID --submission FILE [--data auto|kaggle|replica]
    mle-gym sandbox build|gc|status
    mle-gym export RUN_DIR --format chat-jsonl [--out FILE]
    mle-gym eval [TASK ...] [--split S] [--seeds N] [--agent A] --out RUN_DIR [--resume] ...
    mle-gym report RUN_DIR
    mle-gym view RUN_DIR [--out FILE.html] [--serve [--port N]]
    mle-gym bench [--tiny] [--backends local,docker] [--only GROUPS] [--out FILE.json] ...
    mle-gym --version

Exit status: 0 on success, 1 when the command ran but failed (e.g. an invalid
submission for ``grade``), 2 on bad usage or setup errors, which are printed as
one clear line (no traceback; ``--debug``, before or after the command, shows it).
Setup errors include an agent that cannot be built or whose model endpoint fails
(AgentError); a message that suggests settings says them as options (``--data
replica``; see :mod:`mle_gym.hints`).

This package holds :func:`main` and the wiring; each command is one module
(``<command>_cmd.py``) with ``register(subparsers)`` and its handler. Handlers
import what they need when they run, so ``mle-gym --help`` stays fast.
"""

from __future__ import annotations

import argparse
import logging
import sys
import textwrap
from typing import Any

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
    view_cmd,
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
    view_cmd,
)

SUMMARY = (
    "Gymnasium environments of ML-engineering benchmarks (MLE-bench, MLAgentBench, "
    "ML-Bench): list and prepare tasks, run and evaluate agents, grade submissions."
)
EPILOG = (
    "`mle-gym COMMAND --help` shows a command's options. Exit status: 0 success, 1 the "
    "command ran but failed (e.g. an invalid submission), 2 bad usage or a setup error "
    "(one line; --debug shows the traceback)."
)
#: the width the top-level description and epilog are wrapped to
HELP_WIDTH = 88
DEBUG_HELP = "show tracebacks and debug logs (before or after the command)"


def build_parser() -> argparse.ArgumentParser:
    """The ``mle-gym`` parser with every command of :data:`COMMANDS`.

    The description lists each command with its purpose (its ``help``), and every
    command also takes ``--debug`` (so it may follow the command name).
    """
    parser = argparse.ArgumentParser(
        prog="mle-gym",
        usage="%(prog)s [-h] [--version] [--debug] COMMAND ...",
        epilog=textwrap.fill(EPILOG, HELP_WIDTH),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version", action=_VersionAction, help="print the version (and git commit) and exit"
    )
    parser.add_argument("--debug", action="store_true", help=DEBUG_HELP)
    sub = parser.add_subparsers(
        prog="mle-gym", dest="command", required=True, metavar="COMMAND", help=argparse.SUPPRESS
    )
    for command in COMMANDS:
        command.register(sub)
    for sub_parser in sub.choices.values():
        if "--debug" not in sub_parser._option_string_actions:
            # SUPPRESS: absent after the command, --debug keeps the value given before it
            sub_parser.add_argument(
                "--debug", action="store_true", default=argparse.SUPPRESS, help=DEBUG_HELP
            )
    parser.description = f"{textwrap.fill(SUMMARY, HELP_WIDTH)}\n\ncommands:\n{_command_table(sub)}"
    return parser


def _command_table(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> str:
    """One line per command: its name and its ``help`` (the purpose its module gives)."""
    rows = [(action.dest, action.help or "") for action in sub._choices_actions]
    width = max(len(name) for name, _ in rows) + 2
    return "\n".join(f"  {name:<{width}}{purpose}" for name, purpose in rows)


class _VersionAction(argparse.Action):
    """``--version``: the package version and, from a git checkout, its commit."""

    def __init__(self, option_strings: list[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        print(version_text())
        parser.exit()


def version_text() -> str:
    """``mle-gym VERSION``, plus ``(git commit HASH)`` when running from a git checkout
    (read from ``.git`` files, no ``git`` process)."""
    from mle_gym.provenance import package_version, source_commit

    commit = source_commit()
    return f"mle-gym {package_version()}" + (f" (git commit {commit})" if commit else "")


def _known_errors() -> tuple[type[BaseException], ...]:
    """Errors printed as one ``mle-gym: error:`` line with exit status 2 (bad usage or setup)."""
    from mle_gym.agents.base import AgentError
    from mle_gym.errors import SetupError

    # TaskError, option and reward-mode errors are ValueErrors; data, credentials,
    # repositories and sandboxes raise SetupErrors; a family without a step (prepare, a
    # reference policy) says so with NotImplementedError; an agent that cannot be built
    # or whose model endpoint fails raises AgentError
    return (SetupError, ValueError, FileNotFoundError, NotImplementedError, AgentError)


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
    except BrokenPipeError:  # the reader went away (`mle-gym list --json | head`)
        _quiet_stdout()
        return 0
    except Exception as exc:
        if args.debug:
            raise
        if isinstance(exc, _known_errors()):
            print(f"mle-gym: error: {escape_text(error_message(exc))}", file=sys.stderr)
            return 2
        raise


def _quiet_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's final flush into a closed pipe
    raises nothing more."""
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    finally:
        os.close(devnull)


def error_message(exc: BaseException) -> str:
    """What ``mle-gym: error:`` says for ``exc``: its message, with the settings it
    suggests written as command-line options (``--data replica``, not ``data='replica'``;
    see :mod:`mle_gym.hints`)."""
    from mle_gym.hints import cli_message

    return cli_message(exc)


__all__ = ["COMMANDS", "build_parser", "error_message", "format_result", "format_step", "main"]
