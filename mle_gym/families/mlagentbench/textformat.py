"""Reading MLAgentBench's text action format::

    Thought: ... (anything before the action is ignored)
    Action: List Files
    Action Input: {"dir_path": "."}

Rules (what is tolerated, and what is an error with a message for the agent):

* exactly one line starting with ``Action:`` (leading spaces, ``>``, ``*``, ``#``
  and ``-`` markdown decorations allowed; ``**Action:**`` works); several are an
  error. The name may sit on the next line. Names match case-insensitively, with
  ``_`` or ``-`` for spaces (``list_files`` = ``List Files``);
* ``Action Input:`` follows; its value ends at a line starting with
  ``Observation:`` (text models tend to invent the observation), else at the end.
  A surrounding code fence (```` ```json ````) is removed;
* the input is a JSON object; raw newlines and tabs inside strings are accepted
  (models write multi-line file contents that way); text after the closing brace
  is ignored. When that fails, a Python dict literal is accepted (single quotes,
  triple-quoted multi-line strings); anything else is an error quoting the JSON
  parser's complaint and the expected usage;
* the keys must be exactly the action's arguments (missing or unexpected ones are
  an error listing the expected usage); ``Final Answer`` accepts any input,
  including none or plain text;
* actions given in mle_gym's other forms (a dict, an OpenAI tool call, a
  ``<tool_call>`` block, a JSON object) are read by
  :func:`mle_gym.tools.parsing.parse_action`, with tool names in either spelling.

Bounded work on any input: text longer than
:data:`~mle_gym.tools.parsing.MAX_ACTION_CHARS` is refused unread; the line patterns
below match one line at a time without nested repetition (linear), fences are found
with substring searches, and the Python-literal fallback is tried only when the text
outside its string literals is small (:data:`LITERAL_BUDGET`), since Python's parser
costs time and memory per token (a 1M-character list literal took 6 s and 0.5 GB).
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mle_gym.tools.parsing import ActionError, ToolCall, check_size, decode_action, parse_action

# One line each; every repetition is possessive (``*+``): none can give back what it read,
# so a failed attempt costs what it read, once (no backtracking on long lines).
_DECOR = r"^[ \t>*#_`-]*+"
_ACTION = re.compile(_DECOR + r"action[ \t*_`]*+:[ \t*_`]*+(.*)$", re.IGNORECASE | re.MULTILINE)
_INPUT = re.compile(
    _DECOR + r"action[ \t]++input[ \t*_`]*+:[ \t*_`]*+", re.IGNORECASE | re.MULTILINE
)
_OBSERVATION = re.compile(_DECOR + r"observation[ \t*_`]*+:", re.IGNORECASE | re.MULTILINE)
_FENCE = "```"
_FENCE_OPEN = re.compile(r"```[a-zA-Z0-9_-]*+[ \t]*+\n?")  # its body starts at the match's end
#: most parser tokens (characters outside string literals, plus one per literal) for which
#: the Python-literal fallback is tried; a dict of a few string arguments needs ~100
LITERAL_BUDGET = 10_000


@dataclass(frozen=True)
class ActionInfo:
    """One action: its display name, the tool it maps to, and its arguments' usage."""

    name: str
    tool: str
    usage: Mapping[str, str]
    lenient_input: bool = False  # Final Answer: any input is fine


def normalize(name: str) -> str:
    """``List_Files``, ``list-files`` and `` List  Files `` all become ``list files``."""
    return " ".join(re.sub(r"[_\-]+", " ", name).lower().split())


def usage_text(info: ActionInfo) -> str:
    """The expected input, as shown in errors."""
    body = ",\n".join(f'    "{k}": [{v}]' for k, v in info.usage.items())
    return f"Action: {info.name}\nAction Input: {{\n{body}\n}}"


def _clean_name(raw: str) -> str:
    return raw.strip().strip("*`'\"").strip().rstrip(".:").strip()


