"""The ``llm`` agent: any OpenAI-compatible Chat Completions model with native tool calling.

    agent = make_agent("llm", model="qwen2.5-7b-instruct", base_url="http://localhost:8000/v1")
    result = run_episode(env, agent, seed=0)
    print(agent.usage.to_dict())

Contract:

* **Conversation.** ``reset`` starts from ``task_info["messages"]`` (the env's
  [system, user] pair) and the tool schemas (the ``tools`` constructor argument,
  else ``task_info["tools"]``, else the env's built-in tool schemas). Each
  ``act`` after the first appends the previous turn: the assistant message this
  agent returned, then the env's result from ``info["messages"]`` (or the
  observation if ``info`` has no messages), sends the conversation with
  ``tools=`` and returns the model's reply as a plain assistant message dict
  (``role``, ``content``, and ``tool_calls`` if the model made any), which the
  env accepts as an action. Results are kept consistent with calls: a result
  that answers a tool call is a ``tool`` message with that call's id; a result
  of a reply without a native tool call (plain text, ``<tool_call>`` text) is a
  ``user`` message, so a strict server never sees an orphan ``tool`` message.
* **One call per step.** If the model asks for several tool calls at once, the
  first is kept and a note saying so is appended to the message content (the
  model reads it on the next turn).
* **Retries** are the openai SDK's (see :mod:`mle_gym.agents.llm_http`): HTTP
  408, 409, 429, 5xx, timeouts and connection errors are retried up to
  ``max_retries`` times, after the wait the server asks for (``Retry-After`` /
  ``retry-after-ms``, up to ``retry_after_max_s``) or else the SDK's exponential
  backoff with jitter (0.5 s doubling up to 8 s); malformed 2xx responses (a
  body that is not JSON, no ``choices``, a choice without a ``message``) are
  retried the same way. Other 4xx, a 429 whose code is ``insufficient_quota``
  and a response asking to wait longer than ``retry_after_max_s`` fail at once.
  ``retry_after_max_s`` is capped at 120 s, the longest wait the SDK honours
  (a larger value is lowered with a warning). When retries run out or a
  failure is not retryable, :class:`AgentError` says which and why. (Until the
  SDK's retries were used, the agent ran its own loop with a configurable
  backoff from 1 s and ``retry_after_max_s`` defaulted to 300 s;
  ``backoff_base_s``/``backoff_max_s`` are now ignored, with a
  DeprecationWarning, and 408/409 are retried too.)
* **Context budget** (see :meth:`LLMAgent._fit_context`): before each request
  the prompt (messages plus tool schemas) is estimated in tokens, as characters
  / 4 until the server reports ``usage``, then with the characters-per-token
  ratio measured on the last request. Over ``context_tokens`` the conversation
  is shortened, persistently, down to ``trim_to`` x ``context_tokens``:
  first old tool outputs are cut to their head and tail with a marker (oldest
  first; the latest result is kept whole), then the oldest assistant+result
  turns are dropped whole (never the system or task message, never the latest
  turn; the task message gets a note saying how many turns were removed), and
  as a last resort the latest result is cut too. If the system and task
  messages with the latest turn still do not fit, ``act`` raises AgentError.
* **Usage.** :attr:`Agent.usage` counts requests, retries, errors, tokens (from
  each response's ``usage``), seconds waiting for the model and seconds of
  backoff; ``usage.extra`` counts ``outputs_shortened``, ``turns_dropped`` and
  ``responses_without_usage``. Requests, retries, errors and seconds are counted
  on each HTTP attempt by the agent's http client, whichever layer retries.

The ``openai`` package (``pip install 'mle-gym[llm]'``) is imported only when an
agent is built, so ``import mle_gym`` stays light.
"""

from __future__ import annotations

import copy
import json
import math
import os
import uuid
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from mle_gym.agents.base import Agent, AgentConfigError, AgentError
from mle_gym.hints import Hinted, Setting

if TYPE_CHECKING:
    from openai import APIError, OpenAI

    from mle_gym.agents.llm_http import CallStats, MeteredHttpClient

__all__ = ["AgentConfigError", "AgentError", "LLMAgent"]

T = TypeVar("T")

