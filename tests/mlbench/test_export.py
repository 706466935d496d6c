"""A local export in the Hugging Face schema, written here, builds working episodes of
``MLBench/ml-bench-v0``: a repository given as a local checkout, or cloned from git at
the pinned commit; JSONL and parquet in the hub's layout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import gymnasium as gym
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from gymnasium.utils.env_checker import check_env

import mle_gym  # noqa: F401
from mle_gym.agents.scripted import ScriptedAgent
from mle_gym.families.mlbench.loader import write_jsonl
from mle_gym.families.mlbench.repos import RepoUnavailable

pytestmark = pytest.mark.sandbox

URL = "https://github.com/example-org/toyml"
README = """# toyml

## Training — `src/train.py`

Run it from `src/`:

    python train.py --dataset iris --epochs 3

| option | meaning |
|---|---|
| `--dataset` | `iris` or `wine` |
| `--epochs` | passes over the data |
| `--out` | where the model summary is written (default `model.txt`) |
"""
TRAIN = """\
import argparse
p = argparse.ArgumentParser()
p.add_argument("--dataset", choices=["iris", "wine"], required=True)
p.add_argument("--epochs", type=int, required=True)
p.add_argument("--out", default="model.txt")
a = p.parse_args()
from sklearn.datasets import load_iris, load_wine
X, y = (load_iris if a.dataset == "iris" else load_wine)(return_X_y=True)
open(a.out, "w").write(f"{a.dataset} {a.epochs} {len(y)}")
print("VERSION", open("VERSION").read().strip(), "rows", len(y))
"""


def rows() -> list[dict[str, Any]]:
    base = {
        "github_id": 77,
        "github": URL,
        "path": "./src",
        "oracle": "python train.py --dataset iris --epochs 3",
        "type": "Bash Script",
        "prefix_code": "",
    }
    return [
        {
            **base,
            "repo_id": 1,
            "id": 501,
            "arguments": "{'dataset': 'wine', 'epochs': '7'}",
            "instruction": "Train on the wine data for 7 epochs.",
            "output": "python train.py --dataset wine --epochs 7",
            "artifacts": ["model.txt"],
            "expected_stdout": r"rows 178",
        },
        {
            **base,
            "repo_id": 2,
            "id": 502,
            "arguments": "{'dataset': 'iris', 'epochs': '2'}",
            "instruction": "Train on iris for 2 epochs.",
            "output": "python train.py --dataset iris --epochs 2",
        },
    ]


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True)
    return done.stdout.strip()


@pytest.fixture
def toyml(tmp_path: Path) -> tuple[Path, str]:
    """A git repository whose pinned (first) commit has VERSION 2; a later one has VERSION 3."""
    repo = tmp_path / "upstream" / "toyml"
    (repo / "src").mkdir(parents=True)
    (repo / "README.md").write_text(README)
    (repo / "src" / "train.py").write_text(TRAIN)
    (repo / "src" / "VERSION").write_text("2\n")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "-c", "user.email=t@e.org", "-c", "user.name=t", "add", ".")
    git(repo, "-c", "user.email=t@e.org", "-c", "user.name=t", "commit", "-q", "-m", "v2")
    pinned = git(repo, "rev-parse", "HEAD")
    (repo / "src" / "VERSION").write_text("3\n")
    git(repo, "-c", "user.email=t@e.org", "-c", "user.name=t", "commit", "-qam", "v3")
    return repo, pinned


def play_scripted(env: gym.Env, example_id: int) -> tuple[float, dict[str, Any]]:
    obs, info = env.reset(options={"example_id": example_id})
    agent = ScriptedAgent()
    agent.reset({**info, "task": env.unwrapped.task, "observation": obs})
    done = False
    while not done:
        obs, reward, terminated, truncated, info = env.step(agent.act(obs, info))
        done = terminated or truncated
    return reward, info


def test_jsonl_export_with_a_local_checkout(backend: str, tmp_path: Path, toyml) -> None:
    repo, _ = toyml
    export = write_jsonl(rows(), tmp_path / "export" / "full.jsonl")
    env = gym.make(
        "MLBench/ml-bench-v0",
        source=str(export.parent),
        repos={"toyml": str(repo)},
        context="oracle",
        sandbox=backend,
    )
    try:
        reward, info = play_scripted(env, 501)
        grade = info["grade"]
        assert reward == 1.0 and grade["passed"], grade
        assert info["data_source"] == "local-export" and grade["example_id"] == 501
        assert grade["execution"]["stdout_matched"] is True
        assert "VERSION 3" in grade["execution"]["output_tail"]  # the checkout as it is
        obs, _ = env.reset(options={"example_id": 502})
        assert "Train on iris for 2 epochs." in obs and "python train.py --dataset iris" in obs
        wrong = "python train.py --dataset iris --epochs 3\n"
        env.step({"tool": "write_file", "args": {"path": "run.sh", "content": wrong}})
        _, reward, _, _, info = env.step({"tool": "submit", "args": {}})
        assert reward == 0.0 and info["grade"]["argument_check"]["missing"] == ["epochs"]
    finally:
        env.close()


def test_parquet_export_with_a_clone_at_the_pinned_commit(
    backend: str, tmp_path: Path, toyml
) -> None:
    repo, pinned = toyml
    export = tmp_path / "hub"
    (export / "data").mkdir(parents=True)
    table = pa.Table.from_pylist([{**r, "github": str(repo)} for r in rows()])
    pq.write_table(table, export / "data" / "quarter-00000-of-00001.parquet")
    cache_home = tmp_path / "home"
    env = gym.make(
        "MLBench/ml-bench-v0",
        source=export,
        split="quarter",
        pins={"toyml": pinned},
        sandbox=backend,
    )
    try:
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("MLE_GYM_HOME", str(cache_home))
            reward, info = play_scripted(env, 501)
        grade = info["grade"]
        assert reward == 1.0 and grade["passed"], grade
        assert "VERSION 2" in grade["execution"]["output_tail"]  # the pinned commit
        assert [p.name for p in (cache_home / "mlbench" / "repos").iterdir()] == [f"toyml@{pinned}"]
    finally:
        env.close()


def test_environment_variables_point_the_cli_at_a_local_export(tmp_path: Path, toyml) -> None:
    repo, _ = toyml
    export = write_jsonl(rows(), tmp_path / "export" / "full.jsonl")
    (tmp_path / "checkouts").mkdir()
    (tmp_path / "checkouts" / "toyml").symlink_to(repo)
    env = {
        **os.environ,
        "MLE_GYM_MLBENCH_SOURCE": str(export),
        "MLE_GYM_MLBENCH_REPOS": str(tmp_path / "checkouts"),
    }
    cmd = [sys.executable, "-m", "mle_gym.cli", "run", "--env", "MLBench/ml-bench-v0"]
    cmd += ["--agent", "scripted", "--seed", "0", "--sandbox", "local", "--quiet"]
    cmd += ["--no-trajectory"]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(done.stdout[done.stdout.index("{") :])
    assert result["reward"] == 1.0 and result["data_source"] == "local-export"


def test_check_env_and_missing_repository(backend: str, tmp_path: Path, toyml) -> None:
    repo, _ = toyml
    export = write_jsonl(rows(), tmp_path / "full.jsonl")
    env = gym.make("MLBench/ml-bench-v0", source=export, repos={"toyml": repo}, sandbox=backend)
    try:
        check_env(env.unwrapped, skip_render_check=True)
    finally:
        env.close()
    nowhere = gym.make("MLBench/ml-bench-v0", source=export, clone=False, sandbox=backend)
    try:
        with pytest.raises(
            RepoUnavailable, match=r"toyml .* is not available.*cloning is disabled"
        ):
            nowhere.reset(seed=0)
    finally:
        nowhere.close()
