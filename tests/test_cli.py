"""The ``mle-gym`` command package: one module per command, each importable, each with --help."""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mle_gym import cli

REPO = Path(__file__).resolve().parents[1]
COMMANDS = [
    "list",
    "prepare",
    "run",
    "sandbox",
    "export",
    "grade",
    "bench",
    "eval",
    "report",
    "view",
]


def _subcommands() -> list[str]:
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    return list(sub.choices)


def test_every_command_is_wired_in_help_order() -> None:
    assert _subcommands() == COMMANDS


@pytest.mark.parametrize("command", COMMANDS)
def test_command_module_imports_and_registers_its_command(command: str) -> None:
    module = importlib.import_module(f"mle_gym.cli.{command}_cmd")
    assert module in cli.COMMANDS
    assert callable(module.register)
    assert callable(getattr(module, f"cmd_{command}"))


@pytest.mark.parametrize("command", COMMANDS)
def test_command_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main([command, "--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: mle-gym {command} ")


def test_bad_usage_is_one_line_and_exit_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["prepare"]) == 2
    assert capsys.readouterr().err == "mle-gym: error: name a task, or use --split / --benchmark\n"


def test_bench_only_checks_group_names(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["bench", "--only", "nonsense", "--backends", "local"]) == 2
    err = capsys.readouterr().err
    assert "unknown bench groups ['nonsense']; choose from file_tools, execute" in err


@pytest.mark.slow
@pytest.mark.parametrize(
    "argv",
    [
        [str(Path(sys.executable).parent / "mle-gym"), "--help"],
        [sys.executable, "-m", "mle_gym.cli", "--help"],
    ],
    ids=["console-script", "python-m"],
)
def test_entry_points(argv: list[str]) -> None:
    assert Path(argv[0]).exists(), f"{argv[0]} is missing: install the package (pip install -e .)"
    done = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: mle-gym ")
    listed = [line.split()[0] for line in _command_lines(done.stdout)]
    assert listed == COMMANDS


def test_eval_choices_match_the_evaluation_package() -> None:
    """The eval command's copies of the backend and start-method choices (kept to spare every
    command the evaluation package's import) are the evaluation package's own."""
    from mle_gym.cli import eval_cmd
    from mle_gym.evaluation import local_backend, plan

    assert eval_cmd.EVAL_BACKENDS == plan.BACKENDS
    assert eval_cmd.START_METHODS == local_backend.START_METHODS


# -- the top level: command list, --version, --debug, help for every option ----------------


def _command_lines(help_text: str) -> list[str]:
    """The lines of the ``commands:`` table of ``mle-gym --help``."""
    lines = help_text.splitlines()
    start = lines.index("commands:") + 1
    end = lines.index("", start)
    return lines[start:end]


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def test_top_level_help_lists_every_command_with_its_purpose(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: mle-gym [-h] [--version] [--debug] COMMAND ...\n")
    rows = [line.split(None, 1) for line in _command_lines(out)]
    names = [module.__name__.rsplit(".", 1)[-1].removesuffix("_cmd") for module in cli.COMMANDS]
    assert [row[0] for row in rows] == names
    for name, purpose in rows:
        assert len(purpose) > 10, name
    assert "run      run one episode and print its transcript and grade" in out


@pytest.mark.parametrize(
    "command", [c.__name__.rsplit(".", 1)[-1][: -len("_cmd")] for c in cli.COMMANDS]
)
def test_every_option_of_every_command_has_help(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    parser = _subparsers()[command]
    missing = [
        "/".join(action.option_strings) or action.dest
        for action in parser._actions
        if not isinstance(action, argparse._HelpAction)
        and (not action.help or action.help == argparse.SUPPRESS)
    ]
    assert missing == [], f"mle-gym {command}: options without help: {missing}"
    with pytest.raises(SystemExit):
        cli.main([command, "--help"])
    out = capsys.readouterr().out
    for action in parser._actions:
        if action.option_strings:
            assert action.option_strings[-1] in out


def test_version_prints_the_package_version_and_the_checkout_commit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--version"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out.strip()
    assert out.startswith(f"mle-gym {importlib.metadata.version('mle-gym')}")
    git = shutil.which("git")
    head = (
        subprocess.run(
            [git, "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True
        ).stdout.strip()
        if git and (REPO / ".git").exists()
        else ""
    )
    if head:
        assert out.endswith(f"(git commit {head})")
    else:
        assert "commit" not in out


@pytest.mark.parametrize(
    "argv",
    [
        ["--debug", "run", "--env", "no-such-task-zz"],
        ["run", "--debug", "--env", "no-such-task-zz"],
        ["run", "--env", "no-such-task-zz", "--debug"],
    ],
    ids=["before", "after", "last"],
)
def test_debug_before_or_after_the_command_shows_the_traceback(argv: list[str]) -> None:
    from mle_gym.tasks import TaskError

    with pytest.raises(TaskError, match="unknown task 'no-such-task-zz'"):
        cli.main(argv)


def test_without_debug_a_setup_error_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["run", "--env", "no-such-task-zz"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mle-gym: error: unknown task 'no-such-task-zz'")
    assert err.count("\n") == 1 and "Traceback" not in err
