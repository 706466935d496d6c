"""The ``mle-gym`` command package: one module per command, each importable, each with --help."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from mle_gym import cli

REPO = Path(__file__).resolve().parents[1]
COMMANDS = ["list", "prepare", "run", "sandbox", "export", "grade", "bench", "eval", "report"]


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
    assert capsys.readouterr().err == "mle-gym: error: name a task, or use --split\n"


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
    for command in COMMANDS:
        assert command in done.stdout.splitlines()[1]


def test_eval_choices_match_the_evaluation_package() -> None:
    """The eval command's copies of the backend and start-method choices (kept to spare every
    command the evaluation package's import) are the evaluation package's own."""
    from mle_gym.cli import eval_cmd
    from mle_gym.evaluation import local_backend, plan

    assert eval_cmd.EVAL_BACKENDS == plan.BACKENDS
    assert eval_cmd.START_METHODS == local_backend.START_METHODS
