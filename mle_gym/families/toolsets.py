"""Toolsets: the tools an episode offers, how actions are read, and how results go back.

The default toolset is mle_gym's own (:data:`mle_gym.tools.builtin.BUILTIN_TOOLS`,
actions read by :func:`mle_gym.tools.parsing.parse_action`). A family may offer
others (e.g. MLAgentBench's action set with its ``Action:`` / ``Action Input:``
text format) — chosen with ``gym.make(..., toolset=NAME)``.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mle_gym.spaces import ToolCallSpace
from mle_gym.tools.builtin import BUILTIN_TOOLS, ToolContext
from mle_gym.tools.parsing import ToolCall, parse_action
from mle_gym.tools.spec import ToolSpec


def tool_response_block(text: str) -> str:
    """The user turn answering a text tool call (Hermes/Qwen chat templates)."""
    return f"<tool_response>\n{text}\n</tool_response>"


def error_observation(exc: Exception) -> str:
    """The observation for an action that could not be read or run."""
    return f"error: {exc}"


@dataclass(frozen=True)
class Toolset:
    """A named set of tools and the conventions around them.

    * ``parse(action) -> ToolCall`` raises :class:`~mle_gym.tools.parsing.ActionError`
      for anything it cannot read (the message is shown to the agent);
    * ``lookup(name)`` finds a tool by the name in a call (None if unknown);
    * ``text_result(text)`` is the user message answering a call made in raw text;
    * ``error_text(exc)`` is the observation for an unreadable action or bad arguments
      (``ActionError``, ``ToolArgError``, ``FsError``);
    * ``context_class`` is the :class:`ToolContext` (sub)class the tools expect,
      built by the env with the standard fields (subclasses add defaulted fields
      for per-episode state);
    * ``action_space`` builds the env's action space (its ``sample()`` must be a
      valid, harmless call in this toolset's format).
    """

    name: str
    tools: tuple[ToolSpec, ...]
    system_prompt: str
    parse: Callable[[Any], ToolCall] = parse_action
    text_result: Callable[[str], str] = tool_response_block
    context_class: type[ToolContext] = ToolContext
    action_space: Callable[[tuple[str, ...]], ToolCallSpace] = ToolCallSpace
    normalize_name: Callable[[str], str] | None = None
    error_text: Callable[[Exception], str] = error_observation

    def lookup(self, name: str) -> ToolSpec | None:
        """The tool a call names (exactly, or after ``normalize_name`` if set)."""
        for spec in self.tools:
            if spec.name == name:
                return spec
        if self.normalize_name is not None:
            wanted = self.normalize_name(name)
            for spec in self.tools:
                if self.normalize_name(spec.name) == wanted:
                    return spec
        return None

    @property
    def names(self) -> tuple[str, ...]:
        """Tool names in order."""
        return tuple(t.name for t in self.tools)


def system_prompt(tools: list[ToolSpec]) -> str:
    """The default toolset's system prompt: role, rules of the environment, the tools
    and the tool-call format."""
    lines = [
        "You are an expert machine-learning engineer working alone in a sandboxed Linux "
        "workspace. Solve the task you are given by inspecting the data, writing and running "
        "code, and producing the requested submission file.",
        "",
        "Rules of this environment:",
        "- Your working directory is /workspace. The task's data is in /workspace/data "
        "(read-only). There is no internet access.",
        "- Act by calling exactly one tool per turn. Each call costs one step of your budget.",
        "- validate_submission checks the format of your submission; it never reveals a score.",
        "- Call submit when your submission file is ready; it is graded and the episode ends. "
        "If your budget runs out first, the submission file as it is then is graded.",
        "",
        "Tools:",
    ]
    for t in tools:
        lines.append(f"- {t.signature_line()}: {t.description}")
    example = json.dumps({"name": "execute", "arguments": {"command": "ls data"}})
    lines += [
        "",
        "If your interface has no native tool calling, answer with one block:",
        f"<tool_call>{example}</tool_call>",
    ]
    return "\n".join(lines)


@functools.cache
def default_toolset() -> Toolset:
    """mle_gym's own tools (list/read/write/edit files, execute, python, validate, submit)."""
    return Toolset(
        name="default",
        tools=BUILTIN_TOOLS,
        system_prompt=system_prompt(list(BUILTIN_TOOLS)),
    )
