"""The ``llm`` agent against a real OpenAI-compatible HTTP endpoint on 127.0.0.1, and
``make_agent``'s third-party loading.

The endpoint (a ThreadingHTTPServer in a thread) replays a scripted policy for
spaceship-titanic on its offline replica and can be told to fail the next
requests in given ways (429 with Retry-After, 5xx, 4xx, malformed bodies, no
answer in time; an error fault with the suffix ``+ms`` also sends
``retry-after-ms: 1``, so its retry is fast). It records every request body, so
the tests check what the agent actually sent: the conversation, the tool
schemas, the trimming. Retries are the openai SDK's (backoff from 0.5 s, or the
server's wait), counted by the agent's http client; the tests check the counts
and the backoff the agent recorded, never wall time.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest

import mle_gym  # noqa: F401 - registers the envs
from mle_gym.agents import Agent, make_agent
from mle_gym.agents.base import AgentConfigError, AgentError, AgentUsage
from mle_gym.agents.llm import SDK_MAX_RETRY_AFTER_S, LLMAgent
from mle_gym.agents.llm_http import retry_after
from mle_gym.episode_runner import EpisodeResult, run_episode

ENV_ID = "MLEBench/spaceship-titanic-v0"
Call = tuple[str, dict[str, Any]]

# list the data, copy the sample submission, validate (sent together with a submit, of
# which the agent must keep only the first), submit
DEFAULT_SCRIPT: list[list[Call]] = [
    [("list_files", {"path": "data"})],
    [("execute", {"command": "cp data/sample_submission.csv submission.csv"})],
    [("validate_submission", {}), ("submit", {})],
    [("submit", {})],
]
CUT_MARKER = "characters of this output removed to fit the context budget"
DROP_NOTE = "earlier turn(s) of this conversation were removed"


@dataclass
class ServerState:
    """What the fake endpoint will do and what it saw."""

    script: list[list[Call]] = field(default_factory=lambda: list(DEFAULT_SCRIPT))
    faults: list[str | None] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)
    usage: list[dict[str, int]] = field(default_factory=list)
    turn: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def _prompt_chars(body: dict[str, Any]) -> int:
    return len(json.dumps(body["messages"], ensure_ascii=False)) + len(
        json.dumps(body.get("tools") or [], ensure_ascii=False)
    )


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, *args: Any) -> None:
        pass

    def _send(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self) -> None:
        state = self.server.state
        if self.path != "/v1/chat/completions":
            self._send(404, {"error": {"message": f"no route {self.path}"}})
            return
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        with state.lock:
            state.requests.append(body)
            fault = state.faults.pop(0) if state.faults else None
        fault, ms, _ = (fault or "").partition("+ms")
        hint = {"retry-after-ms": "1"} if ms else {}
        error = {"error": {"message": f"injected {fault}", "type": "test", "code": fault}}
        if fault == "429":
            self._send(429, error, hint or {"Retry-After": "1"})
        elif fault == "429_long":
            self._send(429, error, {"Retry-After": "30"})
        elif fault == "insufficient_quota":
            self._send(429, error, hint)
        elif fault in ("400", "500", "503"):
            self._send(int(fault), error, hint)
        elif fault == "garbage":
            self._send(200, b'{"id": "chatcmpl-x", "choices": [{"message": ')
        elif fault == "no_choices":
            self._send(200, {"id": "chatcmpl-x", "object": "chat.completion", "choices": []})
        elif fault == "no_message":
            self._send(200, {"id": "chatcmpl-x", "choices": [{"index": 0}]})
        elif fault == "hang":
            time.sleep(1.5)  # the client's timeout is shorter; no answer is written
        else:
            self._answer(state, body)

    def _answer(self, state: ServerState, body: dict[str, Any]) -> None:
        with state.lock:
            turn = state.turn
            state.turn += 1
        calls = state.script[turn] if turn < len(state.script) else [("submit", {})]
        message = {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": f"call_{turn}_{j}",
                    "type": "function",
                    "function": {"name": name, "arguments": json.dumps(args)},
                }
                for j, (name, args) in enumerate(calls)
            ],
        }
        prompt = math.ceil(_prompt_chars(body) / 4)
        completion = len(json.dumps(message)) // 4
        usage = {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        }
        with state.lock:
            state.usage.append(usage)
        self._send(
            200,
            {
                "id": f"chatcmpl-{turn}",
                "object": "chat.completion",
                "created": 0,
                "model": body["model"],
                "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}],
                "usage": usage,
            },
        )


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.state = ServerState()

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that timed out and hung up is expected here


@pytest.fixture(scope="module", autouse=True)
def gym_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """$MLE_GYM_HOME for this module (the replica is generated once)."""
    home = tmp_path_factory.mktemp("llm_home")
    old = os.environ.get("MLE_GYM_HOME")
    os.environ["MLE_GYM_HOME"] = str(home)
    yield home
    if old is None:
        os.environ.pop("MLE_GYM_HOME", None)
    else:
        os.environ["MLE_GYM_HOME"] = old


@pytest.fixture
def server() -> Iterator[tuple[str, ServerState]]:
    srv = _Server()
    thread = threading.Thread(target=srv.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_address[1]}/v1", srv.state
    srv.shutdown()
    srv.server_close()


@pytest.fixture
def env() -> Iterator[gym.Env]:
    environment = gym.make(ENV_ID, data="replica")
    yield environment
    environment.close()


def _agent(url: str, **kwargs: Any) -> LLMAgent:
    options: dict[str, Any] = {
        "model": "fake-model",
        "base_url": url,
        "api_key": "test-key",
        "max_retries": 3,
        "timeout": 5.0,
        **kwargs,
    }
    agent = make_agent("llm", seed=options.pop("seed", None), **options)
    assert isinstance(agent, LLMAgent)
    return agent


def _check_pairs(messages: list[dict[str, Any]]) -> None:
    """Every tool call is answered by a tool message right after it, and every tool
    message answers a call of the assistant message just before it."""
    for i, message in enumerate(messages):
        if message["role"] == "assistant" and message.get("tool_calls"):
            ids = [c["id"] for c in message["tool_calls"]]
            answers = messages[i + 1 : i + 1 + len(ids)]
            assert [m["role"] for m in answers] == ["tool"] * len(ids), messages[i : i + 3]
            assert [m["tool_call_id"] for m in answers] == ids
        if message["role"] == "tool":
            j = i - 1
            while messages[j]["role"] == "tool":
                j -= 1
            caller = messages[j]
            assert caller["role"] == "assistant" and caller.get("tool_calls"), message
            assert message["tool_call_id"] in [c["id"] for c in caller["tool_calls"]]


def _check_valid_episode(result: EpisodeResult) -> None:
    assert result.terminated and not result.truncated
    assert result.grade is not None and result.grade["valid"], result.grade


# -- a whole episode through run_episode ------------------------------------------------------


@pytest.mark.slow
def test_llm_agent_completes_an_episode_and_records_usage(
    server: tuple[str, ServerState], env: gym.Env
) -> None:
    url, state = server
    agent = _agent(url, temperature=0.2, top_p=0.9, max_tokens=256, seed=11)
    result = run_episode(env, agent, seed=0)
    _check_valid_episode(result)
    assert result.steps == 4 and result.errors == []

    usage = agent.usage
    assert (usage.requests, usage.retries, usage.errors) == (4, 0, 0)
    assert usage.prompt_tokens == sum(u["prompt_tokens"] for u in state.usage)
    assert usage.completion_tokens == sum(u["completion_tokens"] for u in state.usage)
    assert usage.total_tokens == usage.prompt_tokens + usage.completion_tokens > 0
    assert usage.model_seconds > 0 and usage.backoff_seconds == 0
    assert agent.chars_per_token == pytest.approx(4.0, rel=0.01)  # calibrated on usage
    assert json.loads(json.dumps(usage.to_dict()))["requests"] == 4

    first, last = state.requests[0], state.requests[-1]
    assert first["model"] == "fake-model"
    assert (first["temperature"], first["top_p"], first["max_tokens"], first["seed"]) == (
        0.2,
        0.9,
        256,
        11,
    )
    assert first["tools"] == env.unwrapped.tools
    assert [m["role"] for m in first["messages"]] == ["system", "user"]
    assert first["messages"][0]["content"] == env.unwrapped.system_prompt
    roles = [m["role"] for m in last["messages"]]
    assert roles == ["system", "user"] + ["assistant", "tool"] * 3
    for body in state.requests:
        _check_pairs(body["messages"])
    listing = last["messages"][3]
    assert listing["tool_call_id"] == "call_0_0" and "sample_submission.csv" in listing["content"]
    # the double call of turn 3: only validate_submission was run, and the message says so
    double = last["messages"][6]
    assert [c["function"]["name"] for c in double["tool_calls"]] == ["validate_submission"]
    assert "2 tool calls" in double["content"] and "only the first" in double["content"]
    assert last["messages"][7]["tool_call_id"] == "call_2_0"
    assert usage.extra["extra_tool_calls_dropped"] == 1

    # a new episode starts a fresh usage record; the old one is left as it was
    kept = agent.usage
    state.turn = 0
    result = run_episode(env, agent, seed=1)
    _check_valid_episode(result)
    assert agent.usage is not kept and agent.usage.requests == 4 and kept.requests == 4
    assert [m["role"] for m in state.requests[4]["messages"]] == ["system", "user"]


# -- retries -------------------------------------------------------------------------------


@pytest.mark.slow
def test_rate_limit_waits_for_retry_after_then_succeeds(
    server: tuple[str, ServerState], env: gym.Env
) -> None:
    url, state = server
    state.faults = [None, "429"]  # the second request is rate limited
    agent = _agent(url)
    result = run_episode(env, agent, seed=0)
    _check_valid_episode(result)
    usage = agent.usage
    assert (usage.requests, usage.retries, usage.errors) == (5, 1, 1)
    assert usage.backoff_seconds >= 1.0  # Retry-After: 1 was honoured
    assert state.requests[1]["messages"] == state.requests[2]["messages"]  # same request again


def test_rate_limit_with_retry_after_ms_is_retried_once(server: tuple[str, ServerState]) -> None:
    url, state = server
    state.faults = ["429+ms"]  # retry-after-ms: 1
    agent = _agent(url)
    _one_request(agent)
    usage = agent.usage
    assert (usage.requests, usage.retries, usage.errors) == (2, 1, 1)
    assert usage.backoff_seconds >= 0.001 and usage.prompt_tokens > 0
    assert len(state.requests) == 2 and state.requests[0] == state.requests[1]
    assert agent.last_response is not None and agent.last_response["id"] == "chatcmpl-0"


@pytest.mark.slow
@pytest.mark.parametrize("fault", ["500", "503", "garbage", "no_choices", "no_message", "hang"])
def test_server_errors_and_malformed_responses_are_retried(
    server: tuple[str, ServerState], env: gym.Env, fault: str
) -> None:
    url, state = server
    state.faults = [fault]
    agent = _agent(url, timeout=0.5)
    result = run_episode(env, agent, seed=0)
    _check_valid_episode(result)
    usage = agent.usage
    assert (usage.requests, usage.retries, usage.errors) == (5, 1, 1)
    # the SDK's exponential backoff (0.5 s minus up to 25 % jitter for a first retry)
    assert usage.backoff_seconds >= 0.375
    assert state.requests[0]["messages"] == state.requests[1]["messages"]
    if fault == "hang":
        assert usage.model_seconds >= 0.5


def test_permanently_failing_server_raises_after_max_retries(
    server: tuple[str, ServerState],
) -> None:
    url, state = server
    state.faults = ["503+ms"] * 10
    agent = _agent(url, max_retries=2)
    with pytest.raises(
        AgentError, match=r"failed 3 time\(s\), giving up \(max_retries=2\).*HTTP 503"
    ):
        _one_request(agent)
    assert len(state.requests) == 3
    assert (agent.usage.requests, agent.usage.retries, agent.usage.errors) == (3, 2, 3)
    assert agent.usage.backoff_seconds >= 0.002  # two waits of retry-after-ms: 1


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        ("400", "failed, not retryable: HTTP 400"),
        ("insufficient_quota+ms", "failed, not retryable: HTTP 429"),
        ("503", r"failed 1 time\(s\), giving up \(max_retries=0\); last error: HTTP 503"),
    ],
)
def test_without_retries_the_error_says_whether_the_failure_was_retryable(
    server: tuple[str, ServerState], fault: str, message: str
) -> None:
    url, state = server
    state.faults = [fault]
    agent = _agent(url, max_retries=0)
    with pytest.raises(AgentError, match=message):
        _one_request(agent)
    assert len(state.requests) == 1
    assert (agent.usage.requests, agent.usage.retries, agent.usage.errors) == (1, 0, 1)


def test_other_client_errors_are_not_retried(server: tuple[str, ServerState], env: gym.Env) -> None:
    url, state = server
    state.faults = ["400"]
    agent = _agent(url)
    with pytest.raises(AgentError, match="not retryable: HTTP 400"):
        run_episode(env, agent, seed=0)
    assert len(state.requests) == 1 and agent.usage.retries == 0


@pytest.mark.slow
def test_unreachable_server_is_a_retried_connection_error() -> None:
    import socket

    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    agent = _agent(f"http://127.0.0.1:{port}/v1", max_retries=1)
    with pytest.raises(AgentError, match=r"failed 2 time\(s\).*connection error"):
        _one_request(agent)
    assert (agent.usage.requests, agent.usage.retries, agent.usage.errors) == (2, 1, 2)


def _one_request(agent: LLMAgent) -> None:
    agent.reset({"messages": [{"role": "user", "content": "hi"}], "tools": []})
    agent.act("hi", {})


@pytest.mark.parametrize("fault", ["429_long", "insufficient_quota"])
def test_rate_limits_that_retrying_cannot_fix_fail_at_once(
    server: tuple[str, ServerState], fault: str
) -> None:
    url, state = server
    state.faults = [fault]
    agent = _agent(url, retry_after_max_s=5)
    message = "asks to wait 30 s, more than retry_after_max_s=5" if fault == "429_long" else ""
    with pytest.raises(AgentError, match=message or "not retryable: HTTP 429.*insufficient_quota"):
        _one_request(agent)
    assert len(state.requests) == 1
    assert (agent.usage.requests, agent.usage.retries, agent.usage.errors) == (1, 0, 1)


@pytest.mark.slow
def test_a_given_openai_client_gets_the_agents_retries_and_accounting(
    server: tuple[str, ServerState],
) -> None:
    from openai import OpenAI

    url, state = server
    state.faults = ["503", "503"]
    client = OpenAI(base_url=url, api_key="test-key", max_retries=0)
    agent = _agent(url, client=client, max_retries=2)
    _one_request(agent)
    assert len(state.requests) == 3
    assert (agent.usage.requests, agent.usage.retries, agent.usage.errors) == (3, 2, 2)
    assert agent.usage.prompt_tokens > 0 and agent.usage.backoff_seconds > 0


def test_backoff_settings_are_deprecated_and_ignored(server: tuple[str, ServerState]) -> None:
    url, _ = server
    with pytest.warns(DeprecationWarning, match="backoff_base_s and backoff_max_s are ignored"):
        _agent(url, backoff_base_s=0.01)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _agent(url)  # no warning without them


def test_retry_after_max_s_is_capped_at_the_sdks_limit(server: tuple[str, ServerState]) -> None:
    from openai._constants import MAX_RETRY_AFTER_DELAY

    assert SDK_MAX_RETRY_AFTER_S == MAX_RETRY_AFTER_DELAY  # the SDK still waits at most this
    url, _ = server
    with pytest.warns(UserWarning, match="retry_after_max_s=300 is capped at 120 s"):
        agent = _agent(url, retry_after_max_s=300)
    assert agent.retry_after_max_s == SDK_MAX_RETRY_AFTER_S
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _agent(url, retry_after_max_s=120).retry_after_max_s == 120
        assert _agent(url).retry_after_max_s == 120


def test_retry_after_header_forms() -> None:
    assert retry_after({"retry-after": "2"}) == 2.0
    assert retry_after({"retry-after-ms": "150", "retry-after": "9"}) == 0.15
    soon = time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(time.time() + 30))
    assert 25 < (retry_after({"retry-after": soon}) or 0) <= 30
    assert retry_after({"retry-after": "whenever"}) is None
    assert retry_after({}) is None


# -- context management --------------------------------------------------------------------


def _print_chars(n: int) -> dict[str, Any]:
    return {"command": f"python -c \"print('x' * {n})\""}


@pytest.mark.slow
def test_context_budget_shortens_old_tool_outputs_first(
    server: tuple[str, ServerState], env: gym.Env
) -> None:
    url, state = server
    state.script = [[("execute", _print_chars(30_000))] for _ in range(4)] + [
        [("execute", {"command": "cp data/sample_submission.csv submission.csv"})],
        [("submit", {})],
    ]
    budget = 9000
    agent = _agent(url, context_tokens=budget, keep_output_chars=1000)
    result = run_episode(env, agent, seed=0)
    _check_valid_episode(result)
    assert result.steps == 6
    assert any(CUT_MARKER in json.dumps(b["messages"]) for b in state.requests)
    for body in state.requests:
        assert math.ceil(_prompt_chars(body) / 4) <= budget
        _check_pairs(body["messages"])
        assert DROP_NOTE not in body["messages"][1]["content"]  # no turn had to go
        latest = body["messages"][-1]
        if latest["role"] == "tool":
            assert CUT_MARKER not in latest["content"]  # the newest result is whole
    last = state.requests[-1]["messages"]
    assert [m["role"] for m in last] == ["system", "user"] + ["assistant", "tool"] * 5
    assert agent.usage.extra["outputs_shortened"] >= 3
    assert agent.usage.extra["turns_dropped"] == 0


@pytest.mark.slow
def test_context_budget_drops_oldest_turns_keeping_system_task_and_pairs(
    server: tuple[str, ServerState], env: gym.Env
) -> None:
    url, state = server
    state.script = [
        [
            (
                "read_file",
                {"path": "data/train.csv", "start_line": 1 + 40 * k, "end_line": 40 * k + 40},
            )
        ]
        for k in range(10)
    ] + [
        [("execute", {"command": "cp data/sample_submission.csv submission.csv"})],
        [("submit", {})],
    ]
    budget = 5000
    agent = _agent(url, context_tokens=budget, keep_output_chars=400)
    result = run_episode(env, agent, seed=0)
    _check_valid_episode(result)
    assert result.steps == 12

    system, task = state.requests[0]["messages"]
    for turn, body in enumerate(state.requests):
        messages = body["messages"]
        assert math.ceil(_prompt_chars(body) / 4) <= budget
        assert messages[0] == system
        assert messages[1]["role"] == "user"
        assert messages[1]["content"].startswith(task["content"])
        _check_pairs(messages)
        if turn:  # the latest turn is always there, whole
            assert messages[-2]["tool_calls"][0]["id"] == f"call_{turn - 1}_0"
            assert CUT_MARKER not in messages[-1]["content"]
    last = state.requests[-1]["messages"]
    assert DROP_NOTE in last[1]["content"]
    assert last[2]["role"] == "assistant"  # dropped whole turns: no orphan results
    assert any(CUT_MARKER in m["content"] for m in last if m["role"] == "tool")
    assert agent.usage.extra["outputs_shortened"] > agent.usage.extra["turns_dropped"]
    dropped = agent.usage.extra["turns_dropped"]
    assert dropped > 0 and f"{int(dropped)} earlier turn(s)" in last[1]["content"]
    assert len(last) == 2 + 2 * (11 - dropped)


def test_context_that_cannot_fit_is_a_clear_error(server: tuple[str, ServerState]) -> None:
    url, state = server
    agent = _agent(url, context_tokens=500)
    agent.reset({"messages": [{"role": "system", "content": "s" * 4000}, {"role": "user"}]})
    with pytest.raises(AgentError, match="cannot fit the context budget of 500 tokens"):
        agent.act("", {})
    assert state.requests == []


# -- configuration ------------------------------------------------------------------------


def test_llm_configuration_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("MLE_GYM_LLM_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(AgentConfigError, match="MLE_GYM_LLM_MODEL"):
        make_agent("llm")
    with pytest.raises(AgentConfigError, match="OPENAI_API_KEY"):
        make_agent("llm", model="m")  # the OpenAI API itself needs a key
    monkeypatch.setenv("MLE_GYM_LLM_MODEL", "env-model")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("MLE_GYM_LLM_TEMPERATURE", "0.3")
    monkeypatch.setenv("MLE_GYM_LLM_MAX_RETRIES", "2")
    monkeypatch.setenv("MLE_GYM_LLM_CONTEXT_TOKENS", "12345")
    agent = make_agent("llm", seed=3)
    assert isinstance(agent, LLMAgent)
    assert (agent.model, agent.base_url, agent.api_key) == (
        "env-model",
        "http://127.0.0.1:9/v1",
        "EMPTY",
    )
    assert (agent.temperature, agent.max_retries, agent.context_tokens, agent.seed) == (
        0.3,
        2,
        12345,
        3,
    )
    assert make_agent("llm", model="arg-model", max_retries=0).model == "arg-model"
    monkeypatch.setenv("MLE_GYM_LLM_MAX_RETRIES", "many")
    with pytest.raises(AgentConfigError, match="MLE_GYM_LLM_MAX_RETRIES='many'"):
        make_agent("llm")
    with pytest.raises(AgentConfigError, match="trim_to"):
        make_agent("llm", max_retries=1, trim_to=0)


@pytest.mark.slow
def test_importing_mle_gym_does_not_import_openai() -> None:
    code = (
        "import sys, mle_gym, mle_gym.agents, mle_gym.episode_runner\n"
        "from mle_gym.agents import make_agent\n"
        "make_agent('scripted'); make_agent('random', seed=1)\n"
        "assert 'openai' not in sys.modules, 'openai imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


# -- third-party agents -------------------------------------------------------------------

THIRD_PARTY = """
from mle_gym.agents import Agent


