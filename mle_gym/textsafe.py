"""Agent-produced text made safe to show on a terminal (human display only).

Text that came from the agent (tool output, actions, file names, grader messages quoting
a submission) may hold terminal control sequences: ANSI/CSI escapes (clear the screen,
move the cursor, recolour), OSC sequences (set the window title, write the clipboard
with OSC 52, hyperlinks with OSC 8), BEL, a carriage return or backspaces that overwrite
what was printed, and Unicode bidi controls that reorder a line as displayed. Printed
raw they act on the operator's terminal; escaped they are inert and visible.

Contract of :func:`escape_text`: every C0 control character except newline and tab
(U+0000-U+001F), DEL (U+007F), every C1 control (U+0080-U+009F), the bidi controls
(U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), invisible characters that hide
or split text (U+200B, U+2060, U+FEFF, U+2028, U+2029) and lone surrogates (which
cannot be encoded for output) are replaced by a visible escape: ``\\r`` for a carriage
return, ``\\x1b`` for other code points below U+0100, ``\\u202e`` for the others.
Everything else, backslashes included, is kept as is, so ordinary text and code read
unchanged. It runs in linear time (one regular-expression scan for a single character
class, no backtracking) and returns the same object when nothing needs escaping.

:func:`escape_line` also escapes newlines (``\\n``), for text that must stay on one
line. :func:`quote_block` escapes and prefixes every line with ``| `` — the mark of
agent-produced text in ``mle-gym run`` and ``render()`` output, so a line the agent
printed (say ``Reward: 1.0``) can never pass for one the program printed itself.

These functions are for display. Data files (trajectories, ``episode.json``) keep
the exact text; :func:`json_for_terminal` is JSON that is also safe to print.
"""

from __future__ import annotations

import json
import re
from typing import Any, TextIO

QUOTE = "| "

_UNSAFE_CLASS = (
    "\x00-\x08\x0b-\x1f\x7f-\x9f"  # C0 except \t \n, DEL, C1
    "\u061c\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060\u2066-\u2069\ufeff"
    "\ud800-\udfff"  # lone surrogates (a str from surrogateescape or a JSON \ud83d)
)
_UNSAFE = re.compile(f"[{_UNSAFE_CLASS}]")
_UNSAFE_LINE = re.compile(f"[{_UNSAFE_CLASS}\n]")


_NAMED = {"\n": "\\n", "\r": "\\r"}


def _visible(match: re.Match[str]) -> str:
    char = match.group()
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escape_text(text: str) -> str:
    """``text`` with every terminal-unsafe character shown as an escape; newlines and
    tabs kept (see the module docstring)."""
    if _UNSAFE.search(text) is None:
        return text
    return _UNSAFE.sub(_visible, text)


def escape_line(text: str) -> str:
    """Like :func:`escape_text`, and newlines shown as ``\\n``: the result is one line."""
    if _UNSAFE_LINE.search(text) is None:
        return text
    return _UNSAFE_LINE.sub(_visible, text)


def quote_block(text: str, prefix: str = QUOTE) -> str:
    """``text`` escaped, with ``prefix`` at the start of every line (an empty text is one
    empty quoted line). No trailing newline is added."""
    return prefix + escape_text(text).replace("\n", "\n" + prefix)


def json_for_terminal(value: Any, *, indent: int | None = 2) -> str:
    """``json.dumps(value)`` that is safe to print: ASCII only (``ensure_ascii``), control
    characters and DEL escaped as ``\\u00XX``. It parses back to the same value."""
    return json.dumps(value, indent=indent, ensure_ascii=True, default=str).replace(
        "\x7f", "\\u007f"
    )


class SafeTextWriter:
    """A write-only text stream that escapes what is written to it (newlines and tabs
    kept) before passing it to ``stream``: for logs meant to be read with cat or less.

    Each unsafe sequence is escaped character by character, so escaping chunk by chunk
    gives the same result as escaping the whole text at once. Other attributes (``name``,
    ``closed``, ``buffer``...) are the stream's: bytes written to ``buffer`` directly are
    not escaped.
    """

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        """Write ``text`` escaped; returns ``len(text)`` as a text stream does."""
        self.stream.write(escape_text(text))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return False

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:
        return str(getattr(self.stream, "encoding", None) or "utf-8")

    def fileno(self) -> int:
        return int(self.stream.fileno())

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)
