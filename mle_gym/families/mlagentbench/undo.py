"""The edit backups behind MLAgentBench's "Undo Edit Script", with a per-episode cap.

Backups live in host memory, so they are bounded per episode: at most
:data:`MAX_VERSIONS_PER_FILE` versions of one file and :data:`MAX_TOTAL_BYTES` bytes
over all files. Past either cap the oldest backups are dropped first; a previous
content larger than the whole budget is not kept at all. Whenever a backup is not kept
(or an older one is dropped to make room), :meth:`UndoStore.push` returns a sentence
for the observation, so the agent knows that Undo is not available for that edit.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

#: Bytes of backups one episode may hold (over all files).
MAX_TOTAL_BYTES = 64 * 2**20
#: Versions of one file Undo can step back through.
MAX_VERSIONS_PER_FILE = 20


def _mib(n: int) -> str:
    """``n`` bytes, in MiB when that is exact."""
    return f"{n // 2**20} MiB" if n and n % 2**20 == 0 else f"{n:,} bytes"


@dataclass
class UndoStore:
    """Per-episode backups: path -> stack of previous contents (see module docstring)."""

    max_total_bytes: int = MAX_TOTAL_BYTES
    max_versions: int = MAX_VERSIONS_PER_FILE
    _stacks: dict[str, list[int]] = field(default_factory=dict)
    _data: OrderedDict[int, tuple[str, bytes]] = field(default_factory=OrderedDict)
    _next: int = 0
    total_bytes: int = 0

    def __post_init__(self) -> None:
        if self.max_total_bytes < 0 or self.max_versions < 1:
            raise ValueError("UndoStore needs max_total_bytes >= 0 and max_versions >= 1")

    def __len__(self) -> int:
        return len(self._data)

    def versions(self, path: str) -> int:
        """How many edits of ``path`` can be undone."""
        return len(self._stacks.get(path, ()))

    def push(self, path: str, content: bytes) -> str | None:
        """Keep ``content`` as the latest backup of ``path``; None, or why Undo will not
        be able to restore it (or older versions) — a sentence for the observation."""
        size = len(content)
        if size > self.max_total_bytes:
            return (
                f"Undo Edit Script is not available for this edit: the previous content of "
                f"{path} ({size:,} bytes) is larger than the undo memory cap "
                f"({_mib(self.max_total_bytes)} per episode), so no backup was kept."
            )
        stack = self._stacks.get(path, [])
        while len(stack) >= self.max_versions:  # the depth limit: the oldest version goes
            self._drop(stack[0])
        dropped_other = 0
        while self.total_bytes + size > self.max_total_bytes:
            self._drop(next(iter(self._data)))
            dropped_other += 1
        key = self._next
        self._next += 1
        self._data[key] = (path, content)
        self._stacks.setdefault(path, []).append(key)
        self.total_bytes += size
        if dropped_other:
            return (
                f"Undo keeps at most {_mib(self.max_total_bytes)} of backups per episode: "
                f"the {dropped_other} oldest backup(s) were dropped to keep this one, so "
                "Undo Edit Script is not available for those older edits."
            )
        return None

    def pop(self, path: str) -> bytes | None:
        """The latest backup of ``path`` (removed), or None if there is none."""
        stack = self._stacks.get(path)
        if not stack:
            return None
        key = stack.pop()
        if not stack:
            del self._stacks[path]
        _, content = self._data.pop(key)
        self.total_bytes -= len(content)
        return content

    def _drop(self, key: int) -> None:
        path, content = self._data.pop(key)
        self.total_bytes -= len(content)
        stack = self._stacks[path]
        stack.remove(key)
        if not stack:
            del self._stacks[path]
