"""The mlagentbench family on a small task built by the test, on both backends: the
MLAgentBench action set and its observations, read-only files, what is evaluated,
baselines, rewards and budgets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mle_gym.env import MLEEnv
from mle_gym.families.mlagentbench.grading import improvement
from mle_gym.tasks import load_task

TASK_YAML = """\
id: toy
benchmark: MLAgentBench
title: Toy research problem
version: 0
metric: value
lower_is_better: false
mlagentbench:
  run: python train.py
  outputs: [result.txt]
  read_only: ["helper.py", "notes/*.md"]
  baseline:
    mode: measured
    seeds: [0, 1]
data:
  none: {}
limits:
  max_steps: 50
  time_budget_s: 18000
  exec_timeout_s: 60
"""

EVALUATE = """\
from mle_gym.families.mlagentbench.evaluation import EvalJob, Evaluation, EvaluationFailed


def evaluate(job: EvalJob) -> Evaluation:
    path = job.outputs / "result.txt"
    if not path.is_file():
        raise EvaluationFailed("result.txt was not written")
    lines = path.read_text().split()
    try:
        return Evaluation(score=float(lines[-1]), details={"lines": len(lines)})
    except (ValueError, IndexError):
        raise EvaluationFailed("result.txt holds no number") from None
"""

TRAIN = """\
import os
import helper
seed = int(os.environ.get("SEED", "0"))
with open("result.txt", "w") as f:
    f.write(str(helper.BASE + seed))
