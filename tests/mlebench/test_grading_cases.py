"""The grading test cases of every MLE-bench task folder, found where the folder is.

Every task folder with a ``grading_cases.py`` (its format: the public kit
:mod:`mle_gym.families.mlebench.testing`) has each of its checks run as
``test_grading_case[<task id>-<case name>]``: tiny synthetic files
in the competition's real format graded end to end (a perfect submission gets the metric's
best value, an imperfect one the value computed independently the way MLE-bench's
``grade.py`` computes it, a malformed one is invalid), plus the folder's own checks.

The competitions registered without data preparation (medium/high splits) must all have
end-to-end cases; for them the task folder loads, its grader is usable and ``gymnasium.make`` says
that preparing the data is not yet supported.
"""

from __future__ import annotations

from pathlib import Path

import gymnasium as gym
import pytest

import mle_gym  # noqa: F401  (registers the environments)
from mle_gym.data.store import DataNotPrepared
from mle_gym.families.mlebench import testing
from mle_gym.tasks import TaskSpec, all_tasks, get_task

MLEBENCH = sorted(
    (s for s in all_tasks().values() if s.benchmark == "MLEBench"), key=lambda s: s.id
)
REGISTERED_ONLY = [s.id for s in MLEBENCH if not s.kaggle_supported]
RAW_CHECKS = (testing.RawGrading, testing.KeyedRawGrading)


def _case_params() -> list[object]:
    """``pytest.param(task key, case name)`` per case of every folder, id ``<task>-<case>``
    (the key, ``mlebench/<id>``, names the task even if another benchmark shares its id)."""
    params = testing.case_params(all_tasks().values())
    return [pytest.param(p.task_key, p.case, id=p.id) for p in params]


@pytest.mark.parametrize(("task_key", "case"), _case_params())
def test_grading_case(task_key: str, case: str, tmp_path: Path) -> None:
    testing.run_case(get_task(task_key), case, tmp_path)


def _has_raw_case(task: TaskSpec) -> bool:
    checks = testing.load_cases(task.folder).values()
    return any(isinstance(check, RAW_CHECKS) for check in checks)


END_TO_END_CHECKS = (
    testing.ExactGrading,
    testing.WorseCase,
    testing.RawGrading,
    testing.KeyedRawGrading,
)


def test_every_registered_only_task_has_end_to_end_grading_cases() -> None:
    """Each of them grades at least one case end to end (files in, score or invalid out)."""
    assert REGISTERED_ONLY  # 53 of MLE-bench's competitions when this was written
    with_cases = {s.id for s in testing.tasks_with_cases(all_tasks().values())}
    assert sorted(set(REGISTERED_ONLY) - with_cases) == []
    without_end_to_end = [
        competition
        for competition in REGISTERED_ONLY
        if not any(
            isinstance(check, END_TO_END_CHECKS)
            for check in testing.load_cases(get_task(competition).folder).values()
        )
    ]
    assert without_end_to_end == []


@pytest.mark.parametrize("competition", REGISTERED_ONLY)
def test_registered_task_loads(competition: str) -> None:
    task = get_task(competition)
    assert task.id == competition
    assert task.env_id == f"MLEBench/{competition}-v0"
    assert task.env_id in gym.registry
    assert task.split in ("medium", "high")
    assert not task.kaggle_supported
    assert task.data["kaggle"]["competition"] == competition
    assert task.data["kaggle"]["zip_md5"]
    assert task.data["kaggle"]["prepared_md5"]
    text = task.description()
    assert "submission.csv" in text and "## Metric" in text
    assert task.submission.target_columns
    assert task.problem() is None
    if _has_raw_case(task):
        assert task.grader == "raw"
        assert callable(getattr(task.module("grade"), "validate", None))
    else:
        assert task.grader != "raw"
        assert (task.folder / "grade.py").is_file() == (task.grader == "module")


@pytest.mark.parametrize("competition", REGISTERED_ONLY)
def test_make_says_preparation_is_not_supported(
    competition: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MLE_GYM_HOME", str(tmp_path / "home"))
    task = get_task(competition)
    with pytest.raises(DataNotPrepared, match="not yet supported"):
        gym.make(task.env_id)
