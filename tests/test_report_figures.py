"""Figures of an evaluation report that a paper table takes as they are: each is what it
says it is, with its denominator and unit (report.json, report.md and the medals plot).

Synthetic run folders (config.json, episode.json, grade.json written here) keep these
fast; tests/test_evaluation.py runs real evaluations."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mle_gym.evaluation import layout
from mle_gym.evaluation.config import RunConfig, save_config
from mle_gym.evaluation.plots import medal_groups
from mle_gym.evaluation.report_md import render_markdown
from mle_gym.evaluation.run_report import build_report

KAGGLE_TASK = "spaceship-titanic"
REPLICA_TASK = "nomad2018-predict-transparent-conductors"


def grade(source: str, *, valid: bool, score: float | None = None, **fields: Any) -> dict:
    out: dict[str, Any] = {
        "data_source": source,
        "valid": valid,
        "score": score if valid else None,
        "submission_exists": True,
        "gold_medal": False,
        "silver_medal": False,
        "bronze_medal": False,
        "above_median": False,
        "percentile": None,
    }
    out.update(fields)
    return out


def episode(
    run_dir: Path,
    task: str,
    seed: int,
    *,
    status: str = "done",
    reward: float = 0.0,
    grade_record: dict | None = None,
    source: str = "kaggle",
    mode: str | None = None,
    steps: int = 4,
    provenance: dict | None = None,
    **record_fields: Any,
) -> None:
    folder = layout.episode_dir(run_dir, task, seed)
    folder.mkdir(parents=True)
    if grade_record is not None:
        (folder / "grade.json").write_text(json.dumps(grade_record))
    record = {
        "status": status,
        "seed": seed,
        "reward": reward,
        "steps": steps,
        "data_source": source,
        "reward_mode": mode,
        "errors": [],
        "timing": {"seconds": 5.0},
        "provenance": provenance or {},
        **record_fields,
    }
    (folder / "episode.json").write_text(json.dumps(record))


def run(tmp_path: Path, tasks: tuple[str, ...], seeds: tuple[int, ...], data: str) -> Path:
    env_ids = tuple(t if "/" in t else f"MLEBench/{t}-v0" for t in tasks)
    save_config(tmp_path, RunConfig(tasks=env_ids, seeds=seeds, data=data))
    return tmp_path


def md_row(markdown: str, label: str) -> str:
    return next(line for line in markdown.splitlines() if line.startswith(f"| {label}"))


def test_a_valid_submission_counts_as_made_whatever_the_grade_says_of_the_file(
    tmp_path: Path,
) -> None:
    # MLAgentBench grades judged the re-run code valid but said no submission file existed
    run(tmp_path, ("MLAgentBench/house-price-v0",), (0, 1), "auto")
    for seed in (0, 1):
        g = {"valid": True, "score": 1.0, "submission_exists": False, "data_source": "bundled"}
        episode(tmp_path, "house-price", seed, grade_record=g, source="bundled")
    report = build_report(tmp_path)
    assert report["overall"]["made_submission_pct"]["mean"] == 100.0
    assert report["overall"]["valid_submission_pct"]["mean"] == 100.0


def test_the_leaderboard_percentile_is_shown_as_a_percentage(tmp_path: Path) -> None:
    run(tmp_path, (KAGGLE_TASK,), (0, 1), "kaggle")
    episode(
        tmp_path,
        KAGGLE_TASK,
        0,
        grade_record=grade("kaggle", valid=True, score=0.5, percentile=0.0238),
    )
    episode(
        tmp_path,
        KAGGLE_TASK,
        1,
        grade_record=grade("kaggle", valid=True, score=0.4, percentile=0.0),
    )
    report = build_report(tmp_path)
    stat = report["overall"]["leaderboard_percentile"]
    assert stat["mean"] == pytest.approx(0.0119)  # report.json keeps the fraction
    row = md_row(render_markdown(report), "leaderboard percentile")
    assert "(% of teams beaten) | 1.2 ± 1.2 | 2 |" in row


def test_rewards_of_different_modes_are_not_averaged_and_medal_bars_match_the_table(
    tmp_path: Path,
) -> None:
    run(tmp_path, (KAGGLE_TASK, REPLICA_TASK), (0,), "auto")
    episode(
        tmp_path,
        KAGGLE_TASK,
        0,
        reward=1.0,
        mode="percentile",
        grade_record=grade("kaggle", valid=True, score=0.9, gold_medal=True, percentile=1.0),
    )
    episode(
        tmp_path,
        REPLICA_TASK,
        0,
        reward=0.25,
        mode="normalized",
        source="replica",
        grade_record=grade("replica", valid=True, score=0.1),
    )
    report = build_report(tmp_path)
    overall = report["overall"]
    assert overall["reward"]["mean"] is None
    assert overall["reward"]["mixed_modes"] == ["normalized", "percentile"]
    assert overall["reward_by_mode"]["percentile"]["mean"] == 1.0
    assert overall["reward_by_mode"]["normalized"]["mean"] == 0.25
    markdown = render_markdown(report)
    assert "not averaged" in md_row(markdown, "mean reward |")
    assert "| 1.0000 |" in md_row(markdown, "mean reward (percentile mode)")
    assert "| 0.2500 |" in md_row(markdown, "mean reward (normalized mode)")
    # the table's gold figure is over Kaggle episodes: the pooled Kaggle bar has the same
    # denominator, and the replica episode is pooled apart
    assert overall["gold_pct"]["mean"] == 100.0
    groups = dict(medal_groups(report))
    kaggle = groups["all tasks, Kaggle data (n=1)"]
    assert [r["medal"] for r in kaggle] == ["gold"]
    assert [r["task_id"] for r in groups["all tasks, other data (n=1)"]] == [REPLICA_TASK]


def test_one_reward_mode_is_averaged_and_named(tmp_path: Path) -> None:
    run(tmp_path, (REPLICA_TASK,), (0, 1), "replica")
    for seed, reward in ((0, 0.2), (1, 0.4)):
        episode(
            tmp_path,
            REPLICA_TASK,
            seed,
            reward=reward,
            mode="normalized",
            source="replica",
            grade_record=grade("replica", valid=True, score=0.1),
        )
    # an episode that failed before reset takes its task's mode
    report = build_report(tmp_path)
    assert report["overall"]["reward"]["mean"] == pytest.approx(0.3)
    assert report["overall"]["reward"]["mode"] == "normalized"
    assert "| 0.3000 ± 0.1000 | 2 |" in md_row(
        render_markdown(report), "mean reward (normalized mode)"
    )


def test_a_failed_episode_without_a_mode_takes_its_tasks(tmp_path: Path) -> None:
    run(tmp_path, (REPLICA_TASK,), (0, 1), "replica")
    episode(
        tmp_path,
        REPLICA_TASK,
        0,
        reward=0.5,
        mode="normalized",
        source="replica",
        grade_record=grade("replica", valid=True, score=0.1),
    )
    episode(
        tmp_path,
        REPLICA_TASK,
        1,
        status="failed",
        source="replica",
        errors=[{"phase": "make_env", "type": "SandboxError", "message": "no bwrap"}],
    )
    report = build_report(tmp_path)
    assert report["overall"]["reward"]["mode"] == "normalized"
    assert report["overall"]["reward"]["mean"] == pytest.approx(0.25)
    assert report["failure_kinds"] == {"environment": 1}
    assert report["failures"][0]["kind"] == "environment"
    assert "[environment]" in render_markdown(report)


def test_the_score_says_how_many_episodes_it_is_over(tmp_path: Path) -> None:
    run(tmp_path, (KAGGLE_TASK,), (0, 1), "kaggle")
    episode(tmp_path, KAGGLE_TASK, 0, grade_record=grade("kaggle", valid=True, score=0.51609))
    episode(tmp_path, KAGGLE_TASK, 1, grade_record=grade("kaggle", valid=False))
    report = build_report(tmp_path)
    score = report["tasks"][KAGGLE_TASK]["score"]
    assert (score["mean"], score["n"], score["of"]) == (0.51609, 1, 2)
    assert "0.51609 (1 of 2 valid)" in md_row(render_markdown(report), KAGGLE_TASK)


def test_steps_are_labelled_as_over_episodes(tmp_path: Path) -> None:
    run(tmp_path, (KAGGLE_TASK,), (0, 1, 2), "kaggle")
    for seed in (0, 1, 2):
        episode(
            tmp_path,
            KAGGLE_TASK,
            seed,
            steps=3 + seed,
            grade_record=grade("kaggle", valid=True, score=0.5),
        )
    report = build_report(tmp_path)
    assert report["overall"]["steps"]["over"] == "episodes"
    line = next(x for x in render_markdown(report).splitlines() if x.startswith("Steps"))
    assert "4.0 ± 0.6" in line and "over 3 finished episodes, not seeds" in line


def test_a_checksum_mismatch_is_flagged_next_to_the_medals_it_touches(tmp_path: Path) -> None:
    run(tmp_path, (KAGGLE_TASK,), (0,), "kaggle")
    prov = {
        "data": {
            "source": "kaggle",
            "variant": "kaggle",
            "checks": {"mlebench_checksums": "mismatch", "mismatched": ["public/x"]},
        }
    }
    episode(
        tmp_path,
        KAGGLE_TASK,
        0,
        provenance=prov,
        grade_record=grade("kaggle", valid=True, score=0.9, bronze_medal=True),
    )
    report = build_report(tmp_path)
    assert report["overall"]["checksum_mismatch_tasks"] == [KAGGLE_TASK]
    markdown = render_markdown(report)
    assert md_row(markdown, "bronze (%)").split("|")[2].strip() == "100.0 ⚠"
    assert md_row(markdown, "any medal (%)").split("|")[2].strip() == "100.0 ⚠"
    assert "100.0 ⚠" in md_row(markdown, KAGGLE_TASK)
    assert "checksum mismatch" in markdown and "MLE-bench checksums: mismatch" in markdown


def test_matching_checksums_are_not_flagged(tmp_path: Path) -> None:
    run(tmp_path, (KAGGLE_TASK,), (0,), "kaggle")
    prov = {"data": {"source": "kaggle", "checks": {"mlebench_checksums": "match"}}}
    episode(
        tmp_path,
        KAGGLE_TASK,
        0,
        provenance=prov,
        grade_record=grade("kaggle", valid=True, score=0.9, bronze_medal=True),
    )
    markdown = render_markdown(build_report(tmp_path))
    assert "⚠" not in markdown and "MLE-bench checksums: match" in markdown
