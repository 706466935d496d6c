"""RL integration: vector envs, the EpisodePool batch API, the chat wrapper with a real
OpenAI-compatible HTTP endpoint on 127.0.0.1, and trajectory datasets."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv

import mle_gym
from mle_gym import EpisodePool, PoolBusy
from mle_gym.agents import make_agent
from mle_gym.episode_runner import run_episode
from mle_gym.export import export_chat_jsonl
from mle_gym.wrappers import ChatWrapper

ENV_ID = "MLEBench/spaceship-titanic-v0"
# Reference-solution scores on replica seeds 0 and 1 under the test replica key (task.yaml /
# measure_replica_reference.py).
SEED_SCORES = {0: 0.80575, 1: 0.8069}
CP_SAMPLE = {"tool": "execute", "args": {"command": "cp data/sample_submission.csv submission.csv"}}
SUBMIT = {"tool": "submit", "args": {}}


def _env_fn(replica_seed: int):
    return lambda: gym.make(
        ENV_ID, data="replica", replica_seed=replica_seed, reward_mode="raw", sandbox="local"
    )


def _info_of(infos: dict[str, Any], i: int) -> dict[str, Any]:
    """Env ``i``'s info from a vector env's dict-of-arrays info."""
    out = {}
    for key, value in infos.items():
        if key.startswith("_") or not infos.get(f"_{key}", np.ones(i + 1, bool))[i]:
            continue
        out[key] = _info_of(value, i) if isinstance(value, dict) else value[i]
    return out


@pytest.mark.slow
@pytest.mark.parametrize("vector_cls", [SyncVectorEnv, AsyncVectorEnv])
def test_vector_envs_run_scripted_episodes_with_per_env_rewards(vector_cls: type) -> None:
    seeds = [0, 1, 1, 0]
    kwargs = {"shared_memory": False} if vector_cls is AsyncVectorEnv else {}
    venv = vector_cls([_env_fn(s) for s in seeds], **kwargs)
    task = mle_gym.tasks.get_task(ENV_ID)
    agents = [make_agent("scripted") for _ in seeds]
    try:
        obs, infos = venv.reset(seed=0)
        for i, agent in enumerate(agents):
            agent.reset({**_info_of(infos, i), "task": task, "observation": obs[i]})
        final: dict[int, float] = {}
        for _ in range(10):
            actions = [agents[i].act(obs[i], _info_of(infos, i)) for i in range(len(seeds))]
            obs, rewards, terminated, truncated, infos = venv.step(actions)
            for i in range(len(seeds)):
                if (terminated[i] or truncated[i]) and i not in final:
                    final[i] = float(rewards[i])
                    assert _info_of(infos, i)["grade"]["valid"]
            if len(final) == len(seeds):
                break
        assert final == {i: SEED_SCORES[s] for i, s in enumerate(seeds)}
    finally:
        venv.close()


def test_pool_steps_subsets_and_episodes_end_at_different_times() -> None:
    with EpisodePool([ENV_ID] * 3, data="replica", reward_mode="raw") as pool:
        first = pool.reset(seeds=[0, 1, 2])
        assert sorted(first) == [0, 1, 2] and all("Spaceship" in o for o, _ in first.values())
        out = pool.step({0: CP_SAMPLE, 2: {"tool": "list_files", "args": {}}})
        assert set(out) == {0, 2} and not out[0].done
        out = pool.step({0: SUBMIT, 1: CP_SAMPLE})
        assert out[0].terminated and out[0].info["grade"]["valid"]
        assert out[0].reward == out[0].info["grade"]["score"]
        assert not out[1].done and pool.running(1) and not pool.running(0)
        with pytest.raises(ValueError, match="no running episode"):
            pool.step({0: SUBMIT})
        with pytest.raises(ValueError, match="no slot"):
            pool.step({7: SUBMIT})
        out = pool.step({1: SUBMIT})
        assert out[1].terminated and pool.live == 1  # only slot 2 still runs


def test_pool_bounds_live_sandboxes() -> None:
    with EpisodePool([ENV_ID] * 3, max_live=2, data="replica") as pool:
        pool.reset([0, 1])
        assert pool.live == 2
        with pytest.raises(PoolBusy):
            pool.reset([2], timeout=0.5)
        started: list[float] = []

        def late_reset() -> None:
            pool.reset([2], timeout=30)
            started.append(time.monotonic())

        thread = threading.Thread(target=late_reset)
        thread.start()
        time.sleep(0.5)
        assert not started  # waiting for a place
        pool.step({0: CP_SAMPLE})
        ended = time.monotonic()
        pool.step({0: SUBMIT})  # slot 0's episode ends and frees its place
        thread.join(timeout=30)
        assert started and started[0] >= ended and pool.live == 2
        assert pool.env(0).unwrapped.workspace is None  # released at once


def test_pool_mixed_tasks_threads_and_asyncio() -> None:
    ids = [ENV_ID, "MLEBench/nomad2018-predict-transparent-conductors-v0", ENV_ID]
    with EpisodePool(ids, data="replica", reward_mode="raw") as pool:

        async def rollout() -> dict[int, Any]:
            await pool.areset(seeds=[0, 0, 1], options=[None, None, {"replica_seed": 1}])
            results = await asyncio.gather(
                pool.astep({0: CP_SAMPLE}), pool.astep({1: CP_SAMPLE}), pool.astep({2: CP_SAMPLE})
            )
            assert all(not r[i].done for i, r in enumerate(results))
            return await pool.astep({0: SUBMIT, 1: SUBMIT, 2: SUBMIT})

        final = asyncio.run(rollout())
        assert all(r.terminated and r.info["grade"]["valid"] for r in final.values())
        assert final[1].info["task_id"] == "nomad2018-predict-transparent-conductors"
        assert final[0].reward != final[2].reward  # different replica seeds, different answers

        # concurrent callers on different slots
        pool.reset(seeds=[0, 0, 1])
        errors: list[BaseException] = []

        def worker(i: int) -> None:
            try:
                for _ in range(3):
                    pool.step({i: {"tool": "list_files", "args": {}}})
            except BaseException as exc:
                errors.append(exc)

        threads = [threading.Thread(target=worker, args=(i,)) for i in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []


# -- chat API with a real OpenAI-compatible endpoint -------------------------------------------


class _FakeLLM(BaseHTTPRequestHandler):
    """POST /v1/chat/completions: a scripted 'model' answering in the OpenAI format."""

    requests: ClassVar[list[dict[str, Any]]] = []

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append(body)
        turn = sum(1 for m in body["messages"] if m["role"] == "assistant")
        if turn == 0:  # native tool call
            message = {"role": "assistant", "content": None, "tool_calls": [{
                "id": "call_a", "type": "function",
                "function": {"name": "list_files", "arguments": json.dumps({"path": "data"})},
            }]}  # fmt: skip
        elif turn == 1:  # Hermes-style text
            call = json.dumps({"name": "execute", "arguments": CP_SAMPLE["args"]})
            message = {"role": "assistant", "content": f"Copy it.\n<tool_call>{call}</tool_call>"}
        else:
            message = {"role": "assistant", "content": None, "tool_calls": [{
                "id": "call_z", "type": "function",
                "function": {"name": "submit", "arguments": "{}"},
            }]}  # fmt: skip
        reply = {
            "id": f"chatcmpl-{turn}", "object": "chat.completion", "created": 0,
            "model": body["model"],
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
        }  # fmt: skip
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture
def fake_llm():
    _FakeLLM.requests = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _FakeLLM)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def test_chat_wrapper_with_openai_client_example(fake_llm: str) -> None:
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "scripts" / "openai_chat_agent.py"
    spec = importlib.util.spec_from_file_location("openai_chat_agent", path)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    result = example.run(fake_llm, "fake-model", ENV_ID, api_key="k", data="replica")
    assert result["grade"]["valid"] and result["steps"] == 3
    first, last = _FakeLLM.requests[0], _FakeLLM.requests[-1]
    assert [t["function"]["name"] for t in first["tools"]][-1] == "submit"
    assert [m["role"] for m in first["messages"]] == ["system", "user"]
    roles = [m["role"] for m in last["messages"]]
    assert roles == ["system", "user", "assistant", "tool", "assistant", "user"]
    hermes = last["messages"][4]
    assert hermes["content"].startswith("Copy it.\n<tool_call>")  # kept verbatim
    assert last["messages"][5]["content"].startswith("<tool_response>\n[exit code 0")
    assert last["messages"][3]["tool_call_id"] == "call_a"
    assert "sample_submission.csv" in last["messages"][3]["content"]


def test_chat_wrapper_observations_are_fresh_message_lists() -> None:
    env = ChatWrapper(gym.make(ENV_ID, data="replica"))
    try:
        messages, _ = env.reset(seed=0)
        assert env.observation_space.contains(messages)
        messages[0]["content"] = "tampered"
        again, *_ = env.step("no tool call here")
        assert again[0]["content"] != "tampered"
        assert [m["role"] for m in again[-2:]] == ["assistant", "user"]
        assert again[-2]["content"] == "no tool call here"
        assert env.tools[0]["type"] == "function"
    finally:
        env.close()


# -- trajectory datasets ---------------------------------------------------------------------


def test_export_chat_jsonl_loads_with_huggingface_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_dir = tmp_path / "run"
    for seed in (0, 1):
        env = gym.make(
            ENV_ID, data="replica", replica_seed=seed, reward_mode="raw",
            trajectory_path=run_dir / f"episode-{seed}.jsonl",
        )  # fmt: skip
        run_episode(env, make_agent("scripted"), seed=seed)
        env.close()
    unfinished = gym.make(ENV_ID, data="replica", trajectory_path=run_dir / "cut.jsonl")
    unfinished.reset(seed=5)
    unfinished.step({"tool": "list_files", "args": {}})
    unfinished.close()

    from mle_gym.cli import main

    assert main(["export", str(run_dir), "--format", "chat-jsonl", "--out",
                 str(tmp_path / "ds.jsonl")]) == 0  # fmt: skip
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    from datasets import load_dataset

    ds = load_dataset("json", data_files=str(tmp_path / "ds.jsonl"), split="train")
    assert len(ds) == 2  # the unfinished episode is left out
    expected = {
        "messages", "tools", "reward", "grade", "terminated", "truncated", "task_id", "env_id",
        "episode_id", "seed", "replica_seed", "data_source", "reward_mode", "num_steps", "timings",
    }  # fmt: skip
    assert expected <= set(ds.column_names)
    for row, seed in zip(sorted(ds, key=lambda r: r["seed"]), (0, 1), strict=True):
        assert row["task_id"] == "spaceship-titanic" and row["env_id"] == ENV_ID
        assert row["seed"] == seed and row["replica_seed"] == seed
        assert row["data_source"] == "replica" and row["reward_mode"] == "raw"
        assert row["terminated"] and not row["truncated"] and row["num_steps"] == 7
        assert row["reward"] == pytest.approx(SEED_SCORES[seed])
        assert row["grade"]["valid"] and row["grade"]["score"] == pytest.approx(SEED_SCORES[seed])
        roles = [m["role"] for m in row["messages"]]
        assert roles[:2] == ["system", "user"] and roles[2:] == ["assistant", "tool"] * 7
        assert row["messages"][-2]["tool_calls"][0]["function"]["name"] == "submit"
        assert row["tools"][0]["function"]["name"] == "list_files"
        assert len(row["timings"]["step_s"]) == 7 and row["timings"]["episode_s"] > 0
    assert export_chat_jsonl(run_dir, tmp_path / "all.jsonl", include_incomplete=True) == 3