print("trained with seed", seed)
"""


@pytest.fixture
def toy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("tasks") / "mlagentbench" / "toy"
    (folder / "starter" / "notes").mkdir(parents=True)
    (folder / "task.yaml").write_text(TASK_YAML)
    (folder / "description.md").write_text("Make result.txt as large as you can.\n")
    (folder / "evaluate.py").write_text(EVALUATE)
    (folder / "starter" / "train.py").write_text(TRAIN)
    (folder / "starter" / "helper.py").write_text("BASE = 10\n")
    (folder / "starter" / "notes" / "a.md").write_text("keep me\n")
    return folder


@pytest.fixture
def make(toy: Path, backend: str):
    envs: list[MLEEnv] = []

    def factory(**kwargs) -> MLEEnv:
        kwargs.setdefault("sandbox", backend)
        env = MLEEnv(load_task(toy), **kwargs)
        envs.append(env)
        return env

    yield factory
    for env in envs:
        env.close()


def act(name: str, **inputs: object) -> str:
    return f"Thought: next step\nAction: {name}\nAction Input: {json.dumps(inputs)}"


def test_actions_and_observations(make) -> None:
    env = make(toolset="mlagentbench")
    obs, info = env.reset(seed=0)
    assert "Make result.txt as large" in obs and "more than 10%" in obs
    assert "Action: List Files" in env.system_prompt and "Action Input:" in env.system_prompt
    assert env.tools[0]["function"]["name"] == "List_Files"

    obs, _, _, _, info = env.step(act("List Files", dir_path="."))
    assert obs.split() == ["helper.py", "notes/", "train.py"] and info["tool"] == "List_Files"
    assert info["messages"][1]["content"].startswith("Observation:\n```\nhelper.py")

    obs, *_ = env.step(act("Read File", file_name="helper.py"))
    assert obs == "BASE = 10\n"
    obs, *_ = env.step(act("Write File", file_name="t.py", content="print('out')\n"))
    assert obs == "File t.py written successfully."
    obs, *_ = env.step(act("Append File", file_name="t.py", content="import sys\nsys.exit(3)\n"))
    assert obs == "File t.py appended successfully."
    obs, _, _, _, info = env.step(act("Execute Script", script_name="t.py"))
    # a failing script shows its stderr (empty here: exit code 3 only), not its stdout
    assert obs == "The script has been executed. Here is the output:\n"
    assert info["ok"] is False and info["tool_meta"]["exit_code"] == 3

    env.step(
        act("Write File", file_name="t.py", content="print('out')\nraise SystemExit('boom')\n")
    )
    obs, *_ = env.step(act("Execute Script", script_name="t.py"))
    assert obs == "The script has been executed. Here is the output:\nboom"
    env.step(
        act(
            "Write File",
            file_name="t.py",
            content="import sys\nprint('fine')\nprint('warn', file=sys.stderr)\n",
        )
    )
    obs, _, _, _, info = env.step(act("Execute Script", script_name="t.py"))
    assert obs == "The script has been executed. Here is the output:\nfine" and info["ok"]

    obs, *_ = env.step(act("Undo Edit Script", script_name="t.py"))
    assert obs.startswith("Content of t.py after undo the most recent edit:\nprint('out')\nraise")
    env.step(act("Undo Edit Script", script_name="t.py"))
    obs, *_ = env.step(act("Undo Edit Script", script_name="t.py"))
    assert obs == "Content of t.py after undo the most recent edit:\nprint('out')\n"
    obs, _, _, _, info = env.step(act("Undo Edit Script", script_name="t.py"))
    assert obs == "EnvError: There is no change to undo." and info["ok"] is False

    obs, *_ = env.step(act("Copy File", source="train.py", destination="copy.py"))
    assert obs == "File train.py copied to copy.py"
    obs, *_ = env.step(
        act("Inspect Script Lines", script_name="copy.py", start_line_number=2, end_line_number=3)
    )
    head = "Here are the lines (the file ends at line 7):\n\n"
    assert obs == head + 'import helper\nseed = int(os.environ.get("SEED", "0"))'
    obs, *_ = env.step(
        act("Inspect Script Lines", script_name="copy.py", start_line_number=1, end_line_number=500)
    )
    assert obs == "EnvError: the number of lines to display is limited to 100 lines"

    obs, *_ = env.step(act("Python REPL", command="x = 6 * 7"))
    obs, *_ = env.step(act("Python REPL", command="print(x)"))
    assert obs.strip() == "42"

    # errors: read-only files, paths outside the work directory, missing files
    obs, _, _, _, info = env.step(act("Write File", file_name="helper.py", content="BASE = 99\n"))
    assert obs == "EnvError: cannot write file helper.py because it is a read-only file"
    obs, *_ = env.step(act("Copy File", source="train.py", destination="notes/a.md"))
    assert "read-only file" in obs
    obs, *_ = env.step(act("Read File", file_name="../../etc/passwd"))
    assert (
        obs
        == "EnvError: cannot access file ../../etc/passwd because it is not in the work directory."
    )
    obs, *_ = env.step(act("Execute Script", script_name="nope.py"))
    assert obs == "EnvError: The file nope.py does not exist."
    obs, *_ = env.step(act("List Files", dir_path="missing"))
    assert obs == "EnvError: Cannot list file in the missing directory"
    obs, _, terminated, _, info = env.step("Action: Dance\nAction Input: {}")
    assert obs.startswith("Invalid action: Dance. Action did not execute.") and not terminated
    obs, *_ = env.step('Action: Read File\nAction Input: {"file": "x"}')
    assert obs.startswith("The action input for Read File has the wrong entries")
    obs, *_ = env.step(
        "Action: Inspect Script Lines\nAction Input: "
        '{"script_name": "a", "start_line_number": "one", "end_line_number": 2}'
    )
    assert obs.startswith("EnvError: Inspect_Script_Lines: argument 'start_line_number' must be")

    obs, _, terminated, truncated, info = env.step(
        act("Final Answer", final_answer="nothing changed")
    )
    assert obs.startswith("end\n\nEpisode over") and terminated and not truncated
    # train.py never ran, so there is no result to evaluate
    assert info["grade"]["valid"] is False and "result.txt was not written" in obs


def test_default_toolset_is_available_and_refuses_read_only_writes(make) -> None:
    env = make()
    env.reset(seed=0)
    obs, _, _, _, info = env.step(
        {"tool": "write_file", "args": {"path": "helper.py", "content": "x"}}
    )
    assert info["ok"] is False and "read-only file" in obs
    obs, _, _, _, info = env.step(
        {"tool": "edit_file", "args": {"path": "notes/a.md", "old": "keep", "new": "drop"}}
    )
    assert info["ok"] is False and "read-only file" in obs
    obs, _, _, _, info = env.step(
        {"tool": "write_file", "args": {"path": "notes/b.txt", "content": "x"}}
    )
    assert info["ok"] is True


def test_baseline_is_measured_by_running_the_starter(make, toy: Path) -> None:
    env = make(reward_mode="improvement")
    env.reset(seed=0)
    env.step({"tool": "execute", "args": {"command": "python train.py"}})
    _, reward, _, _, info = env.step({"tool": "submit", "args": {}})
    grade = info["grade"]
    # seeds 0 and 1 give 10 and 11: the baseline is their mean, stored with how it was measured
    assert grade["baseline_runs"] == [10.0, 11.0] and grade["baseline"] == 10.5
    assert "SEED=<seed> python train.py" in grade["baseline_measured_by"]
    assert grade["score"] == 10.0 and grade["success"] is False
    assert grade["improvement"] == pytest.approx((10.0 - 10.5) / 10.5)
    assert reward == pytest.approx(grade["improvement"])


def test_final_result_is_what_the_final_code_wrote(make) -> None:
    env = make(reward_mode="success")
    env.reset(seed=0)
    env.step({"tool": "write_file", "args": {"path": "result.txt", "content": "1000\n"}})
    env.step({"tool": "execute", "args": {"command": "echo 12 >> result.txt"}})
    _, reward, _, _, info = env.step({"tool": "submit", "args": {}})
    # the last value of the appended file counts (the toy evaluator reads the last line)
    assert info["grade"]["score"] == 12.0 and info["grade"]["success"] is True and reward == 1.0
    assert info["grade"]["improvement"] == pytest.approx(12 / 10.5 - 1)


def test_missing_result_is_invalid_with_the_lowest_reward(make) -> None:
    env = make()
    env.reset(seed=0)
    obs, reward, _, _, info = env.step({"tool": "submit", "args": {}})
    assert (
        info["grade"]["valid"] is False and "result.txt was not written" in info["grade"]["message"]
    )
    assert reward == -1.0 and "The result is invalid" in obs


def test_changing_a_read_only_file_by_command_invalidates_the_result(make) -> None:
    env = make()
    env.reset(seed=0)
    env.step(
        {
            "tool": "execute",
            "args": {"command": "echo 'BASE = 1000' > helper.py && python train.py"},
        }
    )
    _, reward, _, _, info = env.step({"tool": "submit", "args": {}})
    assert info["grade"]["valid"] is False
    assert (
        "read-only file(s) were changed: helper.py" in info["grade"]["message"] and reward == -1.0
    )


def test_rerun_option_scores_what_the_final_code_produces(make) -> None:
    env = make(family_options={"rerun": True})
    env.reset(seed=0)
    # a hand-written result is not what train.py produces: re-running overwrites it
    env.step({"tool": "write_file", "args": {"path": "result.txt", "content": "1000"}})
    _, _, _, _, info = env.step({"tool": "submit", "args": {}})
    assert info["grade"]["score"] == 10.0
    with pytest.raises(ValueError, match=r"unknown option 'bogus'; known: replica_seed, rerun"):
        make(family_options={"bogus": 1})


def test_budget_truncation_grades_the_workspace(make) -> None:
    env = make(max_episode_steps=2, toolset="mlagentbench")
    env.reset(seed=0)
    env.step(act("Execute Script", script_name="train.py"))
    _, _, terminated, truncated, info = env.step(act("List Files", dir_path="."))
    assert truncated and not terminated and info["grade"]["score"] == 10.0


def test_improvement_is_direction_aware() -> None:
    assert improvement(12.0, 10.0, lower_is_better=False) == pytest.approx(0.2)
    assert improvement(8.0, 10.0, lower_is_better=True) == pytest.approx(0.2)
    assert improvement(12.0, 10.0, lower_is_better=True) == pytest.approx(-0.2)
    assert improvement(-0.9, -1.0, lower_is_better=False) == pytest.approx(0.1)


def test_bad_configuration_is_refused(toy: Path) -> None:
    with pytest.raises(ValueError, match="self-contained"):
        MLEEnv(load_task(toy), data="replica")
    with pytest.raises(ValueError, match="reward_mode"):
        MLEEnv(load_task(toy), reward_mode="percentile")
    with pytest.raises(ValueError, match="toolset"):
        MLEEnv(load_task(toy), toolset="bash")


def test_broken_task_folders_are_reported(tmp_path: Path) -> None:
    from mle_gym.tasks import TaskError

    folder = tmp_path / "toy"
    (folder / "starter").mkdir(parents=True)
    (folder / "description.md").write_text("x")
    (folder / "task.yaml").write_text(TASK_YAML)
    with pytest.raises(TaskError, match=r"evaluate\.py"):
        load_task(folder)
    (folder / "evaluate.py").write_text(EVALUATE)
    (folder / "task.yaml").write_text(TASK_YAML.replace("run: python train.py", "run: ''"))
    with pytest.raises(TaskError, match=r"mlagentbench\.run"):
        load_task(folder)
    (folder / "task.yaml").write_text(TASK_YAML.replace("mode: measured", "mode: guess"))
    with pytest.raises(TaskError, match=r"baseline\.mode"):
        load_task(folder)
