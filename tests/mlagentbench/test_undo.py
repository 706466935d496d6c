"""Undo Edit Script's backups: capped per episode, with a clear observation past the cap."""

from __future__ import annotations

import json

import gymnasium as gym
import pytest

import mle_gym  # noqa: F401
from mle_gym.families.mlagentbench.undo import (
    MAX_TOTAL_BYTES,
    MAX_VERSIONS_PER_FILE,
    UndoStore,
)


def test_the_documented_caps() -> None:
    assert MAX_TOTAL_BYTES == 64 * 2**20 and MAX_VERSIONS_PER_FILE == 20
    store = UndoStore()
    assert store.max_total_bytes == MAX_TOTAL_BYTES and store.max_versions == 20


def test_versions_per_file_are_capped_oldest_first() -> None:
    store = UndoStore(max_total_bytes=10_000, max_versions=3)
    for i in range(5):
        assert store.push("/workspace/a.py", f"v{i}".encode()) is None
    assert store.versions("/workspace/a.py") == 3
    assert [store.pop("/workspace/a.py") for _ in range(4)] == [b"v4", b"v3", b"v2", None]
    assert store.total_bytes == 0 and len(store) == 0


def test_total_bytes_are_capped_oldest_dropped_first_with_a_message() -> None:
    store = UndoStore(max_total_bytes=100, max_versions=20)
    assert store.push("/workspace/a", b"a" * 40) is None
    assert store.push("/workspace/b", b"b" * 40) is None
    note = store.push("/workspace/a", b"A" * 40)  # 120 > 100: the oldest (a's first) goes
    assert note is not None and "at most 100 bytes of backups per episode" in note
    assert "1 oldest backup(s) were dropped" in note and "not available" in note
    assert store.total_bytes == 80 and store.versions("/workspace/a") == 1
    assert store.pop("/workspace/a") == b"A" * 40 and store.pop("/workspace/a") is None
    assert store.pop("/workspace/b") == b"b" * 40


def test_a_backup_larger_than_the_budget_is_not_kept() -> None:
    store = UndoStore(max_total_bytes=100)
    store.push("/workspace/small", b"s")
    note = store.push("/workspace/big", b"x" * 101)
    assert note is not None
    assert "Undo Edit Script is not available for this edit" in note
    assert "(101 bytes) is larger than the undo memory cap" in note
    assert store.versions("/workspace/big") == 0 and store.total_bytes == 1


def test_bad_caps_are_refused() -> None:
    with pytest.raises(ValueError, match="max_versions >= 1"):
        UndoStore(max_versions=0)


@pytest.mark.slow
@pytest.mark.sandbox
def test_undo_past_the_cap_through_the_env(backend: str) -> None:
    """Two one-byte appends to a 40 MB file: only the latest backup fits in 64 MiB, the
    observation says so, Undo restores that one and then has nothing left."""
    env = gym.make("MLAgentBench/vectorization-v0", sandbox=backend, toolset="mlagentbench")
    try:
        env.reset(seed=0)

        def act(name: str, **args: object) -> str:
            return env.step(f"Action: {name}\nAction Input: {json.dumps(args)}")[0]

        act("Write File", file_name="gen.py", content="open('big.txt','w').write('a' * 40_000_000)")
        act("Execute Script", script_name="gen.py")
        first = act("Append File", file_name="big.txt", content="b")
        assert "appended successfully" in first and "Undo" not in first
        second = act("Append File", file_name="big.txt", content="c")
        assert "Undo keeps at most 64 MiB of backups per episode" in second
        assert "Undo Edit Script is not available for those older edits" in second
        undone = act("Undo Edit Script", script_name="big.txt")
        assert "after undo the most recent edit" in undone
        check = act(
            "Write File",
            file_name="size.py",
            content="import os\nprint(os.path.getsize('big.txt'))",
        )
        assert "written successfully" in check
        assert "40000001" in act("Execute Script", script_name="size.py")
        assert "There is no change to undo." in act("Undo Edit Script", script_name="big.txt")
    finally:
        env.close()