class EchoAgent(Agent):
    name = "echo"

    def __init__(self, greeting="hi", seed=None):
        self.greeting, self.seed = greeting, seed

    def reset(self, task_info):
        self.usage.requests += 100  # counted in the new episode's record

    def act(self, observation, info):
        return {"tool": "submit", "args": {}}


class Outer:
    class Inner(EchoAgent):
        pass


class NoSeed(EchoAgent):
    def __init__(self):
        super().__init__("plain")


class NotAnAgent:
    def reset(self, task_info):
        pass


class Half(Agent):
    def reset(self, task_info):
        pass


value = 3
"""


@pytest.fixture
def agents_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    name = f"third_party_agents_{os.getpid()}"
    (tmp_path / f"{name}.py").write_text(THIRD_PARTY)
    (tmp_path / "broken_agents_mod.py").write_text("import not_installed_package_zz\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    return name


def test_third_party_agent_by_import_path(agents_module: str, env: gym.Env) -> None:
    agent = make_agent(f"{agents_module}:EchoAgent", seed=7, greeting="yo")
    assert isinstance(agent, Agent) and (agent.greeting, agent.seed) == ("yo", 7)  # type: ignore[attr-defined]
    assert make_agent(f"{agents_module}:Outer.Inner").name == "echo"
    assert make_agent(f"{agents_module}:NoSeed", seed=5).greeting == "plain"  # type: ignore[attr-defined]

    old = agent.usage
    old.errors = 9
    result = run_episode(env, agent, seed=0)
    assert result.terminated and result.steps == 1
    assert agent.usage is not old and agent.usage.requests == 100 and agent.usage.errors == 0
    assert old.errors == 9
    assert isinstance(agent.usage, AgentUsage)


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("no_such_module_zz:Agent", "no module named 'no_such_module_zz'"),
        ("no_such_module_zz.sub:Agent", "no module named 'no_such_module_zz'"),
        ("broken_agents_mod:Agent", "importing 'broken_agents_mod' failed.*not_installed"),
        ("{mod}:Missing", "has no attribute 'Missing'; Agent classes there: EchoAgent"),
        ("{mod}:Outer.Nope", "'{mod}.Outer' has no attribute 'Nope'"),
        ("{mod}:value", "is not a class \\(got int\\)"),
        ("{mod}:NotAnAgent", "is not a subclass of mle_gym.agents.Agent and lacks act"),
        ("{mod}:Half", "does not implement act"),
        ("{mod}:", "bad agent import path"),
        (":EchoAgent", "bad agent import path"),
        ("my mod:Agent", "bad agent import path"),
        ("nope", "unknown agent 'nope'; built-in agents: scripted, random, llm"),
    ],
)
def test_agent_loading_errors(agents_module: str, path: str, message: str) -> None:
    with pytest.raises(AgentConfigError, match=message.replace("{mod}", agents_module)) as info:
        make_agent(path.replace("{mod}", agents_module))
    assert isinstance(info.value, ValueError)


def test_agent_constructor_arguments_are_checked(agents_module: str) -> None:
    with pytest.raises(AgentConfigError, match="does not accept the arguments"):
        make_agent(f"{agents_module}:EchoAgent", colour="red")
    with pytest.raises(AgentConfigError, match=r"'scripted'.*does not accept"):
        make_agent("scripted", temperature=1.0)


def test_act_after_a_failed_request_does_not_repeat_the_turn(
    server: tuple[str, ServerState], env: gym.Env
) -> None:
    url, state = server
    state.faults = [None, "400"]
    agent = _agent(url)
    obs, info = env.reset(seed=0)
    agent.reset({**info, "observation": obs, "tools": env.unwrapped.tools})
    obs, _, _, _, info = env.step(agent.act(obs, info))
    with pytest.raises(AgentError, match="HTTP 400"):
        agent.act(obs, info)
    agent.act(obs, info)  # the caller tries again with the same observation
    roles = [m["role"] for m in state.requests[-1]["messages"]]
    assert roles == ["system", "user", "assistant", "tool"]
    assert state.requests[-1]["messages"] == state.requests[-2]["messages"]