def _strip_fence(text: str) -> str:
    """The body of a code fence opening ``text`` (```` ```json ```` ... up to the next
    ```` ``` ````), else the stripped text."""
    stripped = text.strip()
    opening = _FENCE_OPEN.match(stripped)
    if opening is None:
        return stripped
    end = stripped.find(_FENCE, opening.end())
    return stripped[opening.end() : end].strip() if end >= 0 else stripped


def _body_pattern(quote: str, triple: bool) -> re.Pattern[str]:
    """The body and closing delimiter of a string literal, possessive (``*+``, ``++``):
    the matcher never backtracks, so a match attempt is linear in what it reads."""
    q = re.escape(quote)
    if triple:
        return re.compile(rf"(?:[^{q}\\]++|\\.|{q}(?!{q}{q}))*+{q}{q}{q}", re.DOTALL)
    return re.compile(rf"(?:[^{q}\\\n]++|\\.)*+{q}", re.DOTALL)


_BODIES = {delim: _body_pattern(delim[0], len(delim) == 3) for delim in ("'", '"', "'''", '"""')}


def literal_cost(text: str, budget: int = LITERAL_BUDGET) -> int:
    """An upper bound on the tokens Python's parser makes of ``text``, counted until it
    passes ``budget``: each character outside string literals (comments included) plus
    one per literal; f-strings count whole, since their braces hold expressions.

    Over-counting is safe (the fallback is just not tried), so an opening quote whose
    literal does not close counts as one character, and so does every later opening of
    the same kind on that line (one-line literals) or in the rest of the text (triple
    quotes). Linear: each search starts past the region the previous one read.
    """
    cost = pos = 0
    found = {"'": -1, '"': -1, "#": -1}
    unclosed = {delim: -1 for delim in _BODIES}  # openings before this index do not close
    while pos < len(text) and cost <= budget:
        for ch, at in found.items():
            if at != len(text) and at < pos:
                hit = text.find(ch, pos)
                found[ch] = hit if hit >= 0 else len(text)
        start = min(found.values())
        cost += start - pos
        if start >= len(text):
            break
        if text[start] == "#":
            end = text.find("\n", start)
            end = len(text) if end < 0 else end
            cost += end - start
            pos = end
            continue
        delim = text[start] * 3 if text.startswith(text[start] * 3, start) else text[start]
        m = None if start < unclosed[delim] else _BODIES[delim].match(text, start + len(delim))
        if m is None:  # not a literal: the quote is one more token
            if start >= unclosed[delim]:
                line_end = text.find("\n", start) if len(delim) == 1 else -1
                unclosed[delim] = len(text) if line_end < 0 else line_end
            cost += 1
            pos = start + 1
            continue
        fstring = "f" in text[max(0, start - 2) : start].lower()
        cost += m.end() - start if fstring else 1
        pos = m.end()
    return cost


def _decode_object(text: str) -> Any:
    """The first JSON object (or, failing that, a small Python dict literal) in ``text``."""
    start = text.find("{")
    if start < 0:
        raise ValueError("no JSON object (no '{')")
    try:
        value, _ = json.JSONDecoder(strict=False).raw_decode(text[start:])
        return value
    except json.JSONDecodeError as exc:
        json_error = f"{exc.msg} at line {exc.lineno} column {exc.colno}"
    except RecursionError:
        raise ValueError("nested too deeply") from None
    end = text.rfind("}")
    if end > start and literal_cost(text[start : end + 1]) > LITERAL_BUDGET:
        raise ValueError(f"{json_error}; too large to be read as a Python literal")
    if end > start:
        try:
            value = ast.literal_eval(text[start : end + 1])
            if isinstance(value, dict):
                return value
        except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
            pass
    raise ValueError(json_error)


