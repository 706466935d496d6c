"""Gymnasium spaces for free text.

gymnasium's ``Text`` space is built for short strings over a fixed charset (its
default rejects spaces and newlines), which does not fit tool calls or command
output. :class:`FreeText` accepts any ``str`` up to ``max_length`` characters.
:class:`ToolCallSpace` is the action space: any action form the env accepts
(see :mod:`mle_gym.tools.parsing`) is a member; ``sample()`` returns a valid,
harmless tool call (a workspace listing), so ``check_env`` and random agents
can step the env without side effects.
"""

from __future__ import annotations

import json
from typing import Any

from gymnasium import spaces


class FreeText(spaces.Space[str]):
    """Any Python string of at most ``max_length`` characters."""

    def __init__(self, max_length: int = 1_000_000, seed: int | None = None) -> None:
        super().__init__(shape=None, dtype=None, seed=seed)
        self.max_length = max_length

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def sample(self, mask: Any = None, probability: Any = None) -> str:
        """A short random printable string (observations are not sampled in practice)."""
        length = int(self.np_random.integers(0, 32))
        codes = self.np_random.integers(32, 127, size=length)
        return "".join(chr(int(c)) for c in codes)

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and len(x) <= self.max_length

    def __repr__(self) -> str:
        return f"FreeText(max_length={self.max_length})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FreeText) and other.max_length == self.max_length


class ToolCallSpace(FreeText):
    """Actions: a tool-call string or dict; ``sample()`` gives a harmless listing call."""

    def __init__(
        self, tool_names: tuple[str, ...], max_length: int = 1_000_000, seed: int | None = None
    ) -> None:
        super().__init__(max_length=max_length, seed=seed)
        self.tool_names = tool_names

    def sample(self, mask: Any = None, probability: Any = None) -> str:
        depth = int(self.np_random.integers(1, 3))
        return json.dumps({"tool": "list_files", "args": {"path": ".", "depth": depth}})

    def contains(self, x: Any) -> bool:
        if isinstance(x, dict):
            return True
        return super().contains(x)

    def __repr__(self) -> str:
        return f"ToolCallSpace(tools={list(self.tool_names)})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ToolCallSpace) and other.tool_names == self.tool_names


__all__ = ["FreeText", "ToolCallSpace"]