DEFAULT_CONTEXT_TOKENS = 32_000
DEFAULT_TIMEOUT_S = 300.0
DEFAULT_MAX_RETRIES = 5
#: the longest server-asked wait the openai SDK honours (its ``MAX_RETRY_AFTER_DELAY``; it
#: does not retry a response asking for longer): the default and the cap of retry_after_max_s
SDK_MAX_RETRY_AFTER_S = 120.0
_MULTI_CALL_NOTE = (
    "[mle_gym: the model asked for {n} tool calls in one message ({names}); only the first, "
    "{first}, was run, since the environment takes one tool call per step]"
)
_DROPPED_NOTE = (
    "\n\n[mle_gym: {n} earlier turn(s) of this conversation were removed to fit the "
    "context budget; the workspace still holds everything they produced]"
)
_CUT_MARKER = "\n[... {n:,} characters of this output removed to fit the context budget ...]\n"


def _setting(value: T | None, env: str, cast: Callable[[str], T], default: T) -> T:
    """``value`` if given, else ``$env`` converted by ``cast``, else ``default``."""
    if value is not None:
        return value
    raw = os.environ.get(env, "").strip()
    if not raw:
        return default
    try:
        return cast(raw)
    except ValueError:
        kind = getattr(cast, "__name__", "value")
        raise AgentConfigError(f"${env}={raw!r} is not a valid {kind}") from None


def _text(content: Any) -> str | None:
    """Message content as text (content-part lists are joined)."""
    if content is None or isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [p.get("text", "") for p in content if isinstance(p, dict)]
        return "".join(p for p in parts if isinstance(p, str))
    return str(content)


def _cut(text: str, keep: int) -> str:
    """``text`` reduced to its first and last ``keep // 2`` characters with a marker."""
    if len(text) <= keep + 200:
        return text
    head = keep // 2
    tail = keep - head
    removed = len(text) - head - tail
    return text[:head] + _CUT_MARKER.format(n=removed) + (text[-tail:] if tail else "")


