"""The ``render_mode="ansi"`` transcript of an episode: terminal-safe and bounded.

An entry is a list of parts, each a line written by the program (a heading such as
``--- step 3: execute {...}``) and optionally a body of agent-produced text (an
observation). Headings are escaped onto one line (:func:`~mle_gym.textsafe.escape_line`:
an agent-chosen tool name or argument cannot start a new line); bodies are escaped and
every one of their lines starts with ``| `` (:func:`~mle_gym.textsafe.quote_block`). So
every line that does not start with ``| `` was written by the program, and the agent
cannot forge one ("Reward: 1.0" printed by the agent shows as ``| Reward: 1.0``).

Memory is bounded: the transcript keeps the first entry (the task) and the latest
entries that fit in ``max_chars`` characters (default :data:`MAX_TRANSCRIPT_CHARS`); the
oldest steps are dropped and :meth:`Transcript.text` says how many. Each heading and
each escaped body is cut to ``max_chars // 4`` characters (a body loses its middle, with
a marker; its remaining lines all keep their ``| ``), so the transcript holds at most
``max_chars`` characters plus its first entry plus the latest one. Escaping happens when
an entry is added, in linear time.
"""

from __future__ import annotations

from collections import deque

from mle_gym.textsafe import escape_line, quote_block

MAX_TRANSCRIPT_CHARS = 1_000_000
_PART_SHARE = 4  # a heading or a body keeps at most max_chars // 4 characters

Part = tuple[str, "str | None"]


def _quoted(body: str, limit: int) -> str:
    """``body`` quoted (escaped, every line prefixed) in at most about ``limit`` characters:
    the middle is left out, and the kept tail starts at a quoted line."""
    if len(body) > limit:  # bound the escaping work first (escapes only lengthen)
        body = body[: limit // 2] + "\n" + body[len(body) - limit // 2 :]
    quoted = quote_block(body)
    if len(quoted) <= limit:
        return quoted
    half = limit // 2
    cut = quoted.find("\n", len(quoted) - half)
    tail = quoted[cut + 1 :] if cut != -1 else ""
    return f"{quoted[:half]}\n[... part of this output is left out of the transcript ...]\n{tail}"


class Transcript:
    """A bounded, terminal-safe episode transcript (see the module docstring)."""

    def __init__(self, max_chars: int = MAX_TRANSCRIPT_CHARS) -> None:
        if max_chars < 1000:
            raise ValueError(f"max_chars must be at least 1000, got {max_chars}")
        self.max_chars = int(max_chars)
        self._first = ""
        self._entries: deque[str] = deque()
        self._chars = 0
        self.dropped = 0

    def _render(self, parts: tuple[Part, ...]) -> str:
        limit = self.max_chars // _PART_SHARE
        lines = []
        for heading, body in parts:
            lines.append(escape_line(heading[:limit])[:limit])
            if body is not None:
                lines.append(_quoted(body, limit))
        return "\n".join(lines)

    def start(self, *parts: Part) -> None:
        """Begin a new episode's transcript with ``parts`` (forgets the previous one)."""
        self._first = self._render(parts)
        self._entries.clear()
        self._chars = 0
        self.dropped = 0

    def add(self, *parts: Part) -> None:
        """Append an entry; drop the oldest entries (not the first) beyond the budget."""
        entry = self._render(parts)
        self._entries.append(entry)
        self._chars += len(entry) + 2
        budget = self.max_chars - len(self._first)
        while self._chars > budget and len(self._entries) > 1:
            self._chars -= len(self._entries.popleft()) + 2
            self.dropped += 1

    @property
    def chars(self) -> int:
        """Characters held (the first entry included)."""
        return len(self._first) + self._chars

    def text(self) -> str:
        """The transcript: the first entry, a note if steps were dropped, the rest."""
        blocks = [self._first] if self._first else []
        if self.dropped:
            blocks.append(
                f"[... {self.dropped:,} earlier entries dropped: the transcript keeps at most "
                f"{self.max_chars:,} characters ...]"
            )
        blocks.extend(self._entries)
        return "\n\n".join(blocks) + "\n"
