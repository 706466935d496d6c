"""The scripted agent (``--agent scripted``) on every family: the reference solution where the
task has one, the family's fallback otherwise, and never a failing tool call.

Whole episodes run on tasks that work offline: MLE-bench replicas (the task's
``solution.py``), the offline MLAgentBench tasks (``solution/``, in both toolsets; the final
score is the reference solution's own score, measured apart by
:func:`mle_gym.families.mlagentbench.reference.measure`) and shipped ML-Bench examples (the
command the README documents, after the example's setup). The plans themselves are checked
without a sandbox.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest

import mle_gym
from mle_gym.agents import make_agent
from mle_gym.agents.scripted import ScriptedAgent
from mle_gym.episode_runner import EpisodeResult, run_episode
from mle_gym.families.mlagentbench import prepare as mlab_prepare
from mle_gym.families.mlagentbench import reference
from mle_gym.families.mlagentbench.family import MLAgentBenchFamily
from mle_gym.families.mlagentbench.policy import SolutionPolicy, listed_tools
from mle_gym.families.mlagentbench.prompts import task_observation as mlab_observation
from mle_gym.families.mlagentbench.task import parse_config
from mle_gym.families.mlagentbench.toolset import mlagentbench_toolset
from mle_gym.families.mlbench import prompts as mlbench_prompts
from mle_gym.families.mlbench.loader import load_examples
from mle_gym.families.mlbench.policy import MLBenchScriptedPolicy, read_setup
from mle_gym.families.toolsets import default_toolset
from mle_gym.tasks import get_task, load_task

ASSETS = Path(__file__).resolve().parents[1] / "task_assets"
MLAB = ASSETS / "mlagentbench"


def call(tool: str, **args: object) -> dict[str, Any]:
    return {"tool": tool, "args": args}


def play(env: gym.Env, seed: int = 0) -> tuple[EpisodeResult, list[tuple[int, Any, str]]]:
    """A whole scripted episode; (result, every step whose info says ``ok: False``)."""
    failed: list[tuple[int, Any, str]] = []

    def on_step(i: int, action: Any, obs: str, reward: float, info: dict[str, Any]) -> None:
        if info.get("ok") is False:
            failed.append((i, action.get("tool") if isinstance(action, dict) else action, obs))

    result = run_episode(env, make_agent("scripted"), seed=seed, on_step=on_step)
    return result, failed


def assert_no_tool_errors(result: EpisodeResult, failed: list[tuple[int, Any, str]]) -> None:
    assert failed == [], failed
    assert result.errors == [] and result.error_count == 0, result.errors


# -- plans (no sandbox) -------------------------------------------------------------------


def _mlab_first_observation(task_id: str, tools: list[Any]) -> str:
    task = get_task(task_id)
    cfg = parse_config(task)
    return mlab_observation(task, cfg, True, "train.py  1 KB", tools, 50, task.limits)


def test_the_mlagentbench_plan_speaks_the_env_s_toolset() -> None:
    task = get_task("MLAgentBench/house-price")
    code = (MLAB / "house-price" / "solution" / "train.py").read_text()
    default = _mlab_first_observation(task.key, list(default_toolset().tools))
    assert "submit" in listed_tools(default) and "Final Answer" not in listed_tools(default)
    policy = MLAgentBenchFamily.reference_policy(task, default)
    assert [policy.act("", {}) for _ in range(3)] == [
        call("write_file", path="train.py", content=code),
        call("execute", command="python train.py"),
        call("submit"),
    ]
    mlab = _mlab_first_observation(task.key, list(mlagentbench_toolset().tools))
    assert "Final Answer" in listed_tools(mlab)
    policy = MLAgentBenchFamily.reference_policy(task, mlab)
    plan = [policy.act("", {}) for _ in range(4)]
    assert plan[:2] == [
        call("Write_File", file_name="train.py", content=code),
        call("Execute_Script", script_name="train.py"),
    ]
    assert plan[2]["tool"] == plan[3]["tool"] == "Final_Answer"
    # every call is one the mlagentbench toolset reads as that action, with its arguments
    toolset = mlagentbench_toolset()
    for action in plan:
        parsed = toolset.parse(action)
        spec = toolset.lookup(parsed.name)
        assert spec is not None and set(parsed.args) <= {p.name for p in spec.params}


TOY_YAML = """\
id: shell-run
benchmark: MLAgentBench
title: A task run by a shell command
version: 0
metric: value
lower_is_better: false
mlagentbench:
  run: SEED=1 bash run.sh
  outputs: [result.txt]
data:
  none: {}
