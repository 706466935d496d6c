"""Names that moved in issue 14 keep working for one release, with a DeprecationWarning
naming the new place, and resolve to the very same objects."""

from __future__ import annotations

import importlib
import sys

import pytest

import mle_gym
from mle_gym import pool
from mle_gym.bench import context


def _forget(monkeypatch: pytest.MonkeyPatch, old: str) -> None:
    """Make the next import of module ``old`` run its shim again (restored after the test)."""
    parent, _, name = old.rpartition(".")
    monkeypatch.delitem(sys.modules, old, raising=False)
    monkeypatch.delattr(importlib.import_module(parent), name, raising=False)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("mle_gym.runner", "mle_gym.episode_runner"),
        ("mle_gym.evaluation.report", "mle_gym.evaluation.run_report"),
        ("mle_gym.grading.report", "mle_gym.grading.grade_report"),
    ],
)
def test_moved_module_warns_and_is_the_new_module(
    old: str, new: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _forget(monkeypatch, old)
    with pytest.warns(DeprecationWarning, match=f"{old} is deprecated: it moved to {new};"):
        module = importlib.import_module(old)
    assert module is importlib.import_module(new)
    assert sys.modules[old] is module


def test_old_module_attribute_patches_the_new_one(monkeypatch: pytest.MonkeyPatch) -> None:
    _forget(monkeypatch, "mle_gym.runner")
    with pytest.warns(DeprecationWarning):
        from mle_gym import runner
    from mle_gym import episode_runner

    assert runner.run_episode is episode_runner.run_episode
    assert runner.EpisodeResult is episode_runner.EpisodeResult


@pytest.mark.parametrize(
    ("module", "old", "new"),
    [
        (mle_gym, "EnvPool", "EpisodePool"),
        (pool, "EnvPool", "EpisodePool"),
        (context, "FAMILIES", "GROUPS"),
        (importlib.import_module("mle_gym.bench"), "FAMILIES", "GROUPS"),
    ],
    ids=["mle_gym.EnvPool", "mle_gym.pool.EnvPool", "bench.context.FAMILIES", "bench.FAMILIES"],
)
def test_renamed_attribute_warns_from_the_callers_line(module: object, old: str, new: str) -> None:
    name = getattr(module, "__name__", "")
    with pytest.warns(DeprecationWarning, match=f"{name}.{old} is deprecated") as record:
        value = getattr(module, old)
    assert value is getattr(module, new)
    assert f"renamed {name}.{new}" in str(record[0].message)
    assert record[0].filename == __file__


def test_from_import_of_the_old_pool_name() -> None:
    with pytest.warns(DeprecationWarning, match="EpisodePool"):
        from mle_gym import EnvPool

        assert EnvPool is mle_gym.EpisodePool


def test_unknown_names_still_raise_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'NoSuchThing'"):
        _ = mle_gym.NoSuchThing  # type: ignore[attr-defined]
    assert not hasattr(pool, "NoSuchPool")
    assert "EnvPool" not in mle_gym.__all__


def test_removed_cli_modules_are_gone() -> None:
    for old in ("mle_gym.evaluation.cli", "mle_gym.bench.cli"):
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module(old)
