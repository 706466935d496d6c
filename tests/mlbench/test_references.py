"""Every offline example end to end: the solution written from the repository's README (the
scripted agent's method) passes both checks in the sandbox. All 36 examples on the local
backend; the ``quarter`` split on docker (same code path, fewer container runs)."""

from __future__ import annotations

import gymnasium as gym
import pytest

import mle_gym  # noqa: F401
from mle_gym.families.mlbench.loader import load_examples
from mle_gym.families.mlbench.policy import read_observation
from mle_gym.families.mlbench.solver import compose_solution

pytestmark = pytest.mark.sandbox

FULL = [e.id for e in load_examples("bundled", "full")]
QUARTER = [e.id for e in load_examples("bundled", "quarter")]


@pytest.fixture(scope="module")
def envs():
    """One env per backend for the whole module (episodes reset it)."""
    made: dict[str, gym.Env] = {}
    yield made
    for env in made.values():
        env.close()


def _solve(env: gym.Env, example_id: int) -> None:
    obs, _ = env.reset(options={"example_id": example_id})
    task = read_observation(obs)
    readme, *_ = env.step({"tool": "read_file", "args": {"path": "/workspace/README.md"}})
    readme = readme.partition("\n")[2]
    solution = compose_solution(readme, task["path"], task["kind"], task["arguments"])
    assert solution is not None, example_id
    env.step({"tool": "write_file", "args": {"path": task["file"], "content": solution}})
    _, reward, terminated, _, info = env.step({"tool": "submit", "args": {}})
    grade = info["grade"]
    assert terminated and reward == 1.0, grade
    assert grade["argument_check"]["passed"] and grade["execution"]["status"] == "exit_0"
    assert grade["execution"]["artifacts_found"] == grade["execution"]["artifacts_expected"]


def _env(envs: dict[str, gym.Env], backend: str) -> gym.Env:
    if backend not in envs:
        envs[backend] = gym.make("MLBench/offline-v0", sandbox=backend)
    return envs[backend]


@pytest.mark.only_backend("local")
@pytest.mark.parametrize("example_id", FULL)
def test_every_example_local(backend: str, envs: dict[str, gym.Env], example_id: int) -> None:
    _solve(_env(envs, backend), example_id)


@pytest.mark.only_backend("docker")
@pytest.mark.parametrize("example_id", QUARTER)
def test_quarter_split_docker(backend: str, envs: dict[str, gym.Env], example_id: int) -> None:
    _solve(_env(envs, backend), example_id)