"""


def test_a_run_command_that_is_not_python_script_goes_through_the_repl(tmp_path: Path) -> None:
    folder = tmp_path / "mlagentbench" / "shell-run"
    (folder / "starter").mkdir(parents=True)
    (folder / "task.yaml").write_text(TOY_YAML)
    (folder / "description.md").write_text("Write result.txt.\n")
    (folder / "evaluate.py").write_text("def evaluate(job):\n    raise NotImplementedError\n")
    task = load_task(folder)
    obs = _mlab_first_observation("MLAgentBench/house-price", list(mlagentbench_toolset().tools))
    policy = SolutionPolicy(folder, parse_config(task), obs)
    run = policy.act("", {})  # no solution/: the starter is run as it is
    assert run["tool"] == "Python_REPL"
    assert "subprocess.run('SEED=1 bash run.sh', shell=True, check=True)" in run["args"]["command"]
    assert policy.act("", {})["tool"] == "Final_Answer"


def _mlbench_observation(example_id: int, *, show_arguments: bool = True) -> str:
    example = next(e for e in load_examples("bundled") if e.id == example_id)
    task = get_task("MLBench/offline")
    return mlbench_prompts.task_observation(
        example,
        env_id=task.env_id,
        context="none",
        readme=None,
        show_arguments=show_arguments,
        run_timeout_s=120,
        listing=".",
        tool_names=[t.name for t in default_toolset().tools],
        max_steps=30,
        limits=task.limits,
    )


def test_the_ml_bench_check_run_starts_with_the_example_s_setup() -> None:
    with_setup = next(e for e in load_examples("bundled") if e.prefix_code.strip())
    obs = _mlbench_observation(with_setup.id)
    assert read_setup(obs) == with_setup.prefix_code.strip()
    policy = MLBenchScriptedPolicy(obs)
    assert policy.act(obs, {}) == call("read_file", path="/workspace/README.md")
    readme = (ASSETS / "mlbench" / with_setup.repo_name / "repository" / "README.md").read_text()
    written = policy.act(readme, {"ok": True})
    assert written["tool"] == "write_file" and written["args"]["path"] == "run.sh"
    run = policy.act("wrote run.sh", {"ok": True})
    assert run == call("execute", command=f"{with_setup.prefix_code.strip()}\nbash run.sh")
    without = next(e for e in load_examples("bundled") if not e.prefix_code.strip())
    assert read_setup(_mlbench_observation(without.id)) == ""


def test_without_a_documented_command_ml_bench_submits_without_a_failing_run() -> None:
    obs = _mlbench_observation(1, show_arguments=False)  # no values: nothing to compose
    policy = MLBenchScriptedPolicy(obs)
    policy.act(obs, {})
    written = policy.act("# a README\n", {"ok": True})
    assert written["tool"] == "write_file"
    assert "no documented script takes these arguments" in written["args"]["content"]
    assert policy.act("wrote run.sh", {"ok": True}) == call("submit")


# -- whole episodes -----------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("task", ["spaceship-titanic", "nomad2018-predict-transparent-conductors"])
def test_mlebench_replicas_run_the_task_s_solution(task: str, backend: str) -> None:
    mle_gym.register_all()
    env = gym.make(f"MLEBench/{task}-v0", data="replica", sandbox=backend)
    try:
        result, failed = play(env)
    finally:
        env.close()
    assert_no_tool_errors(result, failed)
    grade = result.grade
    assert grade is not None and result.data_source == "replica"
    assert grade["valid"] is True and grade["submission_exists"] is True, grade
    # list, two heads, write the task's solution.py, run, validate, submit: no fallback
    assert result.steps == 7 and result.terminated


def _mlab_reference_score(task_name: str, backend: str) -> float:
    task = get_task(f"MLAgentBench/{task_name}")
    data = mlab_prepare.resolve(task, parse_config(task), "auto", 0)
    return reference.measure(task, data, sandbox_kind=backend)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("task", "toolset"),
    [
        ("house-price", "default"),
        ("spaceship-titanic", "default"),
        ("vectorization", "default"),
        ("house-price", "mlagentbench"),
    ],
)
def test_offline_mlagentbench_tasks_score_what_the_reference_solution_scores(
    task: str, toolset: str, backend: str
) -> None:
    mle_gym.register_all()
    env = gym.make(f"MLAgentBench/{task}-v0", sandbox=backend, toolset=toolset)
    try:
        result, failed = play(env)
    finally:
        env.close()
    assert_no_tool_errors(result, failed)
    grade = result.grade
    assert grade is not None and result.terminated and result.steps == 3
    assert grade["valid"] is True and grade["submission_exists"] is True, grade["message"]
    if parse_config(get_task(f"MLAgentBench/{task}")).baseline_mode == "measured":
        # deterministic solution and evaluator: the episode's score is the solution's own
        assert grade["score"] == _mlab_reference_score(task, backend)
    else:  # a timing task: the duration differs run to run; the result is a valid time
        assert grade["score"] > 0 and grade["baseline"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("example_id", [1, 17, 24, 34])  # shell; with setup; Python; positional
def test_ml_bench_examples_pass_without_a_failing_call(example_id: int, backend: str) -> None:
    mle_gym.register_all()
    env = gym.make("MLBench/offline-v0", sandbox=backend)
    failed = []
    try:
        obs, info = env.reset(options={"example_id": example_id})
        agent = ScriptedAgent()
        agent.reset({**info, "task": env.unwrapped.task, "observation": obs})
        done, steps = False, 0
        while not done:
            obs, reward, terminated, truncated, info = env.step(agent.act(obs, info))
            steps += 1
            if info.get("ok") is False:
                failed.append(obs)
            done = terminated or truncated
    finally:
        env.close()
    assert failed == []
    grade = info["grade"]
    assert grade["example_id"] == example_id and terminated and steps == 4
    assert reward == 1.0 and grade["passed"] and grade["submission_exists"], grade


@pytest.mark.slow
@pytest.mark.only_backend("local")
def test_mle_gym_eval_records_no_tool_errors_and_the_reference_score(
    backend: str, tmp_path: Path
) -> None:
    """The README's reproduction path: ``mle-gym eval ... --agent scripted``."""
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "mle_gym.cli", "eval", "MLAgentBench/house-price-v0"]
    cmd += ["--agent", "scripted", "--seeds", "1", "--sandbox", backend, "--out", str(out)]
    cmd += ["--no-progress", "--no-plots"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    folder = out / "episodes" / "house-price" / "seed-0"
    record = json.loads((folder / "episode.json").read_text())
    grade = json.loads((folder / "grade.json").read_text())
    assert record["status"] == "done" and record["tool_errors"] == {"count": 0, "first": []}
    assert grade["submission_exists"] is True and grade["valid"] is True
    assert grade["score"] == _mlab_reference_score("house-price", backend)
