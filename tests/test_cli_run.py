"""``mle-gym run`` as a user meets it: options checked against the task's family, agents
loaded as ``eval`` loads them, setup and agent failures as one line, hints in CLI syntax.

Every test runs the real command (``mle_gym.cli.main``) and reads what it printed.
"""

from __future__ import annotations

import json
import pickle
import socket
from pathlib import Path

import pytest

from mle_gym import cli
from mle_gym.cli import arguments
from mle_gym.families import family_class
from mle_gym.hints import Hinted, Setting, cli_message

#: a task of each built-in family that runs offline, by family name
TASK_OF_FAMILY = {
    "mlebench": "MLEBench/spaceship-titanic-v0",
    "mlagentbench": "MLAgentBench/vectorization-v0",
    "mlbench": "MLBench/offline-v0",
}
NO_AGENT = "no_such_agent_zz"

AGENTS_FILE = """
class Duck:
    '''An agent that is no mle_gym.agents.Agent: it has reset and act, and submits.'''

    def __init__(self, seed=None):
        self.seed = seed

    def reset(self, task_info):
        pass

    def act(self, observation, info):
        return {"tool": "submit", "args": {}}


class NotAnAgent:
    def reset(self, task_info):
        pass


class Broken(Duck):
    def __init__(self):
        raise RuntimeError("no GPU here")
"""


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _error_line(err: str) -> str:
    """The one ``mle-gym: error:`` line of ``err`` (asserting there is exactly one line of it)."""
    lines = [line for line in err.splitlines() if line.startswith("mle-gym: error: ")]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def _closed_port() -> int:
    """A 127.0.0.1 port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def agents_file(tmp_path: Path) -> Path:
    path = tmp_path / "my_agents.py"
    path.write_text(AGENTS_FILE)
    return path


# -- --reward-mode and --data: every family's values -------------------------------------


def test_help_texts_list_each_familys_modes_as_the_families_declare_them(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "400")  # no line breaks inside the help text
    for shown, name in arguments.FAMILY_NAMES.items():
        family = family_class(name)
        assert arguments.FAMILY_REWARD_MODES[shown] == family.reward_modes
        assert arguments.FAMILY_DATA_CHOICES[shown] == family.data_choices
    with pytest.raises(SystemExit):
        cli.main(["run", "--help"])
    help_text = capsys.readouterr().out
    assert "MLAgentBench: auto, improvement, success, raw" in help_text
    assert "ML-Bench: auto, pass, partial" in help_text


@pytest.mark.parametrize(
    ("family", "mode"),
    [(f, m) for f in TASK_OF_FAMILY for m in family_class(f).reward_modes],
)
def test_run_takes_every_reward_mode_of_the_tasks_family(
    family: str, mode: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The mode passes the option checks: what stops the run is the (missing) agent."""
    argv = ["run", "--env", TASK_OF_FAMILY[family], "--reward-mode", mode, "--agent", NO_AGENT]
    code, _, err = _run([*argv, "--no-trajectory"], capsys)
    assert code == 2
    assert _error_line(err).startswith(f"mle-gym: error: unknown agent '{NO_AGENT}'")


