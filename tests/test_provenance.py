"""Where a result came from: the software block, the env's provenance after reset, and
the provenance fields an evaluation writes into episode.json, grade.json and report.*."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mle_gym import provenance

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_the_commit_is_the_checkouts_head() -> None:
    head = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True
    )
    assert head.returncode == 0, head.stderr
    block = provenance.software()
    assert block["commit"] == head.stdout.strip()
    assert block["mle_gym"] == provenance.package_version()
    assert isinstance(block["dirty"], bool)
    assert set(block["libraries"]) == set(provenance.GRADING_LIBRARIES)
    assert block["libraries"]["pandas"]


def test_a_packed_ref_and_a_detached_head_are_read(tmp_path: Path) -> None:
    git = tmp_path / ".git"
    (git / "refs" / "heads").mkdir(parents=True)
    sha = "0123456789abcdef0123456789abcdef01234567"
    (git / "HEAD").write_text("ref: refs/heads/main\n")
    (git / "packed-refs").write_text(f"# pack-refs with: peeled\n{sha} refs/heads/main\n")
    assert provenance._resolve_ref(git, "refs/heads/main") == sha
    assert provenance._git_dir(tmp_path / "a" / "b") == git
    # a worktree's .git file points at its git dir
    other = tmp_path / "wt"
    other.mkdir()
    (other / ".git").write_text(f"gitdir: {git}\n")
    assert provenance._git_dir(other) == git


def test_the_env_records_its_provenance_at_reset(make_env, tmp_path: Path) -> None:
    trajectory = tmp_path / "t.jsonl"
    env = make_env(trajectory_path=trajectory, replica_seed=1)
    assert env.unwrapped.provenance() is None
    env.reset(seed=0)
    prov = env.unwrapped.provenance()
    assert prov["software"] == provenance.software()
    assert prov["task"] == {"env_id": "MLEBench/spaceship-titanic-v0", "family": "mlebench"}
    assert prov["data"]["source"] == "replica" and prov["data"]["replica_seed"] == 1
    assert prov["data"]["variant"] == env.unwrapped.data_variant
    assert prov["sandbox"]["backend"] == env.unwrapped.sandbox_kind
    if prov["sandbox"]["backend"] == "docker":
        assert prov["sandbox"]["image"] and prov["sandbox"]["image_id"].startswith("sha256:")
    assert prov["grading"] == "mlebench" and prov["reward_mode"] == "normalized"
    prov["task"]["env_id"] = "changed"  # a copy
    assert env.unwrapped.provenance()["task"]["env_id"] == "MLEBench/spaceship-titanic-v0"
    reset_record = json.loads(trajectory.read_text().splitlines()[0])
    assert reset_record["provenance"]["data"]["replica_seed"] == 1


def evaluate(out: Path, *args: str) -> None:
    """``mle-gym eval ARGS --out OUT`` in a subprocess (no progress line, no plots); it must
    succeed."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mle_gym.cli",
            "eval",
            *args,
            "--out",
            str(out),
            "--no-progress",
            "--no-plots",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow
def test_an_evaluation_writes_provenance_into_every_result_file(tmp_path: Path) -> None:
    out = tmp_path / "run"
    evaluate(out, "spaceship-titanic", "--data", "replica", "--sandbox", "local")
    folder = out / "episodes" / "spaceship-titanic" / "seed-0"
    record = json.loads((folder / "episode.json").read_text())
    grade = json.loads((folder / "grade.json").read_text())
    prov = record["provenance"]
    assert grade["provenance"] == prov
    assert prov["software"]["commit"] == provenance.software()["commit"]
    assert prov["agent"] == {
        "spec": "scripted",
        "args": {},
        "class": "mle_gym.agents.scripted.ScriptedAgent",
    }
    assert prov["data"]["variant"].startswith("replica-seed0-")
    assert prov["sandbox"] == {"backend": "local", "image": None, "image_id": None}
    report = json.loads((out / "report.json").read_text())
    rp = report["provenance"]
    assert rp["episode_software"][0]["episodes"] == 1
    assert rp["data"][0]["value"]["variant"] == prov["data"]["variant"]
    markdown = (out / "report.md").read_text()
    assert "## Provenance" in markdown and prov["software"]["commit"][:12] in markdown


@pytest.mark.slow
def test_tasks_skipped_for_want_of_data_are_recorded_with_the_reason(tmp_path: Path) -> None:
    out = tmp_path / "run"
    evaluate(
        out,
        "spaceship-titanic",
        "aerial-cactus-identification",
        "--data",
        "replica",
        "--skip-unavailable",
        "--sandbox",
        "local",
    )
    config = json.loads((out / "config.json").read_text())
    (asked,) = config["selection"]
    assert asked["tasks"] == ["spaceship-titanic", "aerial-cactus-identification"]
    assert asked["skip_unavailable"] is True
    (skipped,) = asked["skipped"]
    assert skipped["task"] == "MLEBench/aerial-cactus-identification-v0"
    assert "replica" in skipped["reason"]
    report = json.loads((out / "report.json").read_text())
    assert report["provenance"]["selection"] == config["selection"]
    markdown = (out / "report.md").read_text()
    assert "skipped MLEBench/aerial-cactus-identification-v0: " in markdown
    assert "with --skip-unavailable" in markdown
