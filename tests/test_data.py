"""Data preparation: MLE-bench's split, the Kaggle zip path, the cache's guarantees."""

from __future__ import annotations

import io
import json
import threading
import zipfile
from pathlib import Path

import gymnasium as gym
import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import train_test_split

from mle_gym.cli import main as cli
from mle_gym.data import kaggle, store
from mle_gym.data.csvio import read_csv_exact
from mle_gym.data.splits import train_test_split_like_sklearn
from mle_gym.families.mlebench import prepare as sources
from mle_gym.tasks import get_task

TASK = get_task("spaceship-titanic")


@pytest.mark.parametrize(
    ("n", "test_size"),
    [(8693, 0.1), (100, 0.25), (57, 0.33), (90, 0.3), (1000, 137), (5671, 1631 / 5671)],
)
def test_split_matches_sklearn_row_for_row(n: int, test_size: float) -> None:
    df = pd.DataFrame({"a": np.arange(n), "b": np.arange(n) * 2.5})
    ours = train_test_split_like_sklearn(df, test_size=test_size, random_state=0)
    theirs = train_test_split(df, test_size=test_size, random_state=0)
    for mine, ref in zip(ours, theirs, strict=True):
        pd.testing.assert_frame_equal(mine, ref)


def kaggle_layout_zip(path: Path, replica_home: Path) -> pd.DataFrame:
    """A zip laid out like Kaggle's spaceship-titanic download, built from generated data.

    Kaggle's zip holds train.csv (8,693 labelled rows), test.csv (unlabelled) and
    sample_submission.csv. We take a replica's rows as "Kaggle's train".
    """
    pub, priv = replica_home / "pub", replica_home / "priv"
    pub.mkdir(parents=True)
    priv.mkdir()
    TASK.module("prepare").replica(pub, priv, 11)
    train = pd.concat([pd.read_csv(pub / "train.csv"), pd.read_csv(priv / "test.csv")])
    train = train.sort_values("PassengerId").reset_index(drop=True)
    unlabeled = train.drop(columns=["Transported"]).head(50).copy()
    unlabeled["PassengerId"] = [f"{9500 + i:04d}_01" for i in range(50)]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("train.csv", train.to_csv(index=False))
        zf.writestr("test.csv", unlabeled.to_csv(index=False))
        sample = pd.DataFrame({"PassengerId": unlabeled["PassengerId"], "Transported": False})
        zf.writestr("sample_submission.csv", sample.to_csv(index=False))
    return train


