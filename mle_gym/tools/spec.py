"""Tool schemas from one source: the typed tool functions themselves.

A tool is a plain function ``fn(ctx, <params>) -> ToolResult`` decorated with
:func:`tool`. Its parameters' annotations (str, int, float, bool, optionally
``| None``), their defaults, and the ``Args:`` section of its docstring are the
only description of the tool. From them :class:`ToolSpec` derives

* the OpenAI Chat Completions function schema (flat parameters, since some RL
  trainers cannot express nested objects), and
* argument checking: missing, unexpected or ill-typed arguments become a
  :class:`ToolArgError` with a message for the agent.
"""

from __future__ import annotations

import inspect
import math
import re
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

_JSON_TYPES = {str: "string", int: "integer", float: "number", bool: "boolean"}
_INT_LIMIT = 2**63 - 1  # integer arguments are 64-bit, as in most JSON consumers


class ToolArgError(ValueError):
    """Arguments do not fit a tool's signature; str() is shown to the agent."""


@dataclass(frozen=True)
class ToolResult:
    """What a tool returns: the observation text and how the call went."""

    text: str
    ok: bool = True
    terminal: bool = False
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Param:
    """One tool parameter."""

    name: str
    type: type
    description: str
    required: bool
    default: Any = None
    nullable: bool = False


@dataclass(frozen=True)
class ToolSpec:
    """A tool: its name, description, parameters and implementation."""

    name: str
    description: str
    params: tuple[Param, ...]
    fn: Callable[..., ToolResult]

    def openai_schema(self) -> dict[str, Any]:
        """The tool in OpenAI Chat Completions ``tools`` format."""
        props: dict[str, Any] = {}
        for p in self.params:
            schema: dict[str, Any] = {"type": _JSON_TYPES[p.type], "description": p.description}
            if not p.required and p.default is not None:
                schema["default"] = p.default
            props[p.name] = schema
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": {
                    "type": "object",
                    "properties": props,
                    "required": [p.name for p in self.params if p.required],
                    "additionalProperties": False,
                },
            },
        }

    def signature_line(self) -> str:
        """``name(a: string, b?: integer)`` for prompts and help text."""
        parts = [f"{p.name}{'' if p.required else '?'}: {_JSON_TYPES[p.type]}" for p in self.params]
        return f"{self.name}({', '.join(parts)})"

    def check_args(self, args: dict[str, Any]) -> dict[str, Any]:
        """Validate and coerce ``args``; raise ToolArgError naming the problem."""
        known = {p.name: p for p in self.params}
        unexpected = sorted(set(args) - set(known))
        if unexpected:
            raise ToolArgError(
                f"{self.name}: unexpected argument(s) {', '.join(map(_short, unexpected[:5]))}; "
                f"signature: {self.signature_line()}"
            )
        out: dict[str, Any] = {}
        for p in self.params:
            if p.name not in args or (args[p.name] is None and not p.required):
                if p.required:
                    raise ToolArgError(
                        f"{self.name}: missing required argument '{p.name}'; "
                        f"signature: {self.signature_line()}"
                    )
                out[p.name] = p.default
                continue
            out[p.name] = _coerce(self.name, p, args[p.name])
        return out


def _coerce(tool_name: str, p: Param, value: Any) -> Any:
    bad = ToolArgError(
        f"{tool_name}: argument '{p.name}' must be {_JSON_TYPES[p.type]}, "
        f"got {type(value).__name__} {_short(value)}"
    )
    if p.type is str:
        if not isinstance(value, str):
            raise bad
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise ToolArgError(
                f"{tool_name}: argument '{p.name}' is not valid Unicode text (an unpaired "
                f"surrogate code point at position {exc.start}); send UTF-8 text"
            ) from None
        return value
    if p.type is bool:
        if not isinstance(value, bool):
            raise bad
        return value
    if p.type is int:
        if isinstance(value, bool):
            raise bad
        whole_float = isinstance(value, float) and value.is_integer()
        if whole_float or (isinstance(value, str) and re.fullmatch(r"\s*+-?+\d{1,18}+\s*+", value)):
            value = int(value)
        if isinstance(value, int):
            if not -_INT_LIMIT <= value <= _INT_LIMIT:
                raise ToolArgError(
                    f"{tool_name}: argument '{p.name}' is out of range (at most "
                    f"{_INT_LIMIT:,} in absolute value)"
                )
            return value
        raise bad
    if p.type is float:
        if isinstance(value, bool):
            raise bad
        if isinstance(value, int) and abs(value) > _INT_LIMIT:
            raise bad  # also too large to convert to a float
        if isinstance(value, int | float) and math.isfinite(value):
            return float(value)
        if isinstance(value, str):
            try:
                f = float(value)
            except ValueError:
                raise bad from None
            if math.isfinite(f):
                return f
        raise bad
    raise bad  # pragma: no cover - only the four types are allowed


def _short(value: Any) -> str:
    """A repr for messages, at most 60 characters; never raises (huge ints, deep nesting)."""
    if isinstance(value, int) and abs(value) > _INT_LIMIT:
        return f"<an integer of {value.bit_length():,} bits>"
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        return f"<{type(value).__name__}>"
    return text if len(text) <= 60 else text[:57] + "..."


def _parse_doc(doc: str) -> tuple[str, dict[str, str]]:
    doc = inspect.cleandoc(doc or "")
    summary, _, rest = doc.partition("\nArgs:\n")
    params: dict[str, str] = {}
    current = None
    for line in rest.splitlines():
        m = re.match(r"^\s{2,}(\w+):\s*(.*)$", line)
        if m and (current is None or len(line) - len(line.lstrip()) <= 4):
            current = m.group(1)
            params[current] = m.group(2).strip()
        elif current and line.strip():
            params[current] += " " + line.strip()
    return " ".join(summary.split()), params


def _unwrap(annotation: Any) -> tuple[type, bool]:
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        members = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(members) == 1 and members[0] in _JSON_TYPES:
            return members[0], True
    if annotation in _JSON_TYPES:
        return annotation, False
    raise TypeError(f"unsupported tool parameter annotation {annotation!r}")


def tool(fn: Callable[..., ToolResult]) -> ToolSpec:
    """Turn ``fn(ctx, ...)`` into a :class:`ToolSpec` (see module docstring)."""
    summary, docs = _parse_doc(fn.__doc__ or "")
    hints = typing.get_type_hints(fn)
    params = []
    for i, (name, prm) in enumerate(inspect.signature(fn).parameters.items()):
        if i == 0:
            continue  # the context
        typ, nullable = _unwrap(hints[name])
        if name not in docs:
            raise TypeError(f"tool {fn.__name__}: parameter '{name}' is not documented")
        required = prm.default is inspect.Parameter.empty
        params.append(
            Param(
                name=name,
                type=typ,
                description=docs[name],
                required=required,
                default=None if required else prm.default,
                nullable=nullable,
            )
        )
    return ToolSpec(name=fn.__name__, description=summary, params=tuple(params), fn=fn)
