"""The three offline MLAgentBench tasks end to end on both backends: the starter code alone
does not succeed, the scripted solution does; vectorization checks results exactly."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

import mle_gym
from mle_gym.families.mlagentbench.task import parse_config
from mle_gym.tasks import get_task

ASSETS = Path(__file__).resolve().parents[2] / "task_assets" / "mlagentbench"


@pytest.fixture
def make(backend: str):
    envs: list[gym.Env] = []

    def factory(task: str, **kwargs) -> gym.Env:
        kwargs.setdefault("sandbox", backend)
        env = gym.make(f"MLAgentBench/{task}-v0", **kwargs)
        envs.append(env)
        return env

    yield factory
    for env in envs:
        env.close()


def call(tool: str, **args: object) -> dict:
    return {"tool": tool, "args": args}


def solution(task: str) -> str:
    return (ASSETS / task / "solution" / "train.py").read_text()


@pytest.mark.parametrize("task", ["house-price", "spaceship-titanic", "vectorization"])
def test_starter_alone_does_not_succeed_and_the_solution_does(make, task: str) -> None:
    env = make(task)
    obs, info = env.reset(seed=0)
    assert "train.py" in obs and info["data_source"] in ("replica", "none")
    _, _, _, _, info = env.step(call("execute", command="python train.py"))
    assert info["ok"], info
    _, reward, terminated, _, info = env.step(call("submit"))
    starter = info["grade"]
    assert terminated
    assert starter["valid"], starter["message"]
    assert starter["success"] is False and starter["improvement"] < 0.1
    assert reward == pytest.approx(max(-1.0, min(1.0, starter["improvement"])))
    assert starter["baseline"] is not None and starter["baseline_runs"]
    reference = parse_config(get_task(f"MLAgentBench/{task}")).baseline_reference
    if reference:  # the figure stored in task.yaml is what running the starter gives
        assert starter["baseline"] == pytest.approx(reference["replica-seed0"], rel=0.02)

    env.reset(seed=0)
    env.step(call("write_file", path="train.py", content=solution(task)))
    _, _, _, _, info = env.step(call("execute", command="python train.py"))
    assert info["ok"], info
    _, reward, _, _, info = env.step(call("submit"))
    solved = info["grade"]
    assert solved["valid"], solved["message"]
    assert solved["success"] is True, solved
    assert solved["improvement"] > 0.1 and reward == pytest.approx(min(1.0, solved["improvement"]))
    if task != "vectorization":  # measured once per data variant, then reused
        assert solved["baseline"] == starter["baseline"]
    json.dumps(info["grade"])  # info["grade"] is plain JSON


def test_mlagentbench_agent_loop_solves_house_price(make) -> None:
    """What an MLAgentBench agent sends, as text, end to end."""
    env = make("house-price", toolset="mlagentbench", reward_mode="success")
    obs, _ = env.reset(seed=0)
    assert "Action:" in env.unwrapped.system_prompt
    content = json.dumps(solution("house-price"))
    steps = [
        'Action: List Files\nAction Input: {"dir_path": "data"}',
        "Thought: let me see the starter\nAction: Inspect Script Lines\nAction Input: "
        '{"script_name": "train.py", "start_line_number": 1, "end_line_number": 40}',
        f'Action: Write File\nAction Input: {{"file_name": "train.py", "content": {content}}}',
        'Action: Execute Script\nAction Input: {"script_name": "train.py"}',
    ]
    observations = []
    for text in steps:
        obs, _, terminated, _, info = env.step(text)
        observations.append(obs)
        assert not terminated and info["ok"], obs
    assert observations[0].split() == ["sample_submission.csv", "test.csv", "train.csv"]
    assert (
        observations[3] == "The script has been executed. Here is the output:\nwrote submission.csv"
    )
    obs, reward, terminated, _, info = env.step(
        'Action: Final Answer\nAction Input: {"final_answer": "blended boosting and ridge"}'
    )
    assert terminated and reward == 1.0 and info["grade"]["success"] is True
    assert "Score (mae)" in obs


def test_data_files_are_read_only(make) -> None:
    env = make("spaceship-titanic", toolset="mlagentbench")
    env.reset(seed=0)
    obs, *_ = env.step(
        'Action: Write File\nAction Input: {"file_name": "data/test.csv", "content": "x"}'
    )
    assert obs.startswith("EnvError: cannot write file data/test.csv")
    obs, _, _, _, info = env.step(
        "Action: Python REPL\nAction Input: {\"command\": \"open('data/test.csv', 'w')\"}"
    )
    assert info["ok"] is False and "Read-only file system" in obs


def _module(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_vectorization_reference_equals_the_starter_loops() -> None:
    evaluator = _module(ASSETS / "vectorization" / "evaluate.py", "mlab_vec_eval_test")
    starter = _module(ASSETS / "vectorization" / "starter" / "train.py", "mlab_vec_starter_test")
    harness = _module(ASSETS / "vectorization" / "harness" / "child.py", "mlab_vec_harness_test")
    inputs = harness.make_inputs("0123456789abcdef" * 2)
    layer = starter.Conv2DLayer(3, 8, 3, 2, 2, "relu")
    layer.kernel_matrices, layer.biases = inputs["w"], inputs["b"]
    expected = layer.forward(inputs["x"])
    got = evaluator.reference_forward(**inputs)
    assert got.shape == expected.shape == (8, 17, 17, 8)
    assert np.allclose(got, expected, rtol=1e-12, atol=1e-12)


WRONG_BIAS = "self.biases[0, 0, 0, k]"


def test_vectorization_rejects_a_wrong_or_broken_implementation(make) -> None:
    starter = (ASSETS / "vectorization" / "starter" / "train.py").read_text()
    assert WRONG_BIAS in starter
    env = make("vectorization")
    env.reset(seed=0)
    env.step(call("write_file", path="train.py", content=starter.replace(WRONG_BIAS, "0.0")))
    _, reward, _, _, info = env.step(call("submit"))
    assert info["grade"]["valid"] is False and reward == -1.0
    assert "forward computes a different result" in info["grade"]["message"]

    env.reset(seed=0)
    env.step(call("write_file", path="train.py", content="raise ImportError('no numpy here')\n"))
    _, _, _, _, info = env.step(call("submit"))
    assert info["grade"]["valid"] is False
    assert "could not be imported" in info["grade"]["message"]
    assert "no numpy here" in info["grade"]["message"]


TASKS = ["cifar10", "imdb", "ogbn-arxiv", "house-price", "spaceship-titanic", "parkinsons",
         "fathomnet", "feedback", "identify-contrails", "CLRS", "babylm", "llama-inference",
         "vectorization"]  # fmt: skip


def test_thirteen_env_ids_with_mlagentbench_budgets() -> None:
    ids = mle_gym.register_all()
    for name in TASKS:
        spec = gym.spec(f"MLAgentBench/{name}-v0")
        assert f"MLAgentBench/{name}-v0" in ids and spec.max_episode_steps == 50
        task = get_task(f"MLAgentBench/{name}")
        assert task.limits.max_steps == 50 and task.limits.time_budget_s == 5 * 3600
        assert task.family == "mlagentbench" and (task.folder / "evaluate.py").is_file()
    # MLAgentBench's published tasks are all here; a new folder needs no edit of this test
    assert {f"MLAgentBench/{name}-v0" for name in TASKS} <= set(ids)


def test_budgets_are_overridable(make) -> None:
    env = make("vectorization", max_episode_steps=3, time_budget_s=600)
    obs, info = env.reset(seed=0)
    assert info["steps_left"] == 3 and "Budget: 3 steps and 10 min" in obs
    for _ in range(2):
        _, _, _, truncated, _ = env.step(call("list_files"))
        assert not truncated
    _, _, terminated, truncated, info = env.step(call("list_files"))
    assert truncated and not terminated and info["grade"]["valid"] is True


def test_evaluators_solutions_and_answers_are_out_of_reach(make) -> None:
    env = make("house-price")
    env.reset(seed=0)
    task_dir = ASSETS / "house-price"
    private = Path(env.unwrapped.data_dir).parent / "private"
    for path in (
        task_dir / "evaluate.py",
        task_dir / "solution" / "train.py",
        private / "answers.csv",
    ):
        obs, _, _, _, info = env.step(call("execute", command=f"cat {path}"))
        assert info["ok"] is False and "No such file" in obs, obs
    obs, _, _, _, info = env.step(
        call("execute", command="python -c 'import mle_gym.families.mlagentbench'")
    )
    assert info["ok"] is False