def test_kaggle_zip_preparation_reproduces_mlebench_split(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MLE_GYM_HOME", str(tmp_path / "home"))
    zip_path = tmp_path / "spaceship-titanic.zip"
    kaggle_layout_zip(zip_path, tmp_path / "gen")

    assert cli(["prepare", "spaceship-titanic", "--from", str(zip_path)]) == 0
    assert "MLE-bench checksums: mismatch" in capsys.readouterr().out  # synthetic zip

    data = store.lookup(TASK, "kaggle")
    assert data is not None
    # What MLE-bench's preparer produces, computed independently with scikit-learn.
    with zipfile.ZipFile(zip_path) as zf:
        raw = read_csv_exact(io.BytesIO(zf.read("train.csv")))
    new_train, new_test = train_test_split(raw, test_size=0.1, random_state=0)
    expected_sample = new_test[["PassengerId"]].assign(Transported=False)
    assert (data.private / "test.csv").read_text() == new_test.to_csv(index=False)
    assert (data.public / "train.csv").read_text() == new_train.to_csv(index=False)
    assert (data.public / "test.csv").read_text() == new_test.drop(columns=["Transported"]).to_csv(
        index=False
    )
    assert (data.public / "sample_submission.csv").read_text() == expected_sample.to_csv(
        index=False
    )
    assert len(new_test) == 870 and len(new_train) == 7823
    assert sorted(p.name for p in data.public.iterdir()) == [
        "sample_submission.csv",
        "test.csv",
        "train.csv",
    ]
    assert (data.private.stat().st_mode & 0o777) == 0o700
    manifest = data.manifest()
    assert manifest["mlebench_checksums"] == "mismatch"
    assert set(manifest["files"]) == {
        "public/train.csv",
        "public/test.csv",
        "public/sample_submission.csv",
        "private/test.csv",
    }
    assert store.verify(data) == []

    # data="auto" now picks the Kaggle data, with leaderboard rewards.
    env = gym.make("MLEBench/spaceship-titanic-v0")
    try:
        _, info = env.reset(seed=0)
        assert info["data_source"] == "kaggle"
        env.step(
            {"tool": "execute", "args": {"command": "cp data/sample_submission.csv submission.csv"}}
        )
        _, reward, term, _, info = env.step({"tool": "submit", "args": {}})
        grade = info["grade"]
        assert term and grade["valid"] and info["reward_mode"] == "percentile"
        assert grade["gold_threshold"] == 0.82066 and grade["any_medal"] is False
        assert grade["percentile"] is not None and reward == grade["percentile"]
    finally:
        env.close()


def test_prepare_is_idempotent_and_verify_detects_tampering(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MLE_GYM_HOME", str(tmp_path))
    first = sources.prepare_replica(TASK, 5)
    stamp = first.manifest()["prepared_at"]
    again = sources.prepare_replica(TASK, 5)
    assert again.root == first.root and again.manifest()["prepared_at"] == stamp
    (first.public / "train.csv").write_text("tampered")
    assert store.verify(first) == ["modified: public/train.csv"]
    rebuilt = sources.prepare_replica(TASK, 5, force=True)
    assert store.verify(rebuilt) == []


def test_failed_preparation_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MLE_GYM_HOME", str(tmp_path))

    def broken(public: Path, private: Path) -> dict:
        (public / "half.csv").write_text("a\n")
        raise RuntimeError("disk on fire")

    with pytest.raises(RuntimeError, match="disk on fire"):
        store.build(TASK, "replica", "replica-seed99", broken)
    parent = store.variant_dir(TASK, "replica-seed99").parent
    leftovers = [p.name for p in parent.iterdir() if not p.name.endswith(".lock")]
    assert leftovers == []
    assert store.lookup(TASK, "replica", 99) is None


def test_concurrent_preparers_build_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MLE_GYM_HOME", str(tmp_path))
    calls = []

    def slow(public: Path, private: Path) -> dict:
        calls.append(1)
        (public / "x.csv").write_text("a\n1\n")
        return {}

    results: list[store.PreparedData] = []
    threads = [
        threading.Thread(target=lambda: results.append(store.build(TASK, "replica", "v", slow)))
        for _ in range(4)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1 and len({r.root for r in results}) == 1


def test_same_seed_same_replica_bytes_across_caches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hashes = []
    for name in ("a", "b"):
        monkeypatch.setenv("MLE_GYM_HOME", str(tmp_path / name))
        data = sources.prepare_replica(TASK, 3)
        hashes.append({k: v["sha256"] for k, v in data.manifest()["files"].items()})
    assert hashes[0] == hashes[1]
    monkeypatch.setenv("MLE_GYM_HOME", str(tmp_path / "c"))
    other = sources.prepare_replica(TASK, 4)
    assert {k: v["sha256"] for k, v in other.manifest()["files"].items()} != hashes[0]


def test_kaggle_data_missing_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MLE_GYM_HOME", str(tmp_path))
    with pytest.raises(store.DataNotPrepared, match="mle-gym prepare spaceship-titanic"):
        sources.resolve(TASK, "kaggle")
    with pytest.raises(store.DataNotPrepared, match="mle-gym prepare spaceship-titanic"):
        gym.make("MLEBench/spaceship-titanic-v0", data="kaggle")


def test_kaggle_download_without_credentials(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("KAGGLE_USERNAME", raising=False)
    monkeypatch.delenv("KAGGLE_KEY", raising=False)
    monkeypatch.delenv("KAGGLE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("KAGGLE_API_TOKEN", raising=False)
    monkeypatch.setenv("MLE_GYM_HOME", str(tmp_path / "home"))
    with pytest.raises(kaggle.KaggleError, match=r"--from PATH\.zip"):
        sources.prepare_kaggle(TASK)
    assert cli(["prepare", "spaceship-titanic"]) == 2
    assert store.lookup(TASK, "kaggle") is None


@pytest.mark.parametrize(
    ("members", "fragment"),
    [
        ({"../evil.csv": "x"}, "unsafe member path"),
        ({"/abs.csv": "x"}, "unsafe member path"),
    ],
)
def test_unsafe_zip_members_refused(tmp_path: Path, members: dict[str, str], fragment: str) -> None:
    zp = tmp_path / "z.zip"
    with zipfile.ZipFile(zp, "w") as zf:
        for name, text in members.items():
            zf.writestr(name, text)
    with pytest.raises(kaggle.KaggleError, match=fragment):
        kaggle.extract_zip(zp, tmp_path / "out")
    assert not (tmp_path / "evil.csv").exists()


def test_not_a_zip_and_zip_bomb_cap(tmp_path: Path) -> None:
    bad = tmp_path / "bad.zip"
    bad.write_text("not a zip")
    with pytest.raises(kaggle.KaggleError, match="not a zip"):
        kaggle.extract_zip(bad, tmp_path / "o1")
    big = tmp_path / "big.zip"
    with zipfile.ZipFile(big, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("zeros.csv", "0" * 2_000_000)
    with pytest.raises(kaggle.KaggleError, match="exceeds"):
        kaggle.extract_zip(big, tmp_path / "o2", max_bytes=1_000_000)


def test_cli_list_prepare_grade(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MLE_GYM_HOME", str(tmp_path))
    assert cli(["list"]) == 0
    out = capsys.readouterr().out
    assert "MLEBench/spaceship-titanic-v0" in out and "replica available" in out
    assert cli(["list", "--split", "lite"]) == 0
    lite = capsys.readouterr().out
    assert "spaceship-titanic" not in lite and "  low  " in lite
    assert cli(["list", "--split", "dev"]) == 0
    assert "MLEBench/spaceship-titanic-v0" in capsys.readouterr().out
    assert "kaggle needs preparation" in out
    assert cli(["prepare", "spaceship-titanic", "--replica"]) == 0
    capsys.readouterr()
    data = store.lookup(TASK, "replica", 0)
    assert data is not None
    sub = tmp_path / "sub.csv"
    sub.write_bytes((data.public / "sample_submission.csv").read_bytes())
    assert cli(["grade", "--task", "spaceship-titanic", "--submission", str(sub)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["valid"] and report["data_source"] == "replica"
    assert report["score"] == TASK.data["replica"]["sample_submission_score"]
    sub.write_text("nonsense")
    assert cli(["grade", "--task", "spaceship-titanic", "--submission", str(sub)]) == 1
    assert json.loads(capsys.readouterr().out)["valid"] is False
    assert cli(["grade", "--task", "no-such-task", "--submission", str(sub)]) == 2
    assert "unknown task" in capsys.readouterr().err


def test_kaggle_api_failure_is_clean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With (fake) credentials the real kaggle client runs; its failure leaves no cache entry."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("KAGGLE_USERNAME", "nobody")
    monkeypatch.setenv("KAGGLE_KEY", "0" * 32)
    monkeypatch.setenv("MLE_GYM_HOME", str(tmp_path / "home"))
    with pytest.raises(kaggle.KaggleError, match="spaceship-titanic"):
        sources.prepare_kaggle(TASK)
    assert store.lookup(TASK, "kaggle") is None
    parent = store.variant_dir(TASK, "kaggle").parent
    assert [p.name for p in parent.iterdir() if not p.name.endswith(".lock")] == []
