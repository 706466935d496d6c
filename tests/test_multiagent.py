"""PettingZoo multi-agent envs (mle_gym.multiagent): API conformance, compete and cooperate.

Every test runs real episodes of the spaceship-titanic replica in real sandboxes (the default
backend), with workspaces under the test's own folder so that cleanup can be checked.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path
from typing import Any

import pytest
from gymnasium.error import ResetNeeded

from mle_gym.agents import Agent, make_agent
from mle_gym.multiagent import (
    CompeteParallelEnv,
    CooperateParallelEnv,
    parallel_env,
    rank_agents,
    run_game,
)

REPO = Path(__file__).resolve().parents[1]
TASK = "spaceship-titanic"


def _env(tmp_path: Path, mode: str, **kwargs: Any) -> CompeteParallelEnv | CooperateParallelEnv:
    kwargs.setdefault("data", "replica")
    kwargs.setdefault("reward_mode", "normalized")
    return parallel_env(TASK, mode=mode, workspace_root=tmp_path / "ws", **kwargs)


def _no_workspaces_left(tmp_path: Path) -> bool:
    root = tmp_path / "ws"
    return not root.exists() or not any(root.iterdir())


def _expected_bonus(n: int, rank: float, bonus: float) -> float:
    return bonus * (n - 1 - rank) / (n - 1)


class SampleAgent(Agent):
    """Copies the sample submission and submits it at once."""

    name = "sample"

    def reset(self, task_info: dict[str, Any]) -> None:
        self._plan = [
            {
                "tool": "execute",
                "args": {"command": "cp data/sample_submission.csv submission.csv"},
            },
            {"tool": "submit", "args": {}},
        ]

    def act(self, observation: str, info: dict[str, Any]) -> Any:
        return self._plan.pop(0)


class EmptyAgent(Agent):
    """Submits without writing any submission file (an invalid submission)."""

    name = "empty"

    def reset(self, task_info: dict[str, Any]) -> None:
        pass

    def act(self, observation: str, info: dict[str, Any]) -> Any:
        return {"tool": "submit", "args": {}}


# -- import and API ---------------------------------------------------------------------------


def test_import_mle_gym_does_not_import_pettingzoo() -> None:
    code = "import sys, mle_gym; assert 'pettingzoo' not in sys.modules, 'pettingzoo imported'"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("mode", ["compete", "cooperate"])
def test_parallel_api_test_passes(tmp_path: Path, mode: str) -> None:
    from pettingzoo.test import parallel_api_test

    env = _env(tmp_path, mode, max_episode_steps=3)
    assert env.metadata["is_parallelizable"] is True and env.metadata["name"]
    assert env.possible_agents == ["agent_0", "agent_1"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # PettingZoo reports dict/agent mismatches as warnings
        parallel_api_test(env, num_cycles=10)
    for agent in env.possible_agents:
        assert env.observation_space(agent) is env.observation_space(agent)
        assert env.action_space(agent) is env.action_space(agent)
    assert env.state_space.contains(env.state())
    env.close()
    env.close()  # idempotent
    assert _no_workspaces_left(tmp_path)


def test_bad_arguments_and_actions(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="mode"):
        parallel_env(TASK, mode="tag-team", data="replica")
    with pytest.raises(ValueError, match="n_agents"):
        parallel_env(TASK, n_agents=0, data="replica")
    with pytest.raises(ValueError, match="bonus"):
        parallel_env(TASK, mode="cooperate", bonus=1.0, data="replica")
    with pytest.raises(ValueError, match="bonus"):
        parallel_env(TASK, bonus=-1.0, data="replica")

    env = _env(tmp_path, "compete")
    with pytest.raises(ResetNeeded):
        env.step({"agent_0": {"tool": "submit", "args": {}}})
    env.reset(seed=0)
    ls = {"tool": "list_files", "args": {}}
    with pytest.raises(ValueError, match="agent_1"):
        env.step({"agent_0": ls})
    with pytest.raises(ValueError, match="unknown"):
        env.step({"agent_0": ls, "agent_1": ls, "agent_9": ls})
    env.close()
    assert _no_workspaces_left(tmp_path)


# -- ranking ----------------------------------------------------------------------------------


def test_rank_agents_definition() -> None:
    def grade(score: float | None) -> dict[str, Any] | None:
        return None if score is None else {"valid": True, "score": score}

    grades = {"a": grade(0.8), "b": grade(0.8), "c": grade(0.5), "d": {"valid": False}}
    rewards = {"a": 1.0, "b": 1.0, "c": 0.2, "d": 0.0}
    out = rank_agents(grades, rewards, lower_is_better=False, bonus=0.3)
    assert [out[k].rank for k in "abcd"] == [0.5, 0.5, 2.0, 3.0]
    assert [out[k].place for k in "abcd"] == [1, 1, 3, 4]
    assert out["a"].rank_bonus == pytest.approx(0.3 * 2.5 / 3)
    assert out["c"].rank_bonus == pytest.approx(0.3 * 1 / 3)
    assert out["d"].rank_bonus == 0.0 and out["d"].reward == 0.0
    assert out["a"].reward == pytest.approx(1.0 + 0.25)

    # lower is better; two invalid submissions share the bottom and earn no bonus
    out = rank_agents(
        {"x": grade(3.0), "y": grade(2.0), "z": None, "w": {"valid": True, "score": None}},
        {"x": 0.1, "y": 0.5},
        lower_is_better=True,
        bonus=1.0,
    )
    assert (out["y"].rank, out["x"].rank, out["z"].rank, out["w"].rank) == (0, 1, 2.5, 2.5)
    assert out["y"].rank_bonus == 1.0 and out["x"].rank_bonus == pytest.approx(2 / 3)
    assert out["z"].rank_bonus == out["w"].rank_bonus == 0.0
    # all valid: bonuses add up to bonus * n / 2
    out = rank_agents(
        {"p": grade(1.0), "q": grade(2.0), "r": grade(2.0)}, {}, lower_is_better=False, bonus=1.0
    )
    assert sum(s.rank_bonus for s in out.values()) == pytest.approx(1.5)
    # a single agent earns no bonus
    assert rank_agents({"s": grade(1.0)}, {"s": 1.0}, lower_is_better=False, bonus=1.0)[
        "s"
    ].reward == pytest.approx(1.0)


# -- compete ----------------------------------------------------------------------------------


def test_compete_steps_agents_concurrently(tmp_path: Path) -> None:
    env = _env(tmp_path, "compete")
    env.reset(seed=0)
    started: list[float] = []
    lock = threading.Lock()
    for agent, inner in env.envs.items():
        real_step = inner.step

        def slow_step(action: Any, real_step: Any = real_step) -> Any:
            with lock:
                started.append(time.monotonic())
            time.sleep(0.5)
            return real_step(action)

        inner.step = slow_step  # type: ignore[method-assign]
        assert env.envs[agent].workspace is not None
    assert env.envs["agent_0"].workspace != env.envs["agent_1"].workspace
    ls = {"tool": "list_files", "args": {}}
    t0 = time.monotonic()
    env.step({"agent_0": ls, "agent_1": ls})
    assert time.monotonic() - t0 < 0.95, "the two agents' steps did not overlap"
    assert len(started) == 2 and abs(started[0] - started[1]) < 0.3
    env.close()
    assert _no_workspaces_left(tmp_path)


def test_compete_two_scripted_agents(tmp_path: Path) -> None:
    bonus = 0.4
    env = _env(tmp_path, "compete", bonus=bonus)
    agents = {name: make_agent("scripted") for name in env.possible_agents}
    observations, infos = env.reset(seed=0)
    assert "You are agent_1" in observations["agent_1"]
    for name, agent in agents.items():
        agent.reset({**infos[name], "task": env.task, "observation": observations[name]})
    rewards: dict[str, float] = {}
    finals: dict[str, dict[str, Any]] = {}
    while env.agents:
        actions = {
            name: agents[name].act(observations[name], infos[name])
            for name in env.agents
            if not infos[name]["waiting"]
        }
        observations, rewards, terminations, truncations, infos = env.step(actions)
        if env.agents:
            assert set(rewards.values()) == {0.0}
        else:
            assert all(terminations.values()) and not any(truncations.values())
            finals = infos

    grades = {name: finals[name]["grade"] for name in env.possible_agents}
    assert all(g["valid"] for g in grades.values()), grades
    scores = {name: g["score"] for name, g in grades.items()}
    for name in env.possible_agents:
        info = finals[name]
        other = next(n for n in env.possible_agents if n != name)
        expected_rank = (scores[other] > scores[name]) + 0.5 * (scores[other] == scores[name])
        assert info["rank"] == expected_rank
        assert info["grade_reward"] == pytest.approx(1.0)  # the reference solution's own score
        assert info["rank_bonus"] == pytest.approx(_expected_bonus(2, expected_rank, bonus))
        assert rewards[name] == pytest.approx(info["grade_reward"] + info["rank_bonus"])
        assert "Final standings" in observations[name]
        assert len(info["standings"]) == 2
    state = env.state()
    assert '"status": "done"' in state
    workspaces = [env.envs[a].workspace for a in env.possible_agents]
    assert all(w is not None and w.is_dir() for w in workspaces)
    env.close()
    assert all(env.envs[a].sandbox is None for a in env.possible_agents)
    assert not any(w.exists() for w in workspaces if w is not None)
    assert _no_workspaces_left(tmp_path)
    with pytest.raises(ResetNeeded):
        env.step({})


def test_compete_sample_submission_ranks_below_scripted(tmp_path: Path) -> None:
    bonus = 0.25
    env = _env(tmp_path, "compete", bonus=bonus, render_mode="ansi")
    agents: dict[str, Agent] = {"agent_0": SampleAgent(), "agent_1": make_agent("scripted")}
    observations, infos = env.reset(seed=1)
    for name, agent in agents.items():
        agent.reset({**infos[name], "task": env.task, "observation": observations[name]})
    waited = 0
    while env.agents:
        # the sample agent keeps sending actions while it waits: they must be ignored
        actions = {
            name: agents[name].act(observations[name], infos[name])
            for name in env.agents
            if not infos[name]["waiting"]
        }
        if infos["agent_0"]["waiting"]:
            actions["agent_0"] = {"tool": "execute", "args": {"command": "rm submission.csv"}}
        observations, rewards, terminations, truncations, infos = env.step(actions)
        if env.agents and infos["agent_0"]["waiting"]:
            assert rewards == {"agent_0": 0.0, "agent_1": 0.0}
            assert not terminations["agent_0"] and not truncations["agent_0"]
            if "this action was ignored" in observations["agent_0"]:
                waited += 1
                assert infos["agent_0"]["action_ignored"] is True
    assert waited >= 3
    sample, scripted = infos["agent_0"], infos["agent_1"]
    assert sample["grade"]["valid"] and scripted["grade"]["valid"]
    assert sample["grade"]["score"] < scripted["grade"]["score"]
    assert (sample["rank"], scripted["rank"]) == (1, 0)
    assert (sample["place"], scripted["place"]) == (2, 1)
    assert rewards["agent_1"] == pytest.approx(scripted["grade_reward"] + bonus)
    assert rewards["agent_0"] == pytest.approx(sample["grade_reward"])
    assert rewards["agent_0"] < rewards["agent_1"]
    transcript = env.render()
    assert transcript is not None and "##### agent_1 #####" in transcript
    env.close()
    assert _no_workspaces_left(tmp_path)


def test_compete_invalid_submission_ranks_last(tmp_path: Path) -> None:
    env = _env(tmp_path, "compete", n_agents=3, bonus=1.0)
    agents = {"agent_0": EmptyAgent(), "agent_1": SampleAgent(), "agent_2": EmptyAgent()}
    results = run_game(env, agents, seed=0)
    ranks = {name: r["info"]["rank"] for name, r in results.items()}
    assert ranks == {"agent_1": 0, "agent_0": 1.5, "agent_2": 1.5}
    assert results["agent_1"]["reward"] == pytest.approx(
        results["agent_1"]["info"]["grade_reward"] + 1
    )
    assert results["agent_0"]["reward"] == 0.0 and results["agent_2"]["reward"] == 0.0
    assert results["agent_0"]["info"]["grade"]["valid"] is False
    env.close()
    assert _no_workspaces_left(tmp_path)


# -- cooperate --------------------------------------------------------------------------------


def test_cooperate_shared_workspace_and_team_reward(tmp_path: Path) -> None:
    env = _env(tmp_path, "cooperate", render_mode="ansi")
    assert isinstance(env, CooperateParallelEnv)
    observations, infos = env.reset(seed=0)
    budget = infos["agent_0"]["steps_left"]
    assert "You are agent_0" in observations["agent_0"]
    assert "You are agent_1" in observations["agent_1"]
    workspace = env.env.workspace
    assert workspace is not None
    solution = env.task.solution_file.read_text()

    # step 1: agent_0 writes a note, agent_1 writes the solution script
    observations, rewards, terms, truncs, infos = env.step(
        {
            "agent_0": {
                "tool": "write_file",
                "args": {"path": "note.txt", "content": "hello from agent_0"},
            },
            "agent_1": {"tool": "write_file", "args": {"path": "solution.py", "content": solution}},
        }
    )
    assert observations["agent_0"] == observations["agent_1"]
    assert "=== agent_0: write_file" in observations["agent_0"]
    assert "=== agent_1: write_file" in observations["agent_0"]
    assert infos["agent_1"]["steps_left"] == budget - 2  # every call counts for the team
    assert env.agents == ["agent_0", "agent_1"] and set(rewards.values()) == {0.0}

    # step 2: each reads what the other wrote
    observations, rewards, terms, truncs, infos = env.step(
        {
            "agent_0": {"tool": "execute", "args": {"command": "python solution.py"}},
            "agent_1": {"tool": "read_file", "args": {"path": "note.txt"}},
        }
    )
    assert infos["agent_0"]["ok"] and infos["agent_1"]["ok"], observations["agent_0"]
    assert "hello from agent_0" in observations["agent_1"]
    assert (workspace / "submission.csv").is_file()

    # step 3: agent_0 submits; agent_1's call comes after the end and is not applied
    observations, rewards, terms, truncs, infos = env.step(
        {
            "agent_0": {"tool": "submit", "args": {}},
            "agent_1": {"tool": "write_file", "args": {"path": "late.txt", "content": "x"}},
        }
    )
    assert env.agents == []
    assert terms == {"agent_0": True, "agent_1": True} and not any(truncs.values())
    assert rewards["agent_0"] == rewards["agent_1"] == pytest.approx(1.0)
    assert infos["agent_0"]["grade"] == infos["agent_1"]["grade"]
    assert infos["agent_0"]["grade"]["valid"]
    assert infos["agent_1"]["submitted_by"] == "agent_0"
    assert infos["agent_1"]["applied"] is False and infos["agent_0"]["applied"] is True
    assert "=== agent_1: not applied" in observations["agent_1"]
    assert not (workspace / "late.txt").exists()
    transcript = env.render()
    assert transcript is not None and "hello from agent_0" in transcript
    env.close()
    assert env.env.sandbox is None and not workspace.exists()
    assert _no_workspaces_left(tmp_path)


def test_cooperate_team_budget(tmp_path: Path) -> None:
    env = _env(tmp_path, "cooperate", n_agents=2, max_episode_steps=3)
    env.reset(seed=0)
    ls = {"tool": "list_files", "args": {}}
    _, rewards, terms, truncs, _ = env.step({"agent_0": ls, "agent_1": ls})
    assert not any(terms.values()) and not any(truncs.values())
    observations, rewards, terms, truncs, infos = env.step({"agent_0": ls, "agent_1": ls})
    assert truncs == {"agent_0": True, "agent_1": True} and not any(terms.values())
    assert infos["agent_0"]["ended_by"] == "agent_0" and infos["agent_0"]["submitted_by"] is None
    assert "step budget of 3 steps" in infos["agent_1"]["truncation_reason"]
    assert "=== agent_1: not applied" in observations["agent_0"]
    assert rewards == {"agent_0": 0.0, "agent_1": 0.0}  # no submission file: invalid
    env.close()
    assert _no_workspaces_left(tmp_path)


# -- demo script ------------------------------------------------------------------------------


def test_multiagent_demo_main(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location(
        "multiagent_demo", REPO / "scripts" / "multiagent_demo.py"
    )
    assert spec is not None and spec.loader is not None
    demo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(demo)
    rows = demo.main(["--seed", "0", "--bonus", "0.5"])
    out = capsys.readouterr().out
    assert [r["agent"] for r in rows] == ["agent_0", "agent_1"]
    for row in rows:
        assert row["valid"] and row["score"] is not None
        assert f"{row['agent']}: score {row['score']}" in out
        assert row["reward"] == pytest.approx(row["grade_reward"] + row["rank_bonus"])
        assert row["rank_bonus"] == pytest.approx(_expected_bonus(2, row["rank"], 0.5))
