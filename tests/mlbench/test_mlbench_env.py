"""ML-Bench environments end to end on both sandbox backends: the scripted agent solves
offline examples from the README; wrong arguments, crashes, timeouts and tampering fail
with the right breakdown; options, contexts and seeds behave as documented."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import pytest

import mle_gym  # noqa: F401  (registers the env ids)
from mle_gym.agents.scripted import ScriptedAgent
from mle_gym.families.mlbench.loader import load_examples

pytestmark = pytest.mark.sandbox


@pytest.fixture
def make(backend: str):
    """``make(env_id, **kwargs)`` -> an ML-Bench env on the current backend, closed after."""
    envs: list[gym.Env] = []

    def factory(env_id: str = "MLBench/offline-v0", **kwargs: Any) -> gym.Env:
        kwargs.setdefault("sandbox", backend)
        env = gym.make(env_id, **kwargs)
        envs.append(env)
        return env

    yield factory
    for env in envs:
        env.close()


def call(tool: str, **args: Any) -> dict[str, Any]:
    return {"tool": tool, "args": args}


def solve(env: gym.Env, example_id: int, actions: list[dict[str, Any]]) -> dict[str, Any]:
    """Reset on one example, play ``actions`` then submit; return the last info."""
    env.reset(options={"example_id": example_id})
    for action in actions:
        _, _, terminated, _, info = env.step(action)
        assert not terminated and info["ok"], info
    _, reward, terminated, _, info = env.step(call("submit"))
    assert terminated
    info["reward"] = reward
    return info


def run_scripted(env: gym.Env, example_id: int) -> tuple[float, dict[str, Any], int]:
    obs, info = env.reset(options={"example_id": example_id})
    agent = ScriptedAgent()
    agent.reset({**info, "task": env.unwrapped.task, "observation": obs})
    steps, done = 0, False
    while not done:
        obs, reward, terminated, truncated, info = env.step(agent.act(obs, info))
        steps += 1
        done = terminated or truncated
    return reward, info, steps


@pytest.mark.parametrize("example_id", [24, 34])  # a Python example; a positional .sh script
def test_scripted_agent_solves_examples_from_the_readme(make, example_id: int) -> None:
    env = make("MLBench/offline-v0")
    reward, info, steps = run_scripted(env, example_id)
    grade = info["grade"]
    assert reward == 1.0 and grade["passed"], grade
    assert grade["example_id"] == example_id and steps == 4
    assert grade["argument_check"]["passed"] and grade["execution"]["status"] == "exit_0"
    expected = load_examples("bundled")[example_id - 1]
    assert grade["execution"]["artifacts_found"] == list(expected.artifacts)
    assert info["data_source"] == "bundled" and info["reward_mode"] == "pass"


def test_wrong_argument_fails_the_argument_check(make) -> None:
    env = make("MLBench/tabkit-v0")
    info = solve(
        env,
        1,
        [
            call(
                "write_file",
                path="run.sh",
                content="python train.py --dataset wine --model random_forest --n-estimators 500\n",
            )
        ],
    )
    grade = info["grade"]
    assert info["reward"] == 0.0 and not grade["passed"]
    assert grade["argument_check"]["missing"] == ["n-estimators"]
    assert grade["execution"]["status"] == "exit_0" and grade["execution"]["passed"]
    assert grade["partial_credit"] == pytest.approx(0.5 * 2 / 3 + 0.5)
    assert grade["message"] == "argument check failed: missing n-estimators=50"


def test_crashing_command_fails_execution(make) -> None:
    env = make("MLBench/tabkit-v0", reward_mode="partial")
    info = solve(
        env,
        1,
        [
            call(
                "write_file",
                path="run.sh",
                content="python train.py --dataset wine "
                "--model random_forest --n-estimators 50 --max-depth -3\n",
            )
        ],
    )
    grade = info["grade"]
    assert grade["argument_check"]["passed"] and not grade["passed"]
    assert grade["execution"]["status"] == "exit_nonzero" and grade["execution"]["exit_code"] == 1
    assert "max_depth" in grade["execution"]["output_tail"]
    assert info["reward"] == pytest.approx(0.5) == grade["partial_credit"]


def test_timeout_is_reported_apart_and_passes_only_in_compat_mode(make) -> None:
    sub = "python train_linear.py --dataset diabetes --penalty lasso --alpha 0.1 --metrics /x/m\n"
    sub = "sleep 30\n" + sub
    strict = solve(
        make("MLBench/regkit-v0", run_timeout_s=3),
        13,
        [call("write_file", path="run.sh", content=sub)],
    )
    assert strict["reward"] == 0.0 and strict["grade"]["still_running_at_timeout"]
    assert strict["grade"]["execution"]["status"] == "timeout"
    compat = solve(
        make("MLBench/regkit-v0", run_timeout_s=3, compat="mlbench"),
        13,
        [call("write_file", path="run.sh", content=sub)],
    )
    assert compat["reward"] == 1.0 and compat["grade"]["compat"] == "mlbench"
    assert compat["grade"]["argument_check"]["rule"] == "mlbench-substring"


def test_grading_uses_the_original_repository_and_fresh_artifacts(make) -> None:
    env = make("MLBench/tabkit-v0")
    good = "python train.py --dataset wine --model random_forest --n-estimators 50\n"
    # the agent breaks the repository's script in its workspace: grading restores it
    info = solve(
        env,
        1,
        [
            call("write_file", path="train.py", content="raise SystemExit(3)\n"),
            call("write_file", path="run.sh", content=good),
        ],
    )
    assert info["grade"]["passed"], info["grade"]
    # the artifact left by the agent's own run does not count for a run that skips it
    other = (
        "python train.py --dataset wine --model random_forest --n-estimators 50 --output-dir o\n"
    )
    info = solve(
        env,
        1,
        [
            call("execute", command=good.strip()),
            call("write_file", path="run.sh", content=other),
        ],
    )
    assert not info["grade"]["passed"]
    assert info["grade"]["message"] == "execution failed: expected artifacts/output not produced"
    # a run that rewrites the repository's code fails
    sneaky = "echo 'print(1)' > ../../tabkit/models.py\n" + good
    info = solve(env, 1, [call("write_file", path="run.sh", content=sneaky)])
    assert info["grade"]["modified_code"] == ["tabkit/models.py"]
    assert not info["grade"]["passed"]


def test_links_planted_by_the_agent_never_reach_host_files(make, tmp_path) -> None:
    victim = tmp_path / "victim" / "wine_random_forest"
    victim.mkdir(parents=True)
    (victim / "model.pkl").write_text("host file")
    good = "python train.py --dataset wine --model random_forest --n-estimators 50\n"
    env = make("MLBench/tabkit-v0")
    info = solve(
        env,
        1,
        [
            # the artifact's folder is a link to a host folder holding a file of that name
            call("execute", command=f"ln -s {tmp_path / 'victim'} runs"),
            # the submission is a link that resolves inside the sandbox
            call("write_file", path="real.sh", content=good),
            call("execute", command="ln -s /workspace/examples/classification/real.sh run.sh"),
        ],
    )
    assert info["grade"]["passed"], info["grade"]
    assert info["grade"]["submission"] == good
    assert (victim / "model.pkl").read_text() == "host file"


def test_missing_submission_and_validation(make) -> None:
    env = make("MLBench/clusterlab-v0")
    env.reset(options={"example_id": 25})
    obs, *_ = env.step(call("validate_submission"))
    assert obs.startswith("invalid:") and "does not exist" in obs
    env.step(call("write_file", path="run.sh", content="echo 'unclosed\n"))
    obs, _, _, _, info = env.step(call("validate_submission"))
    assert not info["ok"] and "invalid" in obs
    env.step(call("write_file", path="run.sh", content="python cluster.py --dataset digits\n"))
    obs, _, _, _, info = env.step(call("validate_submission"))
    assert info["ok"] and obs.startswith("format ok") and "digits" not in obs.split(":", 1)[1]
    env.step(call("execute", command="rm run.sh"))
    _, reward, terminated, _, info = env.step(call("submit"))
    assert terminated and reward == 0.0
    assert info["grade"]["valid"] is False and info["grade"]["message"] == "no submission file"


def test_contexts_workdir_options_and_seeds(make) -> None:
    ex = load_examples("bundled")[29]  # id 30: embedding/reduce.py
    obs = {}
    for context in ("none", "oracle", "readme"):
        env = make("MLBench/clusterlab-v0", context=context)
        obs[context], _ = env.reset(options={"example_id": 30})
        assert ex.instruction in obs[context]
        assert '"n-components": "2"' in obs[context]
        assert "Task folder: embedding" in obs[context]
    assert "Context" not in obs["none"]
    assert ex.oracle in obs["oracle"] and "## Clustering" not in obs["oracle"]
    assert "## Clustering" in obs["readme"] and ex.oracle in obs["readme"]
    hidden = make("MLBench/clusterlab-v0", show_arguments=False)
    assert "Required argument values" not in hidden.reset(options={"example_id": 30})[0]
    env = make("MLBench/clusterlab-v0")
    env.reset(options={"example_id": 30})
    out, *_ = env.step(call("execute", command="pwd && ls"))
    assert "/workspace/embedding" in out and "reduce.py" in out
    out, *_ = env.step(call("read_file", path="reduce.py", end_line=1))
    assert "Project a bundled dataset" in out
    # a seed picks an example deterministically; seeds 0..N-1 cover them all
    ids = set()
    for seed in range(12):
        env.reset(seed=seed)
        ids.add(env.unwrapped.family.current.id)
    assert ids == set(range(25, 37))
    env.reset(seed=5)
    first = env.unwrapped.family.current.id
    env.reset(seed=17)
    assert env.unwrapped.family.current.id == first
    with pytest.raises(ValueError, match=r"example 1 is not served by MLBench/clusterlab-v0"):
        env.reset(options={"example_id": 1})
    with pytest.raises(ValueError, match=r"unknown reset options \['task'\]"):
        env.reset(options={"task": 1})
    quarter = make("MLBench/offline-v0", split="quarter")
    assert len(quarter.unwrapped.family.examples()) == 11


def test_bad_configuration_is_refused_at_make(backend: str) -> None:
    with pytest.raises(ValueError, match=r"MLBench/tabkit-v0: unknown option 'contxt'; known"):
        gym.make("MLBench/tabkit-v0", family_options={"contxt": "readme"}, sandbox=backend)
    with pytest.raises(TypeError, match=r"unexpected keyword argument\(s\) \['contxt'\]"):
        gym.make("MLBench/tabkit-v0", contxt="readme", sandbox=backend)
    with pytest.raises(ValueError, match=r"context must be one of"):
        gym.make("MLBench/tabkit-v0", context="all", sandbox=backend)
    with pytest.raises(ValueError, match=r"compat must be None or 'mlbench'"):
        gym.make("MLBench/tabkit-v0", compat="yes", sandbox=backend)
    with pytest.raises(ValueError, match=r"reward_mode must be one of"):
        gym.make("MLBench/tabkit-v0", reward_mode="medal", sandbox=backend)
    from mle_gym.families.mlbench.loader import MLBenchDataError

    with pytest.raises(MLBenchDataError, match=r"no example of split 'full'.*repo=nope"):
        gym.make("MLBench/offline-v0", repo="nope", sandbox=backend)
