"""ML-Bench's options are typed and checked strictly when the env is made: a bad value is
a ValueError naming the option, a good one reaches the env's settings normalised."""

from __future__ import annotations

import math
import typing
from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest

import mle_gym
from mle_gym.families import make_family
from mle_gym.families.mlbench.options import MLBenchConfig, MLBenchOptions
from mle_gym.families.mlbench.pins import DEFAULT_COMMIT, ENV_COMMIT, ENV_URL, Superproject
from mle_gym.tasks import get_task

ENV_ID = "MLBench/tabkit-v0"


def _config(**options: Any) -> MLBenchConfig:
    config: MLBenchConfig = make_family(get_task(ENV_ID), options).config  # type: ignore[attr-defined]
    return config


def test_every_option_has_a_type() -> None:
    hints = typing.get_type_hints(MLBenchOptions)
    untyped = [name for name in MLBenchOptions.model_fields if "Any" in repr(hints[name])]
    assert untyped == []


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("source", None, r"source must be one of \('bundled', 'hf'\) or the path"),
        ("source", 3, r"source must be .*, got 3"),
        ("source", " ", r"source must be"),
        ("split", "most", r"split must be one of \('full', 'quarter'"),
        ("split", None, r"split must be one of"),
        ("repo", 3, r"repo must be a repository name \(a string\) or None, got 3"),
        ("repo", "", r"repo must be a repository name"),
        ("context", "all", r"context must be one of \('none', 'oracle', 'readme'\)"),
        ("compat", "yes", r"compat must be None or 'mlbench', got 'yes'"),
        ("compat", True, r"compat must be None or 'mlbench'"),
        ("run_timeout_s", True, r"run_timeout_s must be a positive number \(seconds\), got True"),
        ("run_timeout_s", 0, r"run_timeout_s must be a positive number"),
        ("run_timeout_s", -5.0, r"run_timeout_s must be a positive number"),
        ("run_timeout_s", math.inf, r"run_timeout_s must be a positive number.*got inf"),
        ("run_timeout_s", math.nan, r"run_timeout_s must be a positive number.*got nan"),
        ("run_timeout_s", "10", r"run_timeout_s must be a positive number.*got '10'"),
        ("run_timeout_s", None, r"run_timeout_s must be a positive number"),
        ("show_arguments", 1, r"show_arguments must be True or False, got 1"),
        ("clone", 0, r"clone must be True or False, got 0"),
        ("allow_unpinned", "yes", r"allow_unpinned must be True or False, got 'yes'"),
        ("trace", None, r"trace must be True or False, got None"),
        ("repos", 3, r"repos must be a folder of repository checkouts .* got 3"),
        ("repos", {"dgl": 3}, r"repos must be .*mapping of repository names or URLs"),
        ("repos", {1: "/src/dgl"}, r"repos must be"),
        ("pins", {"dgl": 1}, r"pins must be a mapping of repository names or URLs to commits"),
        ("pins", ["abc1234"], r"pins must be a mapping"),
        ("superproject", "yes", r"superproject must be a Superproject or a bool, or the git"),
        ("superproject", 1, r"superproject must be a Superproject or a bool"),
        ("superproject", None, r"superproject must be a Superproject or a bool"),
        ("superproject", Path("/no/such/ML-Bench"), r"superproject must be .*no/such"),
    ],
)
def test_a_bad_value_names_the_option(name: str, value: Any, message: str) -> None:
    with pytest.raises(ValueError, match=rf"^{ENV_ID}: {message}"):
        make_family(get_task(ENV_ID), {name: value})


def test_bad_values_are_refused_by_gym_make() -> None:
    mle_gym.register_all()
    with pytest.raises(ValueError, match=rf"{ENV_ID}: trace must be True or False, got 'yes'"):
        gym.make(ENV_ID, trace="yes", sandbox="unsafe-local")
    with pytest.raises(ValueError, match=rf"{ENV_ID}: unknown option 'trcae'; known: source"):
        gym.make(ENV_ID, family_options={"trcae": True}, sandbox="unsafe-local")


def test_good_values_are_normalised(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_URL, raising=False)
    monkeypatch.delenv(ENV_COMMIT, raising=False)
    assert _config() == _config(repo=None, compat=None, pins=None, repos=None)
    cfg = _config(
        source=tmp_path,
        run_timeout_s=5,
        pins={"dgl": "abc1234"},
        repos=tmp_path,
        trace=False,
        split="quarter",
        repo="tabkit",
    )
    assert cfg.source == str(tmp_path) and isinstance(cfg.source, str)
    assert cfg.run_timeout_s == 5.0 and isinstance(cfg.run_timeout_s, float)
    assert cfg.pins == {"dgl": "abc1234"} and cfg.local_repos == tmp_path
    assert (cfg.trace, cfg.split, cfg.repo) == (False, "quarter", "tabkit")
    assert _config(repos={"dgl": str(tmp_path)}).local_repos == {"dgl": str(tmp_path)}
    # the superproject: a flag, a Superproject, or where a clone of ML-Bench is
    assert _config(superproject=False).superproject is False
    mine = Superproject(url="https://example.org/ML-Bench.git", ref="main")
    assert _config(superproject=mine).superproject is mine
    for location in (tmp_path, str(tmp_path)):
        sp = _config(superproject=location).superproject
        assert sp == Superproject(url=str(tmp_path), ref=DEFAULT_COMMIT)
    url = "https://example.org/lab/ML-Bench.git"
    monkeypatch.setenv(ENV_COMMIT, "v1.0")
    sp = _config(superproject=url).superproject
    assert isinstance(sp, Superproject) and (sp.url, sp.ref, sp.only) == (url, "v1.0", None)
