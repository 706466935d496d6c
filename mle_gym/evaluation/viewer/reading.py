"""Bounded reading for the viewer: JSON files and file prefixes of at most a size, text
decoding that tells text from binary, and JSON values cut down for display.

Nothing here follows a link to a file (:func:`read_prefix` opens with ``O_NOFOLLOW``) or
raises on a missing or unreadable file: problems come back as values or messages.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from mle_gym.evaluation.viewer.model import Limits

MAX_ITEMS = 100  # items of a dict or list shown in a table value


def read_json(path: Path, max_bytes: int) -> tuple[Any, str | None]:
    """(content, None), (None, None) if ``path`` is missing, or (None, the problem)."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        return None, f"{path.name} is not readable: {exc.strerror}"
    if size > max_bytes:
        return None, f"{path.name} is {size:,} bytes, more than the viewer reads ({max_bytes:,})"
    try:
        return json.loads(path.read_bytes()), None
    except OSError as exc:
        return None, f"{path.name} is not readable: {exc.strerror}"
    except ValueError as exc:
        return None, f"{path.name} is not valid JSON ({str(exc)[:200]})"


def read_prefix(path: Path, max_bytes: int) -> bytes | None:
    """At most ``max_bytes`` of the regular file ``path`` (never through a link)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        chunks, left = [], max_bytes
        while left > 0:
            chunk = os.read(fd, min(left, 2**20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def bounded(value: Any, chars: int, depth: int = 6) -> Any:
    """A copy of a JSON value with long strings cut (saying so) and at most
    :data:`MAX_ITEMS` items per container, ``depth`` levels deep."""
    if isinstance(value, str):
        if len(value) <= chars:
            return value
        return value[:chars] + f" [… {len(value) - chars:,} characters cut]"
    if isinstance(value, dict | list) and depth <= 0:
        return "[… nested too deeply]"
    if isinstance(value, dict):
        out = {
            str(k)[:200]: bounded(v, chars, depth - 1) for k, v in list(value.items())[:MAX_ITEMS]
        }
        if len(value) > MAX_ITEMS:
            out["…"] = f"{len(value) - MAX_ITEMS:,} more entries cut"
        return out
    if isinstance(value, list):
        items = [bounded(v, chars, depth - 1) for v in value[:MAX_ITEMS]]
        if len(value) > MAX_ITEMS:
            items.append(f"[… {len(value) - MAX_ITEMS:,} more items cut]")
        return items
    return value


def first_dict(*values: Any, limits: Limits) -> dict[str, Any] | None:
    """The first non-empty dict of ``values``, :func:`bounded`; None if there is none."""
    for value in values:
        if isinstance(value, dict) and value:
            kept: dict[str, Any] = bounded(value, limits.value_chars)
            return kept
    return None


def as_text(value: Any) -> str:
    """A string as is, None as empty text, anything else as JSON."""
    if value is None:
        return ""
    return value if isinstance(value, str) else json_text(value)


def text_or_none(value: Any) -> str | None:
    """:func:`as_text`, but None stays None."""
    return None if value is None else as_text(value)


def json_text(value: Any) -> str:
    """``value`` as one line of JSON (non-ASCII kept; unknown objects as their str)."""
    return json.dumps(value, ensure_ascii=False, default=str)


def number(value: Any) -> float | None:
    """An int or float as a float; None for anything else (bools included)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def decode_text(data: bytes, *, partial: bool) -> str | None:
    """``data`` as UTF-8 text, or None if it looks binary (a NUL, or invalid UTF-8 other
    than a character cut at the end of a partial read)."""
    if b"\x00" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if partial and exc.start >= len(data) - 3:
            return data[: exc.start].decode("utf-8", errors="replace")
        return None
