"""Where an evaluation run keeps its files, and how they are written safely.

Layout of a run directory::

    RUN_DIR/
      config.json               settings and plan of the run (see config.py)
      .lock                     flock-ed by the process coordinating the run
      logs/                     stray output of local worker processes
      episodes/<task_id>/seed-<k>/
        trajectory.jsonl        every reset/step (the env's trajectory_path)
        log.txt                 what the agent and env printed or logged
        final/                  the workspace at the end (code, submission; no data/)
        grade.json              the grade report (absent when there is none)
        episode.json            the episode record, written last and atomically
      report.json, report.md, plots/*.png

Contract: an episode is *finished* exactly when its ``episode.json`` exists and
parses as a record with a ``status``. Every JSON file here is written to a
temporary name in the same folder, fsync-ed and renamed into place, so a
process killed at any moment leaves either the old file, the new file, or a
stray temporary file — never a truncated ``episode.json``.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import math
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mle_gym.evaluation.errors import RunLocked

CONFIG_FILE = "config.json"
EPISODES_DIR = "episodes"
EPISODE_FILE = "episode.json"
GRADE_FILE = "grade.json"
TRAJECTORY_FILE = "trajectory.jsonl"
LOG_FILE = "log.txt"
FINAL_DIR = "final"
LOCK_FILE = ".lock"


def config_path(run_dir: Path) -> Path:
    """``RUN_DIR/config.json``."""
    return Path(run_dir) / CONFIG_FILE


def episode_dir(run_dir: Path | str, task_id: str, seed: int) -> Path:
    """``RUN_DIR/episodes/<task_id>/seed-<seed>``."""
    return Path(run_dir) / EPISODES_DIR / task_id / f"seed-{int(seed)}"


def task_id_of(env_id: str) -> str:
    """``MLEBench/spaceship-titanic-v0`` -> ``spaceship-titanic`` (ids pass through)."""
    name = env_id.split(":", 1)[-1].split("/", 1)[-1]
    base, sep, version = name.rpartition("-v")
    return base if sep and version.isdigit() else name


def _finite(value: Any) -> Any:
    """``value`` with NaN and infinities replaced by None (strict JSON has neither)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


def write_json_atomic(path: Path, data: Any) -> None:
    """Write ``data`` as strict JSON to ``path`` via a temporary file, fsync and rename."""
    text = json.dumps(_finite(data), indent=2, default=str, allow_nan=False) + "\n"
    write_text_atomic(path, text)


def write_text_atomic(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` atomically (readers see the old or the new file)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}-{uuid.uuid4().hex[:8]}")
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def read_json(path: Path) -> Any | None:
    """The JSON content of ``path``, or None if it is missing or unreadable."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def read_episode_record(folder: Path) -> dict[str, Any] | None:
    """The finished episode's record, or None when the episode is not finished."""
    record = read_json(Path(folder) / EPISODE_FILE)
    if isinstance(record, dict) and record.get("status") in ("done", "failed"):
        return record
    return None


@contextlib.contextmanager
def run_lock(run_dir: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``RUN_DIR/.lock`` for the coordination of one run.

    The lock is an ``flock``: the kernel drops it when the holder dies (even by
    kill -9), so a crashed run never blocks its resumption. Raises
    :class:`RunLocked` when another live process holds it.
    """
    path = Path(run_dir) / LOCK_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 64, 0).decode(errors="replace").strip() or "?"
            raise RunLocked(
                f"{run_dir} is being evaluated by another process (pid {holder}); "
                "wait for it to end or stop it first"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(fd)
