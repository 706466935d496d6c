"""Small helpers shared by several modules (issue 14: one helper where code was repeated)."""

from __future__ import annotations

import json
import math
import os
import selectors
import shutil
import subprocess
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from mle_gym.data import store
from mle_gym.families.mlbench.pins import run_git, url_key
from mle_gym.sandbox import hostprocs
from mle_gym.sandbox.process import read_chunk
from mle_gym.textfmt import budget_line, duration
from mle_gym.tools.parsing import MAX_ACTION_CHARS, ActionError, decode_action
from mle_gym.trajectory import json_safe


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (0, "0 s"),
        (30, "30 s"),
        (59.5, "59.5 s"),
        (60, "1 min"),
        (90, "1.5 min"),
        (3600, "1 h"),
        (5400, "1.5 h"),
        (18000, "5 h"),
    ],
)
def test_duration(seconds: float, text: str) -> None:
    assert duration(seconds) == text


def test_budget_line() -> None:
    assert budget_line(50, 18000, 600) == (
        "- Budget: 50 steps and 5 h of wall-clock time; each command may run for at most 10 min."
    )


def test_json_safe_maps_nonfinite_to_text_unless_kept() -> None:
    value = {"score": math.nan, "runs": (1.0, math.inf), 3: b"x"}
    assert json_safe(value) == {"score": "nan", "runs": [1.0, "inf"], "3": "x"}
    kept = json_safe(value, keep_nonfinite=True)
    assert math.isnan(kept["score"]) and kept["runs"] == [1.0, math.inf] and kept["3"] == "x"
    json.dumps(json_safe(value), allow_nan=False)  # strict JSON without keep_nonfinite


def test_pid_exists() -> None:
    assert hostprocs.pid_exists(os.getpid())
    proc = subprocess.Popen(["true"])
    proc.wait()
    assert not hostprocs.pid_exists(proc.pid)  # reaped: gone


def test_read_chunk_data_eof_and_deadline() -> None:
    r, w = os.pipe()
    os.set_blocking(r, False)
    try:
        with selectors.DefaultSelector() as sel:
            sel.register(r, selectors.EVENT_READ)
            assert read_chunk(sel, r, time.monotonic() + 0.05) is None  # nothing written
            os.write(w, b"hello")
            assert read_chunk(sel, r, time.monotonic() + 30) == b"hello"
            os.close(w)
            w = -1
            assert read_chunk(sel, r, time.monotonic() + 30) == b""
    finally:
        os.close(r)
        if w >= 0:
            os.close(w)


def test_decode_action() -> None:
    assert decode_action("é".encode()) == "é"
    with pytest.raises(ActionError, match="not valid UTF-8"):
        decode_action(b"\xff")
    with pytest.raises(ActionError, match="longer than"):
        decode_action(b"x" * (4 * MAX_ACTION_CHARS + 1))


class _GitError(Exception):
    pass


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_run_git(tmp_path: Path) -> None:
    git = shutil.which("git") or "git"
    assert run_git(git, ["--version"], tmp_path, timeout_s=60, error=_GitError).startswith("git")
    with pytest.raises(_GitError, match=r"^`git rev-parse` of here failed: fatal: "):
        run_git(git, ["rev-parse", "HEAD"], tmp_path, timeout_s=60, error=_GitError, where="here")


def test_url_key() -> None:
    assert url_key(" https://GitHub.com/a/B.git/ ") == url_key("https://github.com/a/b")


def test_prepare_function(tmp_path: Path) -> None:
    module = SimpleNamespace(prepare=lambda: "done")
    task: Any = SimpleNamespace(key="mlebench/x", module=lambda name: module)
    assert store.prepare_function(task, "prepare")() == "done"
    with pytest.raises(store.DataNotPrepared, match=r"has no replica\(\) in prepare.py"):
        store.prepare_function(task, "replica")
    none: Any = SimpleNamespace(key="mlebench/y", module=lambda name: None)
    with pytest.raises(store.DataNotPrepared):
        store.prepare_function(none, "prepare")


def test_locked_creates_the_lock_file(tmp_path: Path) -> None:
    lock = tmp_path / "sub" / ".x.lock"
    with store.locked(lock):
        assert lock.is_file()
    with store.locked(lock):  # released: can be taken again
        pass
