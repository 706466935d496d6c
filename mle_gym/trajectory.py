"""Episode trajectories as JSON Lines, one record per reset/step, flushed as written.

Record types: ``reset`` (task, seed, data source, observation, system prompt,
tools), ``step`` (step index, the action as given, the parsed call, observation,
reward, terminated/truncated, timings, a subset of info, the grade at the end).
A crash loses at most the record being written.
"""

from __future__ import annotations

import json
import math
import re
import threading
from pathlib import Path
from typing import Any

MAX_DEPTH = 64
_SURROGATE = re.compile("[\ud800-\udfff]")
_MAX_INT_BITS = 14_000  # Python refuses to print integers of more than 4,300 digits
_LINE_SEPARATORS = {0x85: "\\u0085", 0x2028: "\\u2028", 0x2029: "\\u2029"}


def _safe_repr(value: Any) -> str:
    try:
        return repr(value)
    except Exception:  # a hostile or broken __repr__
        return f"<{type(value).__name__}>"


def json_safe(value: Any, *, max_depth: int = MAX_DEPTH, keep_nonfinite: bool = False) -> Any:
    """A copy of ``value`` that ``json.dumps(..., ensure_ascii=False, allow_nan=False)``
    always writes, as valid UTF-8, whatever ``value`` is (e.g. an agent's raw action).

    JSON-ready values (str, int, float, bool, None, and dicts with str keys and lists of
    them) come back equal, except: unpaired surrogates in text become U+FFFD; NaN and
    infinities become the strings ``"nan"``/``"inf"``/``"-inf"``; integers too long to
    print become a short description. Tuples become lists, bytes are decoded as UTF-8
    (invalid bytes replaced), other dict keys become text, other objects their repr, and
    containers nested deeper than ``max_depth`` are cut with a marker. Never raises.

    ``keep_nonfinite=True`` keeps NaN and infinities as floats, for a writer that maps
    them itself (:func:`mle_gym.evaluation.layout.write_json_atomic` writes ``null``).
    """
    if isinstance(value, str):
        try:
            value.encode("utf-8")
            return value
        except UnicodeEncodeError:
            return _SURROGATE.sub("\ufffd", value)
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        if value.bit_length() > _MAX_INT_BITS:
            return f"<an integer of {value.bit_length():,} bits>"
        return int(value)
    if isinstance(value, float):
        return float(value) if keep_nonfinite or math.isfinite(value) else repr(float(value))
    if isinstance(value, bytes | bytearray):
        return bytes(value).decode("utf-8", errors="replace")
    if isinstance(value, dict | list | tuple):
        if max_depth <= 0:
            return "<nested too deeply>"
        if isinstance(value, dict):
            out: dict[str, Any] = {}
            for k, v in value.items():
                key = k if isinstance(k, str) else _safe_repr(k)
                out[json_safe(key)] = json_safe(
                    v, max_depth=max_depth - 1, keep_nonfinite=keep_nonfinite
                )
            return out
        return [json_safe(v, max_depth=max_depth - 1, keep_nonfinite=keep_nonfinite) for v in value]
    return json_safe(_safe_repr(value))


class TrajectoryWriter:
    """Appends JSON records to a file, one line each, flushing after every record."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - long-lived
        self._lock = threading.Lock()

    def write(self, record: dict[str, Any]) -> None:
        """Append one record (made JSON-safe with :func:`json_safe`)."""
        line = json.dumps(json_safe(record), ensure_ascii=False, allow_nan=False)
        # Unicode line separators stay escaped, so a line is a line for every reader
        # (str.splitlines and JavaScript split on these too); the JSON value is the same.
        line = line.translate(_LINE_SEPARATORS)
        with self._lock:
            self._file.write(line + "\n")
            self._file.flush()

    def close(self) -> None:
        with self._lock:
            if not self._file.closed:
                self._file.close()


def read_trajectory(path: Path) -> list[dict[str, Any]]:
    """All records of a trajectory file (a torn last line is skipped)."""
    records = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    return records
