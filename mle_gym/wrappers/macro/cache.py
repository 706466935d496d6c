"""The host-side fit cache: one JSON file per (task, data, move, split, program version).

An entry holds the fit's result line, the sandbox seconds the fit took and its test
predictions (CSV text), so a later episode can replay the fit by writing the predictions
into its workspace instead of running the program. Files are written atomically (temp file
+ rename), so concurrent workers sharing a cache folder never read a partial entry; an
unreadable or mismatching file is a miss.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

#: Bumped when the entry format or the meaning of a key field changes.
CACHE_VERSION = 2


class FitCache:
    """Fit results under ``root/<task>/<variant>/<move>.<digest>.json``, with an in-memory
    layer in front (entries are immutable once written)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._memory: dict[str, dict[str, Any]] = {}

    @staticmethod
    def key(fields: dict[str, Any]) -> str:
        """The digest naming an entry with these key fields (JSON-serialisable values)."""
        payload = {"version": CACHE_VERSION, **fields}
        return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:20]

    def path(self, task_key: str, variant: str, move: str, digest: str) -> Path:
        """Where the entry lives on disk."""
        return self.root / task_key.replace("/", "__") / variant / f"{move}.{digest}.json"

    def get(
        self, task_key: str, variant: str, move: str, fields: dict[str, Any]
    ) -> dict[str, Any] | None:
        """The entry for these key fields (``result``, ``seconds``, ``predictions_csv``), or
        None on a miss."""
        digest = self.key(fields)
        if digest in self._memory:
            return self._memory[digest]
        try:
            entry = json.loads(self.path(task_key, variant, move, digest).read_text("utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(entry, dict) or entry.get("key_digest") != digest:
            return None
        self._memory[digest] = entry
        return entry

    def put(
        self,
        task_key: str,
        variant: str,
        move: str,
        fields: dict[str, Any],
        *,
        result: dict[str, Any],
        seconds: float,
        predictions_csv: str,
    ) -> None:
        """Store one fit (atomically replacing any entry with the same key)."""
        digest = self.key(fields)
        entry = {
            "key_digest": digest,
            "key": {"version": CACHE_VERSION, **fields},
            "result": result,
            "seconds": seconds,
            "predictions_csv": predictions_csv,
        }
        self._memory[digest] = entry
        path = self.path(task_key, variant, move, digest)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(entry, fh)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
