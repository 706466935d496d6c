"""Episode trajectories as JSON Lines, one record per reset/step, flushed as written.

Record types: ``reset`` (task, seed, data source, observation, system prompt,
tools), ``step`` (step index, the action as given, the parsed call, observation,
reward, terminated/truncated, timings, a subset of info, the grade at the end).
A crash loses at most the record being written.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any


def _jsonable(value: Any) -> Any:
    try:
        json.dumps(value)
        return value
    except (TypeError, ValueError):
        return repr(value)


class TrajectoryWriter:
    """Appends JSON records to a file, one line each, flushing after every record."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - long-lived
        self._lock = threading.Lock()

    def write(self, record: dict[str, Any]) -> None:
        """Append one record (non-JSON values are stored as their repr)."""
        line = json.dumps({k: _jsonable(v) for k, v in record.items()}, ensure_ascii=False)
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