@pytest.mark.parametrize(
    ("env_id", "mode", "accepted"),
    [
        ("MLAgentBench/vectorization-v0", "partial", "auto, improvement, success, raw"),
        ("MLEBench/spaceship-titanic-v0", "improvement", "auto, percentile, medal, normalized"),
        ("MLBench/offline-v0", "bogus", "auto, pass, partial"),
    ],
)
def test_a_mode_the_family_does_not_take_is_an_error_naming_its_modes(
    env_id: str, mode: str, accepted: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _run(["run", "--env", env_id, "--reward-mode", mode], capsys)
    assert code == 2
    line = _error_line(err)
    assert f"--reward-mode {mode!r} is not one of the reward modes of {env_id}" in line
    assert accepted in line


def test_a_data_source_the_family_does_not_take_is_an_error_naming_its_sources(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = _run(
        ["run", "--env", "MLAgentBench/vectorization-v0", "--data", "kaggle"], capsys
    )
    assert code == 2
    assert "--data 'kaggle' is not one of the data sources" in err
    assert "auto, real, replica" in err


def test_eval_takes_the_familys_modes_and_names_them_for_a_wrong_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["eval", "vectorization", "--no-progress"]
    code, _, err = _run(
        [*base, "--reward-mode", "improvement", "--agent", NO_AGENT, "--out", str(tmp_path / "a")],
        capsys,
    )
    assert code == 2
    assert _error_line(err).startswith(f"mle-gym: error: unknown agent '{NO_AGENT}'")
    code, _, err = _run([*base, "--reward-mode", "partial", "--out", str(tmp_path / "b")], capsys)
    assert code == 2
    assert "('auto', 'improvement', 'success', 'raw')" in _error_line(err)


def test_a_reward_mode_of_another_family_reaches_the_episode(
    agents_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ML-Bench's ``partial`` (no MLE-bench mode) is the episode's reward mode."""
    trajectory = tmp_path / "t.jsonl"
    argv = ["run", "--env", "MLBench/offline-v0", "--reward-mode", "partial", "--quiet"]
    argv += ["--agent", f"{agents_file}:Duck", "--trajectory", str(trajectory)]
    code, out, err = _run(argv, capsys)
    assert "=== result ===" in out, err
    assert code == 1  # it submitted nothing
    reset = json.loads(trajectory.read_text().splitlines()[0])
    assert reset["type"] == "reset" and reset["reward_mode"] == "partial"


# -- agents: one loader for run and eval --------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (NO_AGENT, f"unknown agent '{NO_AGENT}'; built-in agents: scripted, random, llm"),
        ("scriptd", "unknown agent 'scriptd' (did you mean 'scripted'?)"),
        ("no_such_module_zz:Agent", "no module named 'no_such_module_zz'"),
        ("{file}:Missing", "has no attribute 'Missing'; Agent classes there: Broken, Duck"),
        ("{file}:NotAnAgent", "is not a subclass of mle_gym.agents.Agent and lacks act"),
        ("{dir}/nowhere.py:Duck", "nowhere.py does not exist"),
    ],
)
def test_run_and_eval_reject_a_bad_agent_with_the_same_one_line_error(
    spec: str,
    message: str,
    agents_file: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    spec = spec.format(file=agents_file, dir=tmp_path)
    env = "MLEBench/spaceship-titanic-v0"
    code, _, err = _run(["run", "--env", env, "--data", "replica", "--agent", spec], capsys)
    assert code == 2
    run_line = _error_line(err)
    assert message in run_line
    out_dir = tmp_path / "run"
    code, _, err = _run(
        ["eval", env, "--data", "replica", "--agent", spec, "--out", str(out_dir)], capsys
    )
    assert code == 2
    assert _error_line(err) == run_line


def test_an_agent_whose_constructor_raises_is_one_line(
    agents_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["run", "--env", "MLEBench/spaceship-titanic-v0", "--agent", f"{agents_file}:Broken"]
    code, _, err = _run(argv, capsys)
    assert code == 2
    assert "could not be built: RuntimeError: no GPU here" in _error_line(err)


def test_llm_agent_settings_are_hinted_as_agent_args(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("MLE_GYM_LLM_MODEL", raising=False)
    code, _, err = _run(["run", "--env", "MLBench/offline-v0", "--agent", "llm"], capsys)
    assert code == 2
    assert "pass --agent-arg model=... or set $MLE_GYM_LLM_MODEL" in _error_line(err)


@pytest.mark.parametrize("form", ["file", "module"])
def test_run_runs_a_class_with_reset_and_act_by_file_or_module_path(
    form: str,
    agents_file: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if form == "file":
        spec = f"{agents_file}:Duck"
    else:
        monkeypatch.syspath_prepend(str(agents_file.parent))
        spec = "my_agents:Duck"
    argv = ["run", "--env", "MLEBench/spaceship-titanic-v0", "--data", "replica", "--agent", spec]
    code, out, err = _run([*argv, "--no-trajectory"], capsys)
    assert "=== MLEBench/spaceship-titanic-v0 · agent" in out, err
    result = json.loads(out.split("=== result ===", 1)[1])
    assert result["steps"] == 1  # it submitted at once, without a submission file
    assert code == 1 and result["valid"] is False


def test_an_llm_endpoint_that_refuses_connections_is_one_line_exit_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    agent_args = [f"base_url={url}", "model=some-model", "max_retries=0"]
    argv = ["run", "--env", "MLBench/offline-v0", "--agent", "llm", "--no-trajectory", "--quiet"]
    for arg in agent_args:
        argv += ["--agent-arg", arg]
    code, out, err = _run(argv, capsys)
    assert code == 2
    line = _error_line(err)
    assert line.startswith("mle-gym: error: agent 'llm' failed at step 1: ")
    assert url in line and "Connection refused" in line
    assert "=== result ===" not in out


# -- --env and --replica-seed ------------------------------------------------------------


@pytest.mark.parametrize("name", ["MLEBench/spaceship-titanik-v0", "spaceship-titanik"])
def test_a_misspelt_task_gets_a_did_you_mean(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(["run", "--env", name], capsys)
    assert code == 2
    line = _error_line(err)
    assert f"unknown task '{name}'; did you mean " in line
    assert "MLEBench/spaceship-titanic-v0" in line


def test_a_bare_id_of_several_benchmarks_says_which_task_it_runs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = _run(["run", "--env", "spaceship-titanic", "--agent", NO_AGENT], capsys)
    assert code == 2
    assert (
        "mle-gym run: 'spaceship-titanic' is MLEBench/spaceship-titanic-v0 "
        "(also MLAgentBench/spaceship-titanic-v0" in err
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--env", "MLBench/offline-v0", "--replica-seed", "1"],
            "--replica-seed does not apply to MLBench/offline-v0: the mlbench family has no "
            "replica_seed option",
        ),
        (
            ["--env", "MLEBench/spaceship-titanic-v0", "--replica-seed", "1", "--data", "kaggle"],
            "it does not apply to --data kaggle",
        ),
        (
            ["--env", "MLEBench/spaceship-titanic-v0", "--replica-seed", "-1"],
            "--replica-seed must be >= 0",
        ),
        (
            ["--env", "MLAgentBench/vectorization-v0", "--grading", "strict"],
            "--grading does not apply to MLAgentBench/vectorization-v0",
        ),
    ],
)
def test_family_options_the_task_does_not_take_are_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _run(["run", *argv], capsys)
    assert code == 2
    assert message in _error_line(err)


def test_replica_seed_chooses_the_replica_variant(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trajectory = tmp_path / "t.jsonl"
    argv = ["run", "--env", "MLEBench/spaceship-titanic-v0", "--data", "replica"]
    argv += ["--replica-seed", "2", "--agent", "random", "--max-steps", "1", "--quiet"]
    _run([*argv, "--trajectory", str(trajectory)], capsys)
    reset = json.loads(trajectory.read_text().splitlines()[0])
    assert reset["provenance"]["data"]["replica_seed"] == 2
    assert reset["provenance"]["data"]["variant"].startswith("replica-seed2-")


# -- hints in command-line syntax ----------------------------------------------------------


def test_hinted_messages_render_python_or_command_line() -> None:
    hint = Hinted("not prepared; use ", Setting("data", "replica"), " or ", Setting("max_steps", 3))
    assert hint == "not prepared; use data='replica' or max_steps=3"
    assert hint.cli() == "not prepared; use --data replica or --max-steps 3"
    wrapped = Hinted("task x: ", hint, "; or ", Setting("model", option="--agent-arg"))
    assert str(wrapped) == "task x: not prepared; use data='replica' or max_steps=3; or model=..."
    assert wrapped.cli() == (
        "task x: not prepared; use --data replica or --max-steps 3; or --agent-arg model=..."
    )
    copy = pickle.loads(pickle.dumps(ValueError(wrapped)))
    assert str(copy) == str(wrapped) and cli_message(copy) == wrapped.cli()
    assert cli_message(ValueError("plain")) == "plain"
    with pytest.raises(TypeError):
        Hinted("x", 3)  # type: ignore[arg-type]


def test_data_hints_use_options_in_the_cli_and_keywords_in_python(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import gymnasium as gym

    from mle_gym.data.store import DataNotPrepared

    env_id = "MLEBench/spaceship-titanic-v0"  # no Kaggle data in the test session's cache
    code, _, err = _run(["run", "--env", env_id, "--data", "kaggle"], capsys)
    assert code == 2
    line = _error_line(err)
    assert "offline replica: --data replica" in line and "data='replica'" not in line
    with pytest.raises(DataNotPrepared, match="offline replica: data='replica'"):
        gym.make(env_id, data="kaggle")
    code, _, err = _run(["eval", env_id, "--data", "kaggle", "--out", str(tmp_path / "r")], capsys)
    assert code == 2
    assert "offline replica: --data replica" in err and "data='replica'" not in err
    code, _, err = _run(
        ["run", "--env", "MLAgentBench/vectorization-v0", "--data", "replica"], capsys
    )
    assert code == 2
    assert _error_line(err).endswith("is self-contained (no data); use --data auto")


def test_reward_hints_use_options_in_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["run", "--env", "MLEBench/spaceship-titanic-v0", "--data", "replica"]
    code, _, err = _run([*argv, "--reward-mode", "medal", "--no-trajectory"], capsys)
    assert code == 2
    line = _error_line(err)
    assert line.startswith("mle-gym: error: --reward-mode medal compares with the human")
    assert "use --reward-mode normalized or --reward-mode raw" in line


def test_a_missing_custom_image_names_the_command_that_builds_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from mle_gym.sandbox.base import SandboxUnavailable
    from mle_gym.sandbox.docker import client_from_env
    from mle_gym.sandbox.image import build_command

    assert build_command("mle-gym-custom:7") == "mle-gym sandbox build --image mle-gym-custom:7"
    try:
        client_from_env()
    except SandboxUnavailable as exc:
        pytest.skip(f"no docker engine: {exc}")
    monkeypatch.setenv("MLE_GYM_DOCKER_IMAGE", "mle-gym-no-such-image-zz:1")
    argv = ["run", "--env", "MLEBench/spaceship-titanic-v0", "--data", "replica"]
    code, _, err = _run([*argv, "--sandbox", "docker", "--no-trajectory", "--quiet"], capsys)
    assert code == 2
    line = _error_line(err)
    assert "docker image 'mle-gym-no-such-image-zz:1' not found" in line
    assert "`mle-gym sandbox build --image mle-gym-no-such-image-zz:1`" in line


def test_a_reader_that_goes_away_is_not_an_error() -> None:
    """``mle-gym list --json | head -c 100``: no traceback, exit status 0."""
    import subprocess
    import sys

    proc = subprocess.Popen(
        [sys.executable, "-m", "mle_gym.cli", "list", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.read(100)
    proc.stdout.close()  # the reader goes away before the command finished writing
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0, err
    assert "Traceback" not in err and "BrokenPipe" not in err