class LLMAgent(Agent):
    """An OpenAI-compatible chat model as an agent (see the module docstring for the contract).

    Every setting comes from its argument, else from the environment variable
    named here, else from the default:

    Args:
        model: model name (``$MLE_GYM_LLM_MODEL``); required.
        base_url: API root, e.g. ``http://localhost:8000/v1`` (``$OPENAI_BASE_URL``;
            default: the OpenAI API).
        api_key: API key (``$OPENAI_API_KEY``); required for the OpenAI API; for
            another ``base_url`` it defaults to ``"EMPTY"``.
        temperature, top_p: sampling (``$MLE_GYM_LLM_TEMPERATURE``,
            ``$MLE_GYM_LLM_TOP_P``); not sent when unset (server default).
        max_tokens: completion limit per reply, sent as ``max_tokens``
            (``$MLE_GYM_LLM_MAX_TOKENS``); not sent when unset.
        seed: sampling seed sent with each request (``$MLE_GYM_LLM_SEED``; also
            ``make_agent("llm", seed=...)``); not sent when unset.
        timeout: seconds per HTTP request (``$MLE_GYM_LLM_TIMEOUT``, 300).
        max_retries: retries after a retryable failure (``$MLE_GYM_LLM_MAX_RETRIES``, 5).
        context_tokens: prompt budget in estimated tokens, messages plus tool
            schemas (``$MLE_GYM_LLM_CONTEXT_TOKENS``, 32000); leave room for the
            reply within the model's window.
        trim_to: when over budget, shorten down to this fraction of it (0.8), so
            that trimming happens in occasional larger steps (friendlier to
            servers' prefix caches) rather than at every turn.
        keep_output_chars: characters kept (head + tail) of an old output that is
            shortened (2000).
        backoff_base_s, backoff_max_s: deprecated and ignored (a DeprecationWarning
            says so): the backoff is the openai SDK's, see the module docstring.
        retry_after_max_s: a ``Retry-After`` longer than this is not waited for:
            the agent gives up at once (120 s). A larger value is lowered to 120 s
            with a UserWarning, since the openai SDK never waits longer.
        tools: tool schemas to send (default: ``task_info["tools"]``, else the
            env's built-in tools).
        extra_body: extra JSON fields for every request (e.g. ``{"top_k": 20}``).
        client: an ``openai.OpenAI`` client to use instead of building one; it is
            used through ``with_options(max_retries=max_retries, timeout=timeout,
            http_client=...)``, so its own http client is replaced by the agent's
            (which counts and checks every attempt).
    """

    name = "llm"

    def __init__(
        self,
        model: str | None = None,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        temperature: float | None = None,
        top_p: float | None = None,
        max_tokens: int | None = None,
        seed: int | None = None,
        timeout: float | None = None,
        max_retries: int | None = None,
        context_tokens: int | None = None,
        trim_to: float = 0.8,
        keep_output_chars: int = 2000,
        backoff_base_s: float | None = None,
        backoff_max_s: float | None = None,
        retry_after_max_s: float = SDK_MAX_RETRY_AFTER_S,
        tools: list[dict[str, Any]] | None = None,
        extra_body: dict[str, Any] | None = None,
        client: OpenAI | None = None,
    ) -> None:
        self.model = _setting(model, "MLE_GYM_LLM_MODEL", str, "")
        if not self.model:
            raise AgentConfigError(
                Hinted(
                    "the llm agent needs a model name: pass ",
                    Setting("model", option="--agent-arg"),
                    " or set $MLE_GYM_LLM_MODEL",
                )
            )
        self.base_url = _setting(base_url, "OPENAI_BASE_URL", str, "") or None
        key = _setting(api_key, "OPENAI_API_KEY", str, "")
        if not key and self.base_url is None and client is None:
            raise AgentConfigError(
                Hinted(
                    "the llm agent needs an API key for the OpenAI API: pass ",
                    Setting("api_key", option="--agent-arg"),
                    " or set $OPENAI_API_KEY (or point ",
                    Setting("base_url", option="--agent-arg"),
                    " / $OPENAI_BASE_URL at another server)",
                )
            )
        self.api_key = key or "EMPTY"
        self.temperature = _setting(temperature, "MLE_GYM_LLM_TEMPERATURE", float, None)
        self.top_p = _setting(top_p, "MLE_GYM_LLM_TOP_P", float, None)
        self.max_tokens = _setting(max_tokens, "MLE_GYM_LLM_MAX_TOKENS", int, None)
        self.seed = _setting(seed, "MLE_GYM_LLM_SEED", int, None)
        self.timeout = _setting(timeout, "MLE_GYM_LLM_TIMEOUT", float, DEFAULT_TIMEOUT_S)
        self.max_retries = _setting(
            max_retries, "MLE_GYM_LLM_MAX_RETRIES", int, DEFAULT_MAX_RETRIES
        )
        self.context_tokens = _setting(
            context_tokens, "MLE_GYM_LLM_CONTEXT_TOKENS", int, DEFAULT_CONTEXT_TOKENS
        )
        self.trim_to = float(trim_to)
        self.keep_output_chars = int(keep_output_chars)
        if backoff_base_s is not None or backoff_max_s is not None:
            warnings.warn(
                "LLMAgent: backoff_base_s and backoff_max_s are ignored: retries are the openai "
                "SDK's (exponential backoff from 0.5 s up to 8 s, or the server's Retry-After)",
                DeprecationWarning,
                stacklevel=2,
            )
        self.retry_after_max_s = float(retry_after_max_s)
        if self.retry_after_max_s > SDK_MAX_RETRY_AFTER_S:
            warnings.warn(
                f"LLMAgent: retry_after_max_s={self.retry_after_max_s:g} is capped at "
                f"{SDK_MAX_RETRY_AFTER_S:g} s: the openai SDK, which runs the retries, never waits "
                "longer (a server asking for more fails the request at once)",
                UserWarning,
                stacklevel=2,
            )
            self.retry_after_max_s = SDK_MAX_RETRY_AFTER_S
        self.extra_body = dict(extra_body or {})
        self._tools_arg = copy.deepcopy(tools) if tools is not None else None
        checks = [
            (self.timeout > 0, "timeout must be positive"),
            (self.max_retries >= 0, "max_retries must be >= 0"),
            (self.context_tokens > 0, "context_tokens must be positive"),
            (0 < self.trim_to <= 1, "trim_to must be in (0, 1]"),
            (self.keep_output_chars >= 0, "keep_output_chars must be >= 0"),
            (self.retry_after_max_s >= 0, "retry_after_max_s must be >= 0"),
            (self.max_tokens is None or self.max_tokens > 0, "max_tokens must be positive"),
        ]
        for ok, message in checks:
            if not ok:
                raise AgentConfigError(f"llm agent: {message}")
        self._http: MeteredHttpClient | None = None
        self._client = self._make_client(client)
        self.chars_per_token = 4.0
        self.tools: list[dict[str, Any]] = []
        self.last_response: dict[str, Any] | None = None
        self._messages: list[dict[str, Any]] | None = None
        self._pinned = 0
        self._task_content = ""
        self._dropped = 0
        self._last_action: dict[str, Any] | None = None
        self._tools_chars = 0

    # -- construction -----------------------------------------------------------------------

    def _make_client(self, client: OpenAI | None) -> OpenAI:
        """An OpenAI client with our retries and timeout, sending through a MeteredHttpClient."""
        try:
            from openai import OpenAI

            from mle_gym.agents.llm_http import MeteredHttpClient
        except ImportError as exc:
            raise AgentConfigError(
                "the llm agent needs the openai package (3.x): pip install 'mle-gym[llm]'"
            ) from exc
        self._http = MeteredHttpClient(retry_after_max_s=self.retry_after_max_s)
        options: dict[str, Any] = {
            "max_retries": self.max_retries,
            "timeout": self.timeout,
            "http_client": self._http,
        }
        if client is not None:
            return client.with_options(**options)
        return OpenAI(base_url=self.base_url, api_key=self.api_key, **options)

    # -- the Agent interface ----------------------------------------------------------------

    def reset(self, task_info: dict[str, Any]) -> None:
        """Start the conversation from ``task_info["messages"]`` and pick the tool schemas."""
        messages = task_info.get("messages")
        if not messages:
            observation = task_info.get("observation")
            if not isinstance(observation, str):
                raise AgentError("task_info has neither 'messages' nor an 'observation'")
            messages = [{"role": "user", "content": observation}]
        self._messages = copy.deepcopy(list(messages))
        self._pinned = len(self._messages)
        task_content = self._messages[-1].get("content")
        self._task_content = task_content if isinstance(task_content, str) else ""
        self._dropped = 0
        self._last_action = None
        self.last_response = None
        if self._tools_arg is not None:
            self.tools = copy.deepcopy(self._tools_arg)
        elif task_info.get("tools"):
            self.tools = copy.deepcopy(list(task_info["tools"]))
        else:
            from mle_gym.tools.builtin import BUILTIN_TOOLS

            self.tools = [t.openai_schema() for t in BUILTIN_TOOLS]
        self._tools_chars = len(json.dumps(self.tools, ensure_ascii=False)) if self.tools else 0
        for key in ("outputs_shortened", "turns_dropped", "responses_without_usage"):
            self.usage.extra.setdefault(key, 0)

    def act(self, observation: str, info: dict[str, Any]) -> dict[str, Any]:
        """Record the last turn, fit the context, ask the model; return its assistant message."""
        if self._messages is None:
            raise AgentError("LLMAgent.act() called before reset()")
        if self._last_action is not None:
            self._record_turn(observation, info)
            self._last_action = None  # recorded once, even if the request below fails
        self._fit_context()
        body = self._complete(self._messages)
        message = self._assistant_message(body["choices"][0]["message"])
        self._last_action = message
        return copy.deepcopy(message)

    @property
    def messages(self) -> list[dict[str, Any]]:
        """A copy of the conversation as it will be sent next (after any trimming so far)."""
        return copy.deepcopy(self._messages or [])

    # -- conversation -----------------------------------------------------------------------

    def _record_turn(self, observation: str, info: dict[str, Any]) -> None:
        """Append the assistant message last returned and the env's result for it."""
        assert self._messages is not None and self._last_action is not None
        assistant = copy.deepcopy(self._last_action)
        env_messages = info.get("messages") or []
        results = [
            m
            for m in env_messages
            if isinstance(m, dict) and m.get("role") in ("tool", "user", "function")
        ]
        texts = [_text(m.get("content")) or "" for m in results]
        text = "\n\n".join(texts) if results else observation
        calls = assistant.get("tool_calls") or []
        if calls:
            result = {"role": "tool", "tool_call_id": calls[0]["id"], "content": text}
        else:
            result = {"role": "user", "content": text}
        self._messages.extend([assistant, result])

    def _assistant_message(self, raw: dict[str, Any]) -> dict[str, Any]:
        """The model's reply as a clean assistant message with at most one tool call."""
        content = _text(raw.get("content"))
        calls: list[dict[str, Any]] = []
        raw_calls = raw.get("tool_calls") or []
        if not raw_calls and isinstance(raw.get("function_call"), dict):  # legacy format
            raw_calls = [{"type": "function", "function": raw["function_call"]}]
        for call in raw_calls if isinstance(raw_calls, list) else []:
            fn = call.get("function") if isinstance(call, dict) else None
            if not isinstance(fn, dict):
                continue
            arguments = fn.get("arguments")
            if not isinstance(arguments, str):
                arguments = json.dumps(arguments if arguments is not None else {})
            call_id = call.get("id")
            if not isinstance(call_id, str) or not call_id:
                call_id = f"call_{uuid.uuid4().hex[:12]}"
            name = fn.get("name")
            calls.append(
                {
                    "id": call_id,
                    "type": "function",
                    "function": {
                        "name": name if isinstance(name, str) else "",
                        "arguments": arguments,
                    },
                }
            )
        message: dict[str, Any] = {"role": "assistant", "content": content}
        if len(calls) > 1:
            self.usage.bump("extra_tool_calls_dropped", len(calls) - 1)
            note = _MULTI_CALL_NOTE.format(
                n=len(calls),
                names=", ".join(c["function"]["name"] or "?" for c in calls),
                first=calls[0]["function"]["name"] or "?",
            )
            message["content"] = f"{content}\n\n{note}" if content else note
            calls = calls[:1]
        if calls:
            message["tool_calls"] = calls
        elif message["content"] is None:
            message["content"] = ""
        return message

    # -- context management -----------------------------------------------------------------

    def estimate_tokens(self, messages: list[dict[str, Any]] | None = None) -> int:
        """Estimated prompt tokens of ``messages`` (default: the conversation) plus tools."""
        msgs = self._messages if messages is None else messages
        chars = len(json.dumps(msgs or [], ensure_ascii=False)) + self._tools_chars
        return math.ceil(chars / self.chars_per_token)

    def _turns(self) -> list[tuple[int, int]]:
        """(start, end) index ranges of the turns after the pinned messages.

        A turn is an assistant message and the results that follow it.
        """
        assert self._messages is not None
        turns: list[tuple[int, int]] = []
        start = self._pinned
        for i in range(self._pinned + 1, len(self._messages) + 1):
            if i == len(self._messages) or self._messages[i].get("role") == "assistant":
                turns.append((start, i))
                start = i
        return turns if len(self._messages) > self._pinned else []

    def _shorten(self, index: int, keep: int) -> bool:
        assert self._messages is not None
        content = self._messages[index].get("content")
        if not isinstance(content, str):
            return False
        shorter = _cut(content, keep)
        if shorter == content:
            return False
        self._messages[index]["content"] = shorter
        self.usage.bump("outputs_shortened")
        return True

    def _fit_context(self) -> None:
        """Shorten the conversation if its estimate is over ``context_tokens``.

        Policy (each stage runs only while the estimate is still over the target
        ``trim_to * context_tokens``):

        1. cut old results (tool/user messages of every turn but the latest),
           oldest first, to ``keep_output_chars`` (head and tail kept, marker
           between);
        2. drop the oldest turns whole (assistant message with its results, so
           calls and results stay paired), keeping the pinned system and task
           messages and the latest turn; the task message notes how many turns
           are gone;
        3. if the estimate is still over ``context_tokens`` itself: cut the
           latest turn's results and assistant text too; if that is not enough,
           raise AgentError.
        """
        assert self._messages is not None
        budget = self.context_tokens
        if self.estimate_tokens() <= budget:
            return
        target = budget * self.trim_to
        turns = self._turns()
        for start, end in turns[:-1]:
            for i in range(start + 1, end):
                if self._shorten(i, self.keep_output_chars) and self.estimate_tokens() <= target:
                    return
        while len(self._turns()) > 1 and self.estimate_tokens() > target:
            start, end = self._turns()[0]
            del self._messages[start:end]
            self._dropped += 1
            self.usage.bump("turns_dropped")
            self._note_dropped()
        if self.estimate_tokens() <= budget:
            return
        for start, end in self._turns()[-1:]:
            for i in range(start, end):
                self._shorten(i, self.keep_output_chars)
        estimate = self.estimate_tokens()
        if estimate > budget:
            raise AgentError(
                f"the conversation cannot fit the context budget of {budget} tokens: the system "
                f"and task messages, the tool schemas and the latest turn alone take about "
                f"{estimate} (estimated at {self.chars_per_token:.2f} characters per token); "
                "raise context_tokens"
            )

    def _note_dropped(self) -> None:
        """Say in the task message how many turns were removed."""
        assert self._messages is not None
        task = self._messages[self._pinned - 1]
        if task.get("role") == "user" and isinstance(task.get("content"), str):
            task["content"] = self._task_content + _DROPPED_NOTE.format(n=self._dropped)

    # -- the model call ---------------------------------------------------------------------

    def _request(self, messages: list[dict[str, Any]]) -> dict[str, Any]:
        """Keyword arguments of one Chat Completions request."""
        params: dict[str, Any] = {"model": self.model, "messages": messages}
        if self.tools:
            params["tools"] = self.tools
        for key in ("temperature", "top_p", "max_tokens", "seed"):
            value = getattr(self, key)
            if value is not None:
                params[key] = value
        if self.extra_body:
            params["extra_body"] = self.extra_body
        return params

    def _complete(self, messages: list[dict[str, Any]]) -> dict[str, Any]:
        """Send the conversation; return the parsed response body with a usable message.

        The openai SDK retries (see the module docstring); each attempt is counted
        into :attr:`usage`, and the body is the one the http client parsed and
        checked. Raises AgentError once the SDK gives up.
        """
        import openai

        assert self._http is not None
        params = self._request(messages)
        request_chars = len(json.dumps(messages, ensure_ascii=False)) + self._tools_chars
        stats = self._http.new_call()
        try:
            # the raw response: the SDK does not build its pydantic objects from the body
            self._client.chat.completions.with_raw_response.create(**params)
        except openai.APIError as exc:
            raise self._failure(exc, stats) from exc
        finally:
            self._count(stats)
        body = stats.body
        if body is None:  # the http client saw no /chat/completions 2xx: should not happen
            raise AgentError(f"model request to {self._where()} returned no checked response body")
        self._record_usage(body, request_chars)
        self.last_response = body
        return body

    def _count(self, stats: CallStats) -> None:
        """Add one call's attempts to :attr:`usage`."""
        usage = self.usage
        usage.requests += stats.attempts
        usage.retries += max(0, stats.attempts - 1)
        usage.errors += stats.failures
        usage.model_seconds += stats.model_seconds
        usage.backoff_seconds += stats.backoff_seconds

    def _where(self) -> str:
        """The server named in error messages."""
        return self.base_url or "the OpenAI API"

    def _failure(self, exc: APIError, stats: CallStats) -> AgentError:
        """The AgentError for a call the SDK gave up on with ``exc``.

        Says why: a failure that is not retryable (whatever ``max_retries``), a
        wait asked for over ``retry_after_max_s``, or retries run out.
        """
        from mle_gym.agents.llm_http import failure_reason, retryable

        where = self._where()
        reason = failure_reason(exc, self.timeout)
        wait = stats.retry_after
        if wait is not None and wait > self.retry_after_max_s:
            return AgentError(
                f"model request to {where} failed ({reason}) and the server asks to wait "
                f"{wait:g} s, more than retry_after_max_s={self.retry_after_max_s:g}"
            )
        if not retryable(exc):
            return AgentError(f"model request to {where} failed, not retryable: {reason}")
        return AgentError(
            f"model request to {where} failed {stats.attempts} time(s), giving up "
            f"(max_retries={self.max_retries}); last error: {reason}"
        )

    def _record_usage(self, body: dict[str, Any], request_chars: int) -> None:
        """Add the response's token counts; recalibrate characters per token."""
        usage = self.usage
        reported = body.get("usage")
        if not isinstance(reported, dict):
            usage.bump("responses_without_usage")
            return

        def count(key: str) -> int:
            value = reported.get(key)
            return int(value) if isinstance(value, int | float) and value >= 0 else 0

        prompt, completion = count("prompt_tokens"), count("completion_tokens")
        usage.prompt_tokens += prompt
        usage.completion_tokens += completion
        usage.total_tokens += count("total_tokens") or prompt + completion
        if prompt > 0:
            self.chars_per_token = min(8.0, max(1.5, request_chars / prompt))
