"""What the wrapper reads from an episode: the task's public data and the candidates'
predictions, through the env's file-tool layer.

The env's file tools (``list_files``, ``read_file``, ...) run on the host through
:class:`mle_gym.tools.fs.SandboxFS`, which resolves every path exactly as the agent sees it
(``data/train.csv``, ``macro/preds/<move>.csv``) and never follows a link on the host. The
wrapper reads through that same layer, built from the env's public ``sandbox`` accessor,
rather than through a ``read_file`` tool call because a tool observation is capped at the
env's ``max_observation_chars`` (16,000 by default) while test predictions run to hundreds
of kilobytes, and every extra tool call would spend a step of the episode's budget. It never
uses a host path, the data store's layout or its manifest.
"""

from __future__ import annotations

import csv
import hashlib
import io
from dataclasses import dataclass
from typing import Any

from mle_gym.tools.fs import FsError, SandboxFS

#: The public data files a task needs to be playable through the wrapper.
REQUIRED_FILES = ("train.csv", "test.csv", "sample_submission.csv")
#: The sandbox-relative folder of the task's public data.
DATA_DIR = "data"
#: Largest file the wrapper reads (the whole file is read into memory).
MAX_READ_BYTES = 1 << 30


def sandbox_files(env: Any) -> SandboxFS:
    """The file view behind ``env``'s file tools (``MLEEnv.file_view``) for the current
    episode; raises RuntimeError before ``reset``."""
    fs = env.unwrapped.file_view
    if fs is None:
        raise RuntimeError("the wrapped env has no live episode; call reset() first")
    return fs


def read_bytes(fs: SandboxFS, path: str) -> bytes | None:
    """A whole regular file (sandbox-relative path), or None if it is missing, not a regular
    file or larger than :data:`MAX_READ_BYTES`."""
    try:
        data, size = fs.read_bytes(path, MAX_READ_BYTES + 1)
    except FsError:
        return None
    return data if size <= MAX_READ_BYTES and len(data) == size else None


def read_text(fs: SandboxFS, path: str) -> str | None:
    """:func:`read_bytes` decoded as UTF-8 (None if it is not valid UTF-8)."""
    data = read_bytes(fs, path)
    if data is None:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def csv_header(data: bytes) -> list[str]:
    """The column names of a CSV file's content (empty for an empty file); only the first
    record is decoded."""
    text = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="replace", newline="")
    return next(csv.reader(text), [])


@dataclass(frozen=True)
class TaskData:
    """The public data of an episode as the wrapper needs it."""

    digest: str
    """sha256 (24 hex digits) over the names and bytes of :data:`REQUIRED_FILES`."""
    sample_submission: str
    """The sample submission's text (submitted when no candidate was fitted)."""


def load_task_data(fs: SandboxFS, task_id: str) -> TaskData:
    """Check that the episode's data is a supported tabular task and checksum it.

    Raises ``ValueError`` naming what is missing: one of :data:`REQUIRED_FILES`, or the
    sample submission's target columns (all but its first, the id) in ``train.csv``.
    """
    contents: dict[str, bytes] = {}
    missing = []
    for name in REQUIRED_FILES:
        data = read_bytes(fs, f"{DATA_DIR}/{name}")
        if data is None:
            missing.append(name)
        else:
            contents[name] = data
    if missing:
        raise ValueError(
            f"MacroActionWrapper needs {', '.join(REQUIRED_FILES)} in the task's data; "
            f"{task_id} has no {', '.join(missing)}"
        )
    sample = csv_header(contents["sample_submission.csv"])
    train = set(csv_header(contents["train.csv"]))
    absent = [c for c in sample[1:] if c not in train]
    if len(sample) < 2 or absent:
        raise ValueError(
            f"MacroActionWrapper needs the sample submission's target columns in train.csv; "
            f"{task_id}: {absent or 'no target column'}"
        )
    try:
        sample_text = contents["sample_submission.csv"].decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{task_id}: sample_submission.csv is not UTF-8 text") from None
    h = hashlib.sha256()
    for name in REQUIRED_FILES:
        h.update(name.encode())
        h.update(contents[name])
    return TaskData(digest=h.hexdigest()[:24], sample_submission=sample_text)
