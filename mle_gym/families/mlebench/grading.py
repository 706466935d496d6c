"""Grading a submission file against private answers, in the host process.

The parsed and validated answers of the last few answer files are kept in memory
(keyed by the file's identity, size and modification time, so a changed file is
read again): an RL run grades the same task over and over, and the answers are
often the larger half of the work. Scorers get a copy, never the kept frame.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.grade_report import GradeReport
from mle_gym.families.mlebench.leaderboard import medals_for, percentile_beaten
from mle_gym.families.mlebench.parity import grade_like_mlebench, has_parity_grader
from mle_gym.families.mlebench.task import MLEBenchTask
from mle_gym.grading.csvread import read_submission, read_table
from mle_gym.grading.errors import InvalidSubmission
from mle_gym.grading.metrics import get_metric
from mle_gym.grading.submission import SubmissionSpec
from mle_gym.grading.validation import ExpectedIds, validate_against

logger = logging.getLogger(__name__)

_TRUSTED_MAX_BYTES = 2**40  # answers and sample submissions are ours, not the agent's
_ANSWERS_KEPT = 4  # parsed answer files kept in memory
#: ``grading=`` of :func:`grade_submission`: MLE-bench's verdict (default) or the strict one
GRADING_MODES = ("mlebench", "strict")
_MEDAL_KEYS = ("gold_medal", "silver_medal", "bronze_medal", "any_medal", "above_median")

Scorer = Callable[[pd.DataFrame, pd.DataFrame], Any]


def grade_submission(
    task: MLEBenchTask,
    submission: Path | None,
    *,
    answers: Path,
    expected_ids_from: Path | None = None,
    data_source: str,
    max_bytes: int | None = None,
    grading: str = "mlebench",
    submission_name: str | None = None,
) -> GradeReport:
    """Grade ``submission`` (a host-side COPY of the agent's file) for ``task``.

    ``submission_name`` is what the messages call the file: the name of the file that was
    copied when it is not the agent's (``mle-gym grade --submission preds.csv``), so that
    they speak of ``preds.csv`` and give no advice meant for an agent. Default: the
    copy's own name, and an agent's wording (what to write where).

    ``grading`` (one of :data:`GRADING_MODES`) chooses the verdict:

    * ``"mlebench"`` (default): MLE-bench's own, by the task folder's
      ``mlebench_grade.py`` (:mod:`mle_gym.families.mlebench.parity`): the same score or
      the same rejection as MLE-bench's ``grade()``, quirks included. The strict grade
      below is computed as well, and what it would have flagged is listed in
      ``strict_findings`` (its rejection message, or its different score). A task
      without ``mlebench_grade.py`` is graded strictly (the report says
      ``grading="strict"``).
    * ``"strict"``: the project's validation and grader, as described next.
    """
    if grading not in GRADING_MODES:
        raise ValueError(f"grading must be one of {GRADING_MODES}, got {grading!r}")
    strict = _grade_strict(
        task,
        submission,
        answers=answers,
        expected_ids_from=expected_ids_from,
        data_source=data_source,
        max_bytes=max_bytes,
        submission_name=submission_name,
    )
    if grading == "strict" or not has_parity_grader(task):
        return strict
    if not strict.submission_exists:  # no file: both verdicts are "no submission"
        return dataclasses.replace(strict, grading="mlebench")
    assert submission is not None  # it exists
    limit = max_bytes if max_bytes is not None else task.submission.max_mb * 2**20
    verdict = grade_like_mlebench(task, submission, answers, max_bytes=limit, name=submission_name)
    findings: list[str] = []
    if not strict.valid:
        findings.append(strict.message)
    elif verdict.score is not None and strict.score != verdict.score:
        findings.append(
            f"strict grading scores this submission {strict.score} (MLE-bench's grader: "
            f"{verdict.score}); see the task's MLE-bench grading quirks"
        )
    base = _base_fields(task, data_source)
    base.update(grading="mlebench", strict_findings=findings)
    if verdict.score is None:
        return _invalid(base, exists=True, message=verdict.message)
    return _valid(base, task, data_source, verdict.score)


def _grade_strict(
    task: MLEBenchTask,
    submission: Path | None,
    *,
    answers: Path,
    expected_ids_from: Path | None,
    data_source: str,
    max_bytes: int | None,
    submission_name: str | None = None,
) -> GradeReport:
    """The strict grade (``grading="strict"``) of ``submission``.

    * ``answers``: the private answers CSV (id column, target columns, possibly
      more columns).
    * ``expected_ids_from``: optionally a CSV (the public sample submission)
      whose id column lists the ids a submission must cover; it must hold the
      same ids as the answers. Without it the answers' ids are used.
    * ``data_source``: which data the episode used (``kaggle``, ``replica``...);
      leaderboard figures are reported only for ``kaggle`` (see
      :class:`GradeReport`).
    * ``max_bytes``: the largest submission accepted (default: the task's
      ``submission.max_mb``).

    With ``grader: raw`` the task's ``grade.py`` receives both files read as
    text, unvalidated (every column a string), and validates them itself — for
    competitions whose submissions are not one row per answer id (repeated ids,
    a superset of ids) or whose answers do not carry the submission's columns.

    The score is the task's ``grade.py`` ``grade(submission_df, answers_df)``
    if the task folder has one, else the registered metric ``task.metric`` on
    the target column(s). Both frames are sorted by id and aligned row for row;
    target columns are converted per ``target_kind`` (answers too, so ``True``
    and ``1`` compare equal); the answers keep their other columns as text.
    The score is rounded to 5 decimals.

    Never raises because of the submission: a missing file, an
    :class:`InvalidSubmission` (from reading, validation or ``grade.py``) or
    any other exception while scoring (logged; message ``grader error: ...``)
    gives ``valid=False``. Setup problems do raise ``RuntimeError``: unreadable
    or malformed answers, expected ids that differ from the answers' ids, an
    unknown metric; ``ValueError`` for a ``data_source`` the task lacks.
    """
    spec = task.submission
    base = _base_fields(task, data_source)
    limit = max_bytes if max_bytes is not None else spec.max_mb * 2**20
    if task.grader == "raw":
        return _grade_raw(task, submission, answers, base, limit, submission_name)
    truth, expected = _answers(answers, spec)
    if expected_ids_from is not None:
        _check_expected_ids(expected_ids_from, spec, expected.ids)
    scorer = _scorer(task)

    if submission is None or not (submission.exists() or submission.is_symlink()):
        return _invalid(base, exists=False, message=_no_file(task, submission, submission_name))
    try:
        predicted = validate_against(
            read_submission(
                submission,
                spec,
                max_bytes=limit,
                max_rows=_max_rows(len(expected.ids)),
                name=submission_name,
            ),
            expected,
            spec,
            submission_name,
        )
    except InvalidSubmission as exc:
        return _invalid(base, exists=True, message=str(exc))

    aligned = predicted[spec.id_column].equals(truth[spec.id_column]) or np.array_equal(
        predicted[spec.id_column].to_numpy(dtype=object),
        truth[spec.id_column].to_numpy(dtype=object),
    )
    if not aligned:  # validation guarantees the same ids; alignment by sorting relies on it
        raise RuntimeError(f"{task.key}: submission and answers are not aligned by id")
    return _score(task, lambda: scorer(predicted, truth), base, data_source)


def _no_file(task: MLEBenchTask, submission: Path | None, submission_name: str | None) -> str:
    """The message for a submission file that is not there: for an agent, what to write
    (``submission_name`` None), else that the named file does not exist."""
    if submission_name is not None:
        return f"no submission file: {submission_name} does not exist"
    spec = task.submission
    if task.grader == "raw":
        return f"no submission file: write {spec.file}"
    where = f"{submission.name} was not found" if submission is not None else "none was given"
    return (
        f"no submission file: {where}; write {spec.file} with the columns "
        f"{','.join((spec.id_column, *spec.target_columns))}"
    )


def _max_rows(n_ids: int) -> int:
    """Rows read from a submission for ``n_ids`` test ids: enough for validation to explain
    duplicates and strays, few enough that a huge file is refused before it is parsed."""
    return 2 * n_ids + 1000


def _score(
    task: MLEBenchTask, compute: Callable[[], Any], base: dict[str, Any], data_source: str
) -> GradeReport:
    """Run a scorer: its value, or an invalid report saying why it could not score."""
    try:
        value = float(compute())
        if not math.isfinite(value):
            raise InvalidSubmission(f"the submission's score is not a finite number ({value})")
    except InvalidSubmission as exc:
        return _invalid(base, exists=True, message=str(exc))
    except ValueError as exc:  # metrics reject malformed predictions with ValueError
        logger.info("%s: submission rejected by the metric: %s", task.key, exc)
        return _invalid(base, exists=True, message=f"cannot score the submission: {exc}")
    except Exception as exc:
        logger.exception("grader error for %s", task.key)
        return _invalid(base, exists=True, message=f"grader error: {type(exc).__name__}: {exc}")
    return _valid(base, task, data_source, round(value, 5))


def _grade_raw(
    task: MLEBenchTask,
    submission: Path | None,
    answers: Path,
    base: dict[str, Any],
    limit: int,
    submission_name: str | None = None,
) -> GradeReport:
    """``grader: raw``: the task's grade() gets both files as text frames, unvalidated."""
    module = task.module("grade")
    grade = getattr(module, "grade", None) if module is not None else None
    if not callable(grade):
        raise RuntimeError(f"{task.folder / 'grade.py'} defines no grade() function")
    try:
        truth = read_table(answers, max_bytes=_TRUSTED_MAX_BYTES)
    except InvalidSubmission as exc:
        raise RuntimeError(f"answers file {answers} is unusable: {exc}") from exc
    if submission is None or not (submission.exists() or submission.is_symlink()):
        return _invalid(base, exists=False, message=_no_file(task, submission, submission_name))
    try:
        predicted = read_table(submission, max_bytes=limit, name=submission_name)
    except InvalidSubmission as exc:
        return _invalid(base, exists=True, message=str(exc))
    return _score(task, lambda: grade(predicted, truth), base, base["data_source"])


def invalid_report(
    task: MLEBenchTask, data_source: str, message: str, *, exists: bool, grading: str = "strict"
) -> GradeReport:
    """A report for a submission that could not even be copied out for grading (the same
    verdict in either mode; ``grading`` labels it)."""
    base = _base_fields(task, data_source)
    if grading == "mlebench" and has_parity_grader(task):
        base["grading"] = "mlebench"
    return _invalid(base, exists=exists, message=message)


_kept: OrderedDict[tuple[Any, ...], tuple[pd.DataFrame, ExpectedIds]] = OrderedDict()
_kept_lock = threading.Lock()


def _answers(path: Path, spec: SubmissionSpec) -> tuple[pd.DataFrame, ExpectedIds]:
    """(a copy of the loaded answers, their ids): from memory if this exact file was
    loaded lately (see module docstring), else read now."""
    try:
        st = os.stat(path)
        key: tuple[Any, ...] | None = (
            os.path.realpath(path),
            st.st_dev,
            st.st_ino,
            st.st_size,
            st.st_mtime_ns,
            st.st_ctime_ns,
            spec,
        )
    except OSError:
        key = None  # _load_answers reports the problem
    with _kept_lock:
        hit = _kept.get(key) if key is not None else None
        if hit is not None and key is not None:
            _kept.move_to_end(key)
    if hit is None:
        truth, raw_ids = _load_answers(path, spec)
        hit = (truth, raw_ids.reordered(truth[spec.id_column].tolist()))
        if key is not None:
            with _kept_lock:
                _kept[key] = hit
                while len(_kept) > _ANSWERS_KEPT:
                    _kept.popitem(last=False)
    return hit[0].copy(), hit[1]


def _load_answers(path: Path, spec: SubmissionSpec) -> tuple[pd.DataFrame, ExpectedIds]:
    """(every answers column, sorted by id, targets converted; their ids in file order);
    RuntimeError if unusable."""
    try:
        raw = read_submission(path, spec, max_bytes=_TRUSTED_MAX_BYTES)
    except InvalidSubmission as exc:
        raise RuntimeError(f"answers file {path} is unusable: {exc}") from exc
    wanted = [spec.id_column, *spec.target_columns]
    names = [str(c) for c in raw.columns]
    missing = [c for c in wanted if c not in names]
    if missing or len(set(names)) != len(names):
        raise RuntimeError(
            f"answers file {path} must have unique column names including {wanted}; it has {names}"
        )
    try:
        raw_ids = ExpectedIds(raw[spec.id_column].tolist(), allow_duplicates=True)
        typed = validate_against(raw[wanted], raw_ids, spec)
    except (InvalidSubmission, ValueError) as exc:
        raise RuntimeError(f"answers file {path} is malformed: {exc}") from exc
    rest = [c for c in names if c not in wanted]
    if not rest:
        return typed[names], raw_ids
    others = raw[[spec.id_column, *rest]].sort_values(spec.id_column, kind="stable")
    others = others.reset_index(drop=True)
    merged = typed.copy()
    for column in rest:
        merged[column] = others[column]
    return merged[names], raw_ids


def _check_expected_ids(path: Path, spec: SubmissionSpec, answer_ids: list[str]) -> None:
    try:
        frame = read_submission(path, spec, max_bytes=_TRUSTED_MAX_BYTES)
        ids = frame[spec.id_column].tolist()
    except (InvalidSubmission, KeyError) as exc:
        raise RuntimeError(f"expected-ids file {path} is unusable: {exc}") from exc
    if len(ids) != len(answer_ids) or set(ids) != set(answer_ids):
        extra = len(set(ids) - set(answer_ids))
        lacking = len(set(answer_ids) - set(ids))
        raise RuntimeError(
            f"ids in {path} differ from the answers' ids ({len(ids)} rows vs "
            f"{len(answer_ids)}; {extra} not in answers, {lacking} answers ids absent)"
        )


def _scorer(task: MLEBenchTask) -> Scorer:
    """The task's ``grade.grade`` or a wrapper around its registered metric."""
    module = task.module("grade")
    if module is not None:
        grade = getattr(module, "grade", None)
        if not callable(grade):
            raise RuntimeError(f"{task.folder / 'grade.py'} defines no grade() function")
        return grade
    try:
        metric = get_metric(task.metric)
    except KeyError as exc:
        raise RuntimeError(f"task {task.key}: {exc}") from exc
    targets = list(task.submission.target_columns)

    def score(predicted: pd.DataFrame, truth: pd.DataFrame) -> float:
        if len(targets) == 1:
            return metric.score(truth[targets[0]].to_numpy(), predicted[targets[0]].to_numpy())
        return metric.score(truth[targets].to_numpy(), predicted[targets].to_numpy())

    return score


def _base_fields(task: MLEBenchTask, data_source: str) -> dict[str, Any]:
    """Report fields that do not depend on the submission."""
    if data_source not in task.data:
        raise ValueError(
            f"task {task.key} has no data source {data_source!r}; it has {list(task.sources)}"
        )
    block = task.data.get(data_source)
    block = block if isinstance(block, dict) else {}
    kaggle = task.data.get("kaggle")
    competition = kaggle.get("competition") if isinstance(kaggle, dict) else None
    fields: dict[str, Any] = {
        "grading": "strict",
        "task_id": task.id,
        "competition_id": str(competition or task.id),
        "data_source": data_source,
        "is_lower_better": task.lower_is_better,
        "sample_submission_score": _maybe_float(block.get("sample_submission_score")),
        "reference_score": _maybe_float(block.get("reference_score")),
    }
    lb = task.leaderboard if data_source == "kaggle" else None
    if lb is not None:
        fields.update(
            gold_threshold=lb.gold,
            silver_threshold=lb.silver,
            bronze_threshold=lb.bronze,
            median_threshold=lb.median,
            sample_submission_score=lb.sample_submission_score,
        )
    return fields


def _maybe_float(value: Any) -> float | None:
    return None if value is None else float(value)


def _invalid(base: dict[str, Any], *, exists: bool, message: str) -> GradeReport:
    medals: dict[str, Any] = {}
    if base.get("gold_threshold") is not None:  # leaderboard figures apply
        medals = dict.fromkeys(_MEDAL_KEYS, False)
    return GradeReport(
        **base, score=None, valid=False, message=message, submission_exists=exists, **medals
    )


def _valid(base: dict[str, Any], task: MLEBenchTask, data_source: str, score: float) -> GradeReport:
    lb = task.leaderboard if data_source == "kaggle" else None
    extra: dict[str, Any] = {}
    if lb is not None:
        extra.update(medals_for(score, lb, task.lower_is_better))
        if lb.score_at_rank_fraction:
            extra["percentile"] = percentile_beaten(score, lb, task.lower_is_better)
    return GradeReport(**base, score=score, valid=True, message="", submission_exists=True, **extra)