class TextActionParser:
    """``parser(action) -> ToolCall`` for a table of :class:`ActionInfo` (see module doc)."""

    def __init__(self, actions: list[ActionInfo]) -> None:
        self.actions = actions
        self._by_norm = {normalize(a.name): a for a in actions}
        self._by_norm.update({normalize(a.tool): a for a in actions})

    def names(self) -> str:
        return ", ".join(a.name for a in self.actions)

    def _invalid_action(self, name: str) -> ActionError:
        return ActionError(
            f"Invalid action: {name[:100]}. Action did not execute. Please use one of the "
            f"following actions:\n{self.names()}"
        )

    def _format_help(self) -> str:
        return (
            "Answer with one action in this format:\nAction: List Files\n"
            'Action Input: {"dir_path": "."}'
            f"\nAvailable actions: {self.names()}"
        )

    def __call__(self, action: Any) -> ToolCall:
        if isinstance(action, bytes):
            action = decode_action(action)
        if not isinstance(action, str):
            return self._other_form(action)
        check_size(action)
        matches = list(_ACTION.finditer(action))
        if not matches:
            stripped = action.strip()
            if "<tool_call>" in action or stripped.startswith(("{", "```")):
                return self._other_form(action)
            if _INPUT.search(action):
                raise ActionError(
                    "found 'Action Input:' without an 'Action:' line. " + self._format_help()
                )
            raise ActionError("no action found. " + self._format_help())
        if len(matches) > 1:
            raise ActionError(
                f"one action per step, but found {len(matches)} 'Action:' lines. "
                "Send them in separate steps."
            )
        match = matches[0]
        rest = action[match.end() :]
        name = _clean_name(match.group(1))
        inp = _INPUT.search(rest)
        if not name:  # the name on the next line
            head = rest[: inp.start()] if inp else rest
            lines = [ln for ln in head.splitlines() if ln.strip()]
            name = _clean_name(lines[0]) if lines else ""
        if not name:
            raise ActionError("'Action:' is not followed by an action name. " + self._format_help())
        info = self._by_norm.get(normalize(name))
        if info is None:
            raise self._invalid_action(name)
        if inp is None:
            if info.lenient_input:
                return ToolCall(info.tool, {})
            raise ActionError(
                f"missing 'Action Input:' after 'Action: {info.name}'. Expected:\n"
                + usage_text(info)
            )
        raw = rest[inp.end() :]
        obs = _OBSERVATION.search(raw)
        if obs is not None:
            raw = raw[: obs.start()]
        return ToolCall(info.tool, self._arguments(info, _strip_fence(raw)))

    def _arguments(self, info: ActionInfo, raw: str) -> dict[str, Any]:
        try:
            value = _decode_object(raw)
        except ValueError as exc:
            if info.lenient_input:
                return {"final_answer": raw} if raw else {}
            raise ActionError(
                f"The action input for {info.name} needs to be a valid JSON object ({exc}). "
                "Strings must use double quotes (newlines may be written as \\n or kept "
                "inside the quotes). Expected:\n" + usage_text(info)
            ) from None
        if not isinstance(value, dict):
            raise ActionError(f"The action input for {info.name} must be a JSON object")
        if info.lenient_input:
            known = {k: v for k, v in value.items() if k in info.usage}
            return {k: v if isinstance(v, str) else json.dumps(v) for k, v in known.items()}
        return self._check_keys(info, value)

    def _check_keys(self, info: ActionInfo, value: dict[str, Any]) -> dict[str, Any]:
        keys = [k for k in value if isinstance(k, str)]
        missing = [k for k in info.usage if k not in value]
        extra = [k for k in keys if k not in info.usage] + [
            repr(k) for k in value if not isinstance(k, str)
        ]
        if missing or extra:
            parts = []
            if missing:
                parts.append(f"missing {', '.join(missing)}")
            if extra:
                parts.append(f"unexpected {', '.join(map(str, extra))}")
            raise ActionError(
                f"The action input for {info.name} has the wrong entries ({'; '.join(parts)}). "
                "Expected:\n" + usage_text(info)
            )
        return dict(value)

    def _other_form(self, action: Any) -> ToolCall:
        call = parse_action(action)
        info = self._by_norm.get(normalize(call.name))
        if info is None:
            raise self._invalid_action(call.name)
        args = dict(call.args)
        if info.lenient_input:
            args = {k: v for k, v in args.items() if k in info.usage}
        else:
            args = self._check_keys(info, args)
        return ToolCall(info.tool, args, call.call_id)
