"""Parity cases: one valid submission and its common variants, graded in both modes.

A :class:`ParityCase` in a folder's ``grading_cases.py`` ``CASES`` takes answers in
MLE-bench's private-answers format and one valid submission, derives the variants
agents produce (:data:`VARIANTS`: rows shuffled, columns reordered, an extra column, the
DataFrame index written as a column, ids written as floats, a missing, duplicated or
unknown id, a blank prediction, an empty file, a header alone, answers whose key
repeats), grades each under ``grading="mlebench"`` and ``grading="strict"`` and checks
the outcomes the folder declares:

* ``expected``: per variant, MLE-bench's verdict (read off its ``grade.py``): ``"same"``
  (the score of the submission as is), ``"invalid"``, ``"scored"`` (any valid score) or a
  number (that score, to 1e-9). Every variant that applies must be declared, so each
  one is a decision.
* ``strict``: overrides of :data:`STRICT_DEFAULTS` for strict grading.
* ``score``: the submission's score as MLE-bench computes it, if known.

Under MLE-bench grading a variant that strict grading rejects must carry
``strict_findings``. The same files feed ``scripts/check_mlebench_parity.py``, which
compares the verdicts with MLE-bench's own code where it is installed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeAlias

import pandas as pd

from mle_gym.families.mlebench.grade_report import GradeReport
from mle_gym.families.mlebench.grading import grade_submission
from mle_gym.families.mlebench.task import MLEBenchTask

Outcome: TypeAlias = str | float
Frame: TypeAlias = pd.DataFrame | Callable[[], pd.DataFrame]

#: the variants, in the order they are graded
VARIANTS = (
    "as_is",
    "shuffled_rows",
    "reordered_columns",
    "extra_column",
    "index_column",
    "float_ids",
    "missing_id",
    "duplicate_id",
    "unknown_id",
    "blank_target",
    "empty_file",
    "header_only",
    "duplicate_answer_keys",
)
#: strict grading's verdicts unless a case overrides them
STRICT_DEFAULTS: dict[str, Outcome] = {
    **dict.fromkeys(VARIANTS, "invalid"),
    "as_is": "scored",
    "shuffled_rows": "same",
    "reordered_columns": "same",
    "duplicate_answer_keys": "scored",
}
_WORDS = ("same", "invalid", "scored")
_TOLERANCE = 1e-9


@dataclass(frozen=True)
class VariantFiles:
    """The answers and submission files of one variant."""

    answers: Path
    submission: Path


@dataclass(frozen=True)
class ParityCase:
    """See module docstring. ``id_column`` and ``target_column`` default to the task's
    id column and first target column; ``answers_text``/``submission`` may be CSV text
    instead of frames (written as is; variants then need frames)."""

    answers: Frame | str
    submission: Frame | str
    expected: Mapping[str, Outcome]
    strict: Mapping[str, Outcome] = field(default_factory=dict)
    score: float | None = None
    id_column: str | None = None
    target_column: str | None = None
    #: where the project's answers file differs from MLE-bench's (tensorflow2-question-
    #: answering, vinbigdata): ``(our answers file, a folder) -> MLE-bench's answers file``
    #: written there, for scripts/check_mlebench_parity.py; graded by nothing else
    mlebench_answers: Callable[[Path, Path], Path] | None = None

    def __call__(self, task: MLEBenchTask, tmp_path: Path) -> None:
        problems = check_parity(task, self, tmp_path)
        if problems:
            raise AssertionError(f"{task.id}: " + "; ".join(problems))


def _frame(value: Frame | str) -> pd.DataFrame | str:
    if isinstance(value, str | pd.DataFrame):
        return value
    return value()


def _columns(task: MLEBenchTask, case: ParityCase) -> tuple[str, str]:
    spec = task.submission
    return case.id_column or spec.id_column, case.target_column or spec.target_columns[0]


def _numeric_ids(ids: pd.Series) -> pd.Series | None:
    numbers = pd.to_numeric(ids, errors="coerce")
    if numbers.isna().any() or (numbers != numbers.round()).any():
        return None
    return numbers


def variant_frames(
    task: MLEBenchTask, case: ParityCase
) -> dict[str, tuple[pd.DataFrame | str, str]]:
    """``{variant: (answers, submission CSV text)}`` for every variant that applies
    (``float_ids`` only with whole-number ids; none but ``as_is`` when the submission is
    text)."""
    answers, submission = _frame(case.answers), _frame(case.submission)
    if isinstance(submission, str):
        return {"as_is": (answers, submission)}
    id_column, target = _columns(task, case)
    sub = submission.reset_index(drop=True)
    out: dict[str, tuple[pd.DataFrame | str, str]] = {}

    def put(name: str, frame: pd.DataFrame, truth: pd.DataFrame | str = answers) -> None:
        out[name] = (truth, frame.to_csv(index=False))

    put("as_is", sub)
    put("shuffled_rows", sub.iloc[::-1])
    put("reordered_columns", sub[list(reversed(sub.columns))])
    put("extra_column", sub.assign(extra_column=1))
    out["index_column"] = (answers, sub.to_csv(index=True))
    numbers = _numeric_ids(sub[id_column])
    if numbers is not None:
        put("float_ids", sub.assign(**{id_column: numbers.astype(float)}))
    put("missing_id", sub.iloc[:-1])
    put("duplicate_id", pd.concat([sub, sub.iloc[:1]], ignore_index=True))
    unknown = sub.copy()
    unknown[id_column] = unknown[id_column].astype(object)
    unknown.loc[0, id_column] = int(numbers.max()) + 1000 if numbers is not None else "unknown-id-0"
    put("unknown_id", unknown)
    blank = sub.copy()
    blank[target] = blank[target].astype(object)
    blank.loc[0, target] = None
    put("blank_target", blank)
    out["empty_file"] = (answers, "")
    out["header_only"] = (answers, ",".join(map(str, sub.columns)) + "\n")
    if isinstance(answers, pd.DataFrame):
        key = answers.iloc[:1]
        twin = sub[sub[id_column].astype(str) == str(key[id_column].iloc[0])].iloc[:1]
        if len(twin):
            put(
                "duplicate_answer_keys",
                pd.concat([sub, twin], ignore_index=True),
                pd.concat([answers, key], ignore_index=True),
            )
    return out


def write_variants(task: MLEBenchTask, case: ParityCase, tmp_path: Path) -> dict[str, VariantFiles]:
    """Each variant's files under ``tmp_path/<variant>/`` (the answers named as the task's
    answers file, the submission as its submission file)."""
    files: dict[str, VariantFiles] = {}
    for name, (answers, text) in variant_frames(task, case).items():
        folder = tmp_path / name
        folder.mkdir(parents=True, exist_ok=True)
        truth = folder / task.answers_file
        if isinstance(answers, str):
            truth.write_text(answers, encoding="utf-8")
        else:
            answers.to_csv(truth, index=False)
        submitted = folder / task.submission.file
        submitted.write_text(text, encoding="utf-8")
        files[name] = VariantFiles(truth, submitted)
    return files


def _matches(outcome: Outcome, report: GradeReport, same: float | None) -> bool:
    if outcome == "invalid":
        return not report.valid
    if not report.valid or report.score is None:
        return False
    if outcome == "scored":
        return True
    target = same if outcome == "same" else float(outcome)
    return target is not None and abs(report.score - target) <= _TOLERANCE * max(1.0, abs(target))


def _describe(report: GradeReport) -> str:
    return f"score {report.score}" if report.valid else f"invalid ({report.message[:200]})"


def check_parity(task: MLEBenchTask, case: ParityCase, tmp_path: Path) -> list[str]:
    """Every way the case's variants disagree with its declared outcomes ([] if none)."""
    files = write_variants(task, case, tmp_path)
    problems = [
        f"{name}: {outcome!r} is not an outcome (use {_WORDS} or a number)"
        for name, outcome in (*case.expected.items(), *case.strict.items())
        if not isinstance(outcome, int | float) and outcome not in _WORDS
    ]
    unknown = sorted((set(case.expected) | set(case.strict)) - set(VARIANTS))
    if unknown:
        problems.append(f"unknown variants {unknown}; known: {list(VARIANTS)}")
    undeclared = [v for v in files if v not in case.expected and v != "as_is"]
    if undeclared:
        problems.append(f"MLE-bench's verdict is not declared for {undeclared}")
    inapplicable = sorted(set(case.expected) - set(files) - {"as_is"})
    if inapplicable:
        problems.append(f"variants declared but not applicable here: {inapplicable}")
    graded = {
        grading: {
            name: grade_submission(
                task, paths.submission, answers=paths.answers, data_source="kaggle", grading=grading
            )
            for name, paths in files.items()
        }
        for grading in ("mlebench", "strict")
    }
    for grading, declared in (("mlebench", case.expected), ("strict", case.strict)):
        reports = graded[grading]
        base = reports["as_is"]
        if grading == "mlebench":
            outcomes: Mapping[str, Outcome] = {"as_is": "scored", **declared}
            if case.score is not None:
                outcomes = {**outcomes, "as_is": case.score}
        else:
            outcomes = {**STRICT_DEFAULTS, **declared}
        for name, report in reports.items():
            outcome = outcomes.get(name)
            if outcome is not None and not _matches(outcome, report, base.score):
                problems.append(
                    f"{grading} grading, {name}: expected {outcome!r}, got {_describe(report)}"
                )
    for name, report in graded["mlebench"].items():
        if report.grading != "mlebench":
            problems.append(f"{name}: graded {report.grading!r}, not by mlebench_grade.py")
        if not graded["strict"][name].valid and not report.strict_findings:
            problems.append(f"{name}: strict grading rejects it but no strict_findings")
    return problems
