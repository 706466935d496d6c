"""Turning any accepted action form into one :class:`ToolCall`.

Accepted forms (all equivalent):

* ``{"tool": "execute", "args": {"command": "ls"}}`` (``args`` may be a JSON string);
* an OpenAI function call ``{"name": ..., "arguments": "<json>"}``;
* an OpenAI tool call ``{"id": ..., "type": "function", "function": {...}}``;
* an OpenAI assistant message ``{"role": "assistant", "tool_calls": [...]}`` (or
  with the call in its text ``content``);
* a JSON string of any of the above;
* raw assistant text containing ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>``
  (Hermes/Qwen style); text around the block is ignored.

Exactly one tool call per step. Anything else raises :class:`ActionError` with a
message that tells the agent what was wrong and what is expected.

Bounded work on any input: a text action (and a JSON string of tool arguments) longer
than :data:`MAX_ACTION_CHARS` characters is refused before it is read, and reading is
linear in the input's size (plain substring searches and the JSON parser; no regular
expression with backtracking runs over agent text), so a hostile action costs
milliseconds and never holds the GIL for long.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

#: the longest text action (or JSON string of tool arguments) that is read, in characters
MAX_ACTION_CHARS = 1_000_000
_OPEN, _CLOSE = "<tool_call>", "</tool_call>"
_FENCE = "```"

EXPECTED = (
    'Expected one tool call, e.g. {"tool": "list_files", "args": {}}, an OpenAI tool call '
    '{"name": "list_files", "arguments": "{}"}, or text with '
    '<tool_call>{"name": "list_files", "arguments": {}}</tool_call>.'
)


class ActionError(ValueError):
    """The action could not be read as a tool call; str() is shown to the agent."""


@dataclass(frozen=True)
class ToolCall:
    """A normalised tool call."""

    name: str
    args: dict[str, Any] = field(default_factory=dict)
    call_id: str | None = None


def _short(value: Any, limit: int = 60) -> str:
    """A repr for messages, at most ``limit`` characters; never raises."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # e.g. an int too long to print, deep nesting
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _loads(text: str, where: str) -> Any:
    """``json.loads`` with every failure as an ActionError naming ``where``."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ActionError(f"{where} is not valid JSON ({exc.msg} at {exc.pos})") from None
    except RecursionError:
        raise ActionError(f"{where} is nested too deeply") from None
    except ValueError as exc:  # e.g. an integer literal longer than Python accepts
        raise ActionError(f"{where} is not usable JSON ({exc})") from None


def _args(raw: Any) -> dict[str, Any]:
    if raw is None or raw == "":
        return {}
    if isinstance(raw, str):
        check_size(raw, "JSON string of tool arguments")
        raw = _loads(raw, "tool arguments")
    if not isinstance(raw, dict):
        raise ActionError(f"tool arguments must be a JSON object, got {type(raw).__name__}")
    bad = [k for k in raw if not isinstance(k, str)]
    if bad:
        raise ActionError("tool argument names must be strings")
    return raw


def _name(raw: Any) -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise ActionError(f"tool name must be a non-empty string, got {_short(raw)}")
    return raw.strip()


def _from_dict(d: dict[str, Any]) -> ToolCall:
    if "tool_calls" in d or d.get("role") == "assistant":
        calls = d.get("tool_calls") or []
        if not isinstance(calls, list):
            raise ActionError("'tool_calls' must be a list")
        if len(calls) > 1:
            raise ActionError(
                f"one tool call per step, got {len(calls)}; send them in separate steps"
            )
        if calls:
            if not isinstance(calls[0], dict):
                raise ActionError("each entry of 'tool_calls' must be an object")
            return _from_dict(calls[0])
        content = d.get("content")
        if isinstance(content, str) and content.strip():
            check_size(content, "message content")
            return _from_text(content)
        raise ActionError("the assistant message has no tool call. " + EXPECTED)
    if "function" in d and isinstance(d["function"], dict):
        fn = d["function"]
        call_id = d.get("id") if isinstance(d.get("id"), str) else None
        return ToolCall(_name(fn.get("name")), _args(fn.get("arguments")), call_id)
    if "tool" in d:
        raw_args = d.get("args", d.get("arguments"))
        return ToolCall(_name(d["tool"]), _args(raw_args), _opt_id(d))
    if "name" in d:
        raw_args = d.get("arguments", d.get("args", d.get("parameters")))
        return ToolCall(_name(d["name"]), _args(raw_args), _opt_id(d))
    keys = sorted(k[:40] if isinstance(k, str) else _short(k, 40) for k in d)[:8]
    raise ActionError(f"object has no 'tool' or 'name' field (keys: {keys}). {EXPECTED}")


def _opt_id(d: dict[str, Any]) -> str | None:
    value = d.get("id") or d.get("call_id")
    return value if isinstance(value, str) else None


def check_size(text: str | bytes, what: str = "action") -> None:
    """Raise ActionError if ``text`` is longer than :data:`MAX_ACTION_CHARS` characters
    (bytes: more than four bytes per allowed character, the most UTF-8 needs)."""
    limit = MAX_ACTION_CHARS * (4 if isinstance(text, bytes) else 1)
    if len(text) > limit:
        unit = "bytes" if isinstance(text, bytes) else "characters"
        raise ActionError(
            f"the {what} is longer than {limit:,} {unit} ({len(text):,}); it was not read. "
            "Send less per step (e.g. write a large file in parts)."
        )


def decode_action(action: bytes) -> str:
    """An action given as bytes, as text: size-checked (:func:`check_size`) and decoded
    as UTF-8; ActionError if it is too long or not valid UTF-8."""
    check_size(action)
    try:
        return action.decode("utf-8")
    except UnicodeDecodeError:
        raise ActionError("action bytes are not valid UTF-8") from None


def tool_call_blocks(text: str, most: int = 2) -> list[str]:
    """The bodies of the first ``most`` ``<tool_call>...</tool_call>`` blocks of ``text``,
    white space around each body removed.

    A block runs from an opening tag to the next closing tag, as a non-greedy match
    would; each search starts where the last one ended, so the work is linear.
    """
    blocks: list[str] = []
    pos = 0
    while len(blocks) < most:
        start = text.find(_OPEN, pos)
        if start < 0:
            break
        end = text.find(_CLOSE, start + len(_OPEN))
        if end < 0:
            break
        blocks.append(text[start + len(_OPEN) : end].strip())
        pos = end + len(_CLOSE)
    return blocks


def _unfence(stripped: str) -> str:
    """The body of a whole-text code fence (```` ``` ```` or ```` ```json ````), else the text."""
    if len(stripped) < 2 * len(_FENCE) or not (
        stripped.startswith(_FENCE) and stripped.endswith(_FENCE)
    ):
        return stripped
    body = stripped[len(_FENCE) : -len(_FENCE)]
    if body.startswith("json"):
        body = body[len("json") :]
    return body.strip()


def _from_text(text: str) -> ToolCall:
    blocks = tool_call_blocks(text)
    if len(blocks) > 1:
        count = len(tool_call_blocks(text, most=len(text)))
        raise ActionError(f"one tool call per step, got {count} <tool_call> blocks")
    if blocks:
        return _from_json_text(blocks[0], where="<tool_call> block")
    stripped = _unfence(text.strip())
    if stripped.startswith("{"):
        return _from_json_text(stripped, where="action")
    if "<tool_call>" in text:
        raise ActionError("found <tool_call> without a closing </tool_call>. " + EXPECTED)
    raise ActionError("no tool call found in the text. " + EXPECTED)


def _from_json_text(text: str, where: str) -> ToolCall:
    try:
        value = _loads(text, where)
    except ActionError as exc:
        raise ActionError(f"{exc} {EXPECTED}") from None
    if not isinstance(value, dict):
        raise ActionError(f"{where} must be a JSON object, got {type(value).__name__}")
    return _from_dict(value)


def parse_action(action: Any) -> ToolCall:
    """Normalise ``action`` (any accepted form) into a ToolCall, or raise ActionError."""
    if isinstance(action, ToolCall):
        return action
    if isinstance(action, bytes):
        action = decode_action(action)
    try:
        if isinstance(action, str):
            check_size(action)
            return _from_text(action)
        if isinstance(action, dict):
            return _from_dict(action)
    except RecursionError:
        raise ActionError("action is nested too deeply") from None
    raise ActionError(f"action must be a dict or a string, got {type(action).__name__}. {EXPECTED}")
