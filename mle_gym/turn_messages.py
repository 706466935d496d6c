"""How one step of :class:`~mle_gym.env.MLEEnv` is recorded: the turn as OpenAI chat
messages (``info["messages"]``), and the transcript's heading and end-of-episode lines."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from mle_gym.tools.parsing import ToolCall


def turn_messages(
    call: ToolCall | None, action: Any, text: str, *, step: int, text_result: Callable[[str], str]
) -> list[dict[str, Any]]:
    """The turn as OpenAI chat messages, keeping what the policy produced verbatim.

    Raw text stays the assistant message's content (its ``<tool_call>`` block
    included) and its result comes back as a ``user`` message holding a
    ``<tool_response>`` block; an assistant message with ``tool_calls`` is kept as
    given and a bare tool call becomes one — their result is a ``tool`` message
    answering the call. When no call could be read, the error is a ``user`` message.
    """
    if isinstance(action, bytes):
        action = action.decode("utf-8", errors="replace")
    is_message = isinstance(action, dict) and (
        action.get("role") == "assistant" or "tool_calls" in action
    )
    if call is None:
        if is_message:
            assistant_msg = json.loads(json.dumps({**action, "role": "assistant"}, default=repr))
            assistant_msg.setdefault("content", None)
        else:
            content = action if isinstance(action, str) else json.dumps(action, default=repr)
            assistant_msg = {"role": "assistant", "content": content}
        return [assistant_msg, {"role": "user", "content": text}]
    call_id = call.call_id or f"call_{step}"
    if isinstance(action, str) or (is_message and not action.get("tool_calls")):
        # A text tool call (Hermes style): the result goes back the same way, as a user
        # turn with a <tool_response> block — what chat templates render for such models,
        # and a message sequence every Chat Completions server accepts.
        if isinstance(action, str):
            text_msg: dict[str, Any] = {"role": "assistant", "content": action}
        else:
            text_msg = json.loads(json.dumps({**action, "role": "assistant"}, default=repr))
        return [
            text_msg,
            {"role": "user", "content": text_result(text)},
        ]
    if is_message:
        assistant = json.loads(json.dumps({**action, "role": "assistant"}, default=repr))
        assistant.setdefault("content", None)
    else:
        assistant = {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": call_id,
                    "type": "function",
                    "function": {
                        "name": call.name,
                        "arguments": json.dumps(call.args, ensure_ascii=False, default=repr),
                    },
                }
            ],
        }
    return [
        assistant,
        {"role": "tool", "tool_call_id": call_id, "name": call.name, "content": text},
    ]


def turn_heading(step: int, call: ToolCall | None, action: Any) -> str:
    """The transcript heading of a step (one line; the transcript escapes it)."""
    if call is None:
        return f"--- step {step}: (unparseable action) {str(action)[:200]!r}"
    args = json.dumps(call.args, ensure_ascii=False, default=repr)
    return f"--- step {step}: {call.name[:100]} {args[:400]}"


def end_line(reward: float, g: dict[str, Any] | None, reason: str | None) -> str:
    """The transcript's own end-of-episode line (numbers only: nothing the agent wrote)."""
    how = f"truncated ({reason})" if reason else "terminated"
    if g is None:
        return f"=== episode over: {how} · not graded · reward {reward:g} ==="
    return (
        f"=== episode over: {how} · reward {reward:.6g} · score {g.get('score')!r} "
        f"· valid {bool(g.get('valid'))} ==="
    )
