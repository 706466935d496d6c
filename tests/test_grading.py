"""Tests of mle_gym.grading: safe reading, validation, metrics, medals, percentile, reports."""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.metrics import accuracy_score

from mle_gym.families.mlebench.grade_report import GradeReport
from mle_gym.families.mlebench.grading import grade_submission
from mle_gym.families.mlebench.leaderboard import medals_for, percentile_beaten
from mle_gym.families.mlebench.task import Leaderboard
from mle_gym.grading import InvalidSubmission, read_submission, validate_submission_frame
from mle_gym.grading.metrics import METRICS, UnknownMetric, get_metric, register
from mle_gym.grading.submission import SubmissionSpec
from mle_gym.grading.validation import ExpectedIds
from mle_gym.tasks import TaskSpec, load_task

REPO = Path(__file__).resolve().parent.parent
TASK_DIR = REPO / "task_assets" / "mlebench" / "spaceship-titanic"
MAX = 100 * 2**20

IDS = [f"{i:04d}_01" for i in range(1, 11)]
TRUTH = [True, False, True, True, False, False, True, False, True, True]
HEADER = "PassengerId,Transported\n"


@pytest.fixture(scope="module")
def task() -> TaskSpec:
    return load_task(TASK_DIR)


@pytest.fixture
def answers(tmp_path: Path) -> Path:
    """Answers shaped like MLE-bench's private test.csv: extra columns, labels as True/False."""
    planets = ["Earth", "Mars", "Europa"]
    rows = [f"{i},{planets[n % 3]},{t}" for n, (i, t) in enumerate(zip(IDS, TRUTH, strict=True))]
    path = tmp_path / "answers.csv"
    path.write_text("PassengerId,HomePlanet,Transported\n" + "\n".join(rows) + "\n")
    return path


def write(path: Path, rows: list[tuple[str, str]], header: str = HEADER) -> Path:
    path.write_text(header + "".join(f"{a},{b}\n" for a, b in rows))
    return path


def grade(task: TaskSpec, sub: Path | None, answers: Path, **kw: object) -> GradeReport:
    """The strict grader's report (this module tests it; tests/mlebench/test_parity_grading.py
    and the folders' ParityCases test the default, MLE-bench's verdict)."""
    kw.setdefault("data_source", "kaggle")
    kw.setdefault("grading", "strict")
    return grade_submission(task, sub, answers=answers, **kw)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- metrics


def test_accuracy_hand_computed() -> None:
    acc = get_metric("accuracy")
    assert acc.score(np.array([1, 0, 1, 1]), np.array([1, 1, 1, 0])) == 0.5
    assert acc.score(np.array([True, False]), np.array([True, False])) == 1.0
    assert acc.score(np.array(["a", "b", "c"]), np.array(["x", "y", "z"])) == 0.0
    assert acc.score(np.array(["a", "b", "c"]), np.array(["a", "y", "z"])) == pytest.approx(1 / 3)
    # several columns: a row counts only when every column matches
    truth = np.array([[1, 0], [1, 1], [0, 0]])
    assert acc.score(truth, np.array([[1, 0], [1, 0], [0, 0]])) == pytest.approx(2 / 3)
    assert acc.lower_is_better is False


def test_accuracy_rejects_bad_shapes() -> None:
    acc = get_metric("accuracy")
    with pytest.raises(ValueError, match="shapes differ"):
        acc.score(np.array([1, 0]), np.array([1, 0, 1]))
    with pytest.raises(ValueError, match="no rows"):
        acc.score(np.array([]), np.array([]))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=1, max_size=60))
def test_accuracy_matches_sklearn(pairs: list[tuple[int, int]]) -> None:
    y_true = np.array([a for a, _ in pairs])
    y_pred = np.array([b for _, b in pairs])
    assert get_metric("accuracy").score(y_true, y_pred) == pytest.approx(
        accuracy_score(y_true, y_pred)
    )


def test_unknown_metric_names_known_ones() -> None:
    with pytest.raises(KeyError) as info:
        get_metric("no-such-metric")
    assert isinstance(info.value, UnknownMetric)
    assert "no-such-metric" in str(info.value)
    assert "accuracy" in str(info.value)


def test_registering_a_metric_is_one_decorator() -> None:
    @register("test_only_mae", lower_is_better=True)
    def mae(y_true: np.ndarray, y_pred: np.ndarray) -> float:
        return float(np.mean(np.abs(y_true - y_pred)))

    try:
        metric = get_metric("test_only_mae")
        assert metric.lower_is_better is True
        assert metric.score(np.array([1.0, 2.0]), np.array([2.0, 2.0])) == 0.5
        with pytest.raises(ValueError, match="twice"):
            register("test_only_mae", lower_is_better=True)(mae)
    finally:
        METRICS.pop("test_only_mae", None)


# --------------------------------------------------------------------------- grading: valid


def test_correct_submission_scores_one(task: TaskSpec, answers: Path, tmp_path: Path) -> None:
    sub = write(tmp_path / "sub.csv", list(zip(IDS, map(str, TRUTH), strict=True)))
    report = grade(task, sub, answers)
    assert report.valid and report.submission_exists
    assert report.score == 1.0
    assert report.message == ""
    assert report.gold_medal is True and report.any_medal is True
    assert report.percentile == 1.0


def test_score_hand_computed_and_rounded(task: TaskSpec, answers: Path, tmp_path: Path) -> None:
    preds = ["True"] * 10  # 6 of 10 labels are True
    report = grade(task, write(tmp_path / "s.csv", list(zip(IDS, preds, strict=True))), answers)
    assert report.score == 0.6
    # 1/3 is rounded to 5 decimals
    three = tmp_path / "a3.csv"
    three.write_text("PassengerId,Transported\na,True\nb,False\nc,False\n")
    sub = write(tmp_path / "s3.csv", [("a", "True"), ("b", "True"), ("c", "True")])
    assert grade(task, sub, three).score == 0.33333


def test_shuffled_rows_grade_like_sorted(task: TaskSpec, answers: Path, tmp_path: Path) -> None:
    preds = ["True", "True", "False", "True", "False", "True", "True", "False", "False", "True"]
    rows = list(zip(IDS, preds, strict=True))
    sorted_report = grade(task, write(tmp_path / "a.csv", rows), answers)
    order = np.random.default_rng(0).permutation(len(rows))
    shuffled = [rows[i] for i in order]
    assert shuffled != rows
    shuffled_report = grade(task, write(tmp_path / "b.csv", shuffled), answers)
    assert shuffled_report.valid
    assert shuffled_report.score == sorted_report.score == 0.6


@pytest.mark.parametrize(
    ("true_text", "false_text"),
    [("1", "0"), ("true", "false"), ("TRUE", "FALSE"), ("1.0", "0.0"), (" True", "False ")],
)
def test_binary_spellings_grade_alike(
    task: TaskSpec, answers: Path, tmp_path: Path, true_text: str, false_text: str
) -> None:
    preds = [True, True, False, True, False, True, True, False, False, True]
    canonical = write(tmp_path / "c.csv", [(i, str(p)) for i, p in zip(IDS, preds, strict=True)])
    variant = write(
        tmp_path / "v.csv",
        [(i, true_text if p else false_text) for i, p in zip(IDS, preds, strict=True)],
    )
    expected = grade(task, canonical, answers)
    got = grade(task, variant, answers)
    assert got.valid, got.message
    assert got.score == expected.score == 0.6


def test_answers_given_as_ones_and_zeros(task: TaskSpec, tmp_path: Path) -> None:
    answers = tmp_path / "ans.csv"
    answers.write_text("PassengerId,Transported\na,1\nb,0\n")
    sub = write(tmp_path / "s.csv", [("a", "True"), ("b", "False")])
    assert grade(task, sub, answers).score == 1.0


def test_utf8_bom_and_crlf_are_accepted(task: TaskSpec, answers: Path, tmp_path: Path) -> None:
    text = "\ufeff" + HEADER.replace("\n", "\r\n")
    text += "".join(f"{i},{t}\r\n" for i, t in zip(IDS, TRUTH, strict=True))
    sub = tmp_path / "bom.csv"
    sub.write_bytes(text.encode("utf-8"))
    report = grade(task, sub, answers)
    assert report.valid, report.message
    assert report.score == 1.0


def test_expected_ids_from_sample_submission(task: TaskSpec, answers: Path, tmp_path: Path) -> None:
    sample = write(tmp_path / "sample.csv", [(i, "False") for i in reversed(IDS)])
    sub = write(tmp_path / "s.csv", [(i, "False") for i in IDS])
    report = grade(task, sub, answers, expected_ids_from=sample)
    assert report.valid and report.score == 0.4
    wrong = write(tmp_path / "wrong.csv", [(i, "False") for i in IDS[:-1]])
    with pytest.raises(RuntimeError, match="differ"):
        grade(task, sub, answers, expected_ids_from=wrong)


# --------------------------------------------------------------------------- grading: invalid

Maker = Callable[[Path], Path | None]


def _rows(preds: list[str] | None = None, ids: list[str] | None = None) -> list[tuple[str, str]]:
    ids = IDS if ids is None else ids
    preds = ["True"] * len(ids) if preds is None else preds
    return list(zip(ids, preds, strict=True))


def _raw(name: str, data: bytes) -> Maker:
    def make(d: Path) -> Path:
        path = d / name
        path.write_bytes(data)
        return path

    return make


def _text(rows: list[tuple[str, str]], header: str = HEADER) -> Maker:
    return lambda d: write(d / "submission.csv", rows, header)


def _directory(d: Path) -> Path:
    path = d / "submission.csv"
    path.mkdir()
    return path


def _fifo(d: Path) -> Path:
    path = d / "submission.csv"
    os.mkfifo(path)
    return path


def _symlink(d: Path) -> Path:
    target = write(d / "real.csv", _rows())
    link = d / "submission.csv"
    link.symlink_to(target)
    return link


_GOOD_BODY = "".join(f"{a},{b}\n" for a, b in _rows())

MALFORMED: list[tuple[str, Maker, list[str]]] = [
    ("missing file", lambda d: d / "nope.csv", ["no submission file", "nope.csv was not found"]),
    ("no path", lambda d: None, ["no submission file"]),
    ("empty file", _raw("submission.csv", b""), ["is empty", "0 bytes"]),
    ("whitespace only", _raw("submission.csv", b" \n\n  \n"), ["only whitespace"]),
    ("binary NUL", _raw("submission.csv", b"PK\x03\x04\x00\x00\x14"), ["NUL bytes", "binary"]),
    (
        "latin-1 text",
        _raw("submission.csv", (HEADER + "0001_01,Tr\xe8s\n").encode("latin-1")),
        ["not valid UTF-8", "position"],
    ),
    ("directory", _directory, ["is a directory"]),
    ("fifo", _fifo, ["not a regular file"]),
    ("symlink", _symlink, ["symbolic link"]),
    (
        "ragged long row",
        _raw("submission.csv", (HEADER + "0001_01,True,9\n").encode()),
        ["line 2", "3 field(s)", "header has 2"],
    ),
    (
        "ragged short row",
        _raw("submission.csv", (HEADER + _GOOD_BODY + "0011_01\n").encode()),
        ["line 12", "1 field(s)"],
    ),
    (
        "unbalanced quote",
        _raw("submission.csv", (HEADER + '0001_01,"True\n').encode()),
        ["not a well-formed CSV", "line 2", "unbalanced double quote"],
    ),
    ("header only", _raw("submission.csv", HEADER.encode()), ["no data rows"]),
    (
        "missing target column",
        _raw("submission.csv", ("PassengerId\n" + "\n".join(IDS) + "\n").encode()),
        ["missing column(s) 'Transported'"],
    ),
    (
        "extra column",
        _raw(
            "submission.csv",
            ("PassengerId,Transported,Prob\n" + "".join(f"{i},True,0.5\n" for i in IDS)).encode(),
        ),
        ["unexpected column(s) 'Prob'"],
    ),
    (
        "index written",
        _raw(
            "submission.csv",
            (",Id,Transported\n" + "".join(f"{n},{i},True\n" for n, i in enumerate(IDS))).encode(),
        ),
        ["missing column(s) 'PassengerId'", "index was written", "index=False"],
    ),
    (
        "wrong case column",
        _text(_rows(), header="PassengerId,transported\n"),
        ["missing column(s) 'Transported'", "'transported' should be spelled 'Transported'"],
    ),
    (
        "duplicate column names",
        _raw(
            "submission.csv",
            ("PassengerId,Transported,Transported\n" + "".join(f"{i},1,1\n" for i in IDS)).encode(),
        ),
        ["Duplicate column names", "'Transported'"],
    ),
    (
        "no header",
        _raw("submission.csv", _GOOD_BODY.encode()),
        ["first line must be the header"],
    ),
    (
        "too few rows",
        _text(_rows(ids=IDS[:-2])),
        ["expected 10, got 8", "missing ids: 2", "'0009_01', '0010_01'"],
    ),
    (
        "too many rows",
        _text([*_rows(), ("0099_01", "True")]),
        ["expected 10, got 11", "unknown ids: 1", "'0099_01'"],
    ),
    (
        "duplicate ids",
        _text([*_rows(ids=IDS[:-1]), (IDS[0], "True")]),
        ["duplicate ids: 1 id(s)", "'0001_01' (2 times)", "missing ids: 1", "'0010_01'"],
    ),
    (
        "unknown ids",
        _text(_rows(ids=[*IDS[:-1], "9999_99"])),
        ["unknown ids: 1", "'9999_99'", "missing ids: 1", "'0010_01'"],
    ),
    (
        "ids differ only by whitespace",
        _text(_rows(ids=[f" {i}" for i in IDS])),
        ["unknown ids: 10", "' 0001_01'", "remove surrounding spaces"],
    ),
    (
        "blank target",
        _text(_rows(preds=["True", "", "True", " ", *["True"] * 6])),
        ["'Transported' has 2 empty or NaN", "row(s) 2, 4"],
    ),
    (
        "NaN target",
        _text(_rows(preds=[*["True"] * 9, "NaN"])),
        ["1 empty or NaN", "row(s) 10"],
    ),
    (
        "yes/maybe for binary",
        _text(_rows(preds=["yes", "maybe", *["True"] * 8])),
        ["must be True/False", "2 value(s)", "'yes', 'maybe'", "row(s) 1, 2"],
    ),
    (
        "probability for binary",
        _text(_rows(preds=["0.7", *["True"] * 9])),
        ["must be True/False", "'0.7'"],
    ),
]


@pytest.mark.parametrize(
    ("make", "expected"), [m[1:] for m in MALFORMED], ids=[m[0] for m in MALFORMED]
)
def test_malformed_submission_is_invalid_with_specific_message(
    task: TaskSpec, answers: Path, tmp_path: Path, make: Maker, expected: list[str]
) -> None:
    sub_dir = tmp_path / "sub"
    sub_dir.mkdir()
    report = grade(task, make(sub_dir), answers)
    assert report.valid is False
    assert report.score is None
    assert report.message
    for fragment in expected:
        assert fragment in report.message, (fragment, report.message)
    # on Kaggle data an invalid submission wins nothing
    assert report.any_medal is False and report.gold_medal is False
    assert report.above_median is False
    assert report.percentile is None
    json.dumps(report.to_dict())


def test_missing_file_is_not_an_existing_submission(
    task: TaskSpec, answers: Path, tmp_path: Path
) -> None:
    assert grade(task, tmp_path / "nope.csv", answers).submission_exists is False
    assert grade(task, None, answers).submission_exists is False
    empty = tmp_path / "empty.csv"
    empty.write_bytes(b"")
    assert grade(task, empty, answers).submission_exists is True


def test_too_large_file(task: TaskSpec, answers: Path, tmp_path: Path) -> None:
    sub = write(tmp_path / "big.csv", _rows())
    size = sub.stat().st_size
    report = grade(task, sub, answers, max_bytes=100)
    assert not report.valid
    assert f"{size:,} bytes" in report.message
    assert "100-byte limit" in report.message
    assert grade(task, sub, answers, max_bytes=size).valid


def test_numeric_inf_is_invalid(task: TaskSpec, tmp_path: Path) -> None:
    numeric = dataclasses.replace(
        task, submission=dataclasses.replace(task.submission, target_kind="numeric")
    )
    answers = tmp_path / "ans.csv"
    answers.write_text("PassengerId,Transported\na,1.5\nb,2\nc,3\n")
    ok = grade(
        numeric, write(tmp_path / "ok.csv", [("a", "1.5"), ("b", "2.0"), ("c", "0")]), answers
    )
    assert ok.valid and ok.score == pytest.approx(2 / 3, abs=1e-5)
    for bad in ("inf", "-Infinity", "1e400"):
        sub = write(tmp_path / "bad.csv", [("a", "1"), ("b", bad), ("c", "0")])
        report = grade(numeric, sub, answers)
        assert not report.valid
        assert "must hold finite numbers" in report.message
        assert repr(bad) in report.message
        assert "row(s) 2" in report.message


# --------------------------------------------------------------------------- validation


def test_validation_returns_sorted_typed_frame() -> None:
    spec = SubmissionSpec("s.csv", "id", ("y",), "binary")
    df = pd.DataFrame({"y": ["1", "false", "TRUE"], "id": ["c", "a", "b"]}, dtype=str)
    out = validate_submission_frame(df, ["a", "b", "c"], spec)
    assert list(out.columns) == ["id", "y"]
    assert out["id"].tolist() == ["a", "b", "c"]
    assert out["y"].tolist() == [False, True, True]
    assert out["y"].dtype == bool
    assert list(out.index) == [0, 1, 2]


@pytest.mark.parametrize(
    ("kind", "values", "fragment"),
    [
        ("numeric", ["1", "abc", "2"], "must hold numbers"),
        ("numeric", ["1", "nan", "2"], "empty or NaN"),
        ("numeric", ["1", "-inf", "2"], "must hold finite numbers"),
        ("probability", ["0.1", "1.5", "0"], "probabilities in [0, 1]"),
        ("probability", ["0.1", "-0.01", "0"], "'-0.01'"),
        ("label", ["cat", "", "dog"], "empty or NaN"),
    ],
)
def test_value_kinds_rejected(kind: str, values: list[str], fragment: str) -> None:
    spec = SubmissionSpec("s.csv", "id", ("y",), kind)
    df = pd.DataFrame({"id": ["a", "b", "c"], "y": values}, dtype=str)
    with pytest.raises(InvalidSubmission) as info:
        validate_submission_frame(df, ["a", "b", "c"], spec)
    assert fragment in str(info.value)


def test_value_kinds_accepted() -> None:
    ids = ["a", "b", "c"]
    num = SubmissionSpec("s.csv", "id", ("y",), "numeric")
    df = pd.DataFrame({"id": ids, "y": ["1", " -2.5e3 ", "0.125"]}, dtype=str)
    assert validate_submission_frame(df, ids, num)["y"].tolist() == [1.0, -2500.0, 0.125]
    prob = SubmissionSpec("s.csv", "id", ("y",), "probability")
    df = pd.DataFrame({"id": ids, "y": ["0", "1", "0.5"]}, dtype=str)
    assert validate_submission_frame(df, ids, prob)["y"].tolist() == [0.0, 1.0, 0.5]
    lab = SubmissionSpec("s.csv", "id", ("y",), "label")
    df = pd.DataFrame({"id": ids, "y": ["cat", "Dog ", "42"]}, dtype=str)
    assert validate_submission_frame(df, ids, lab)["y"].tolist() == ["cat", "Dog ", "42"]


def test_validation_reports_every_bad_target_column() -> None:
    spec = SubmissionSpec("s.csv", "id", ("p", "q"), "probability")
    df = pd.DataFrame({"id": ["a", "b"], "p": ["2", "0"], "q": ["", "0"]}, dtype=str)
    with pytest.raises(InvalidSubmission) as info:
        validate_submission_frame(df, ["a", "b"], spec)
    assert "'p'" in str(info.value) and "'q'" in str(info.value)


def test_validation_setup_errors_are_value_errors() -> None:
    df = pd.DataFrame({"id": ["a"], "y": ["1"]}, dtype=str)
    with pytest.raises(ValueError, match="target_kind"):
        validate_submission_frame(df, ["a"], SubmissionSpec("s.csv", "id", ("y",), "weird"))
    with pytest.raises(ValueError, match="duplicates") as info:
        ExpectedIds(["a", "a"])
    assert not isinstance(info.value, InvalidSubmission)


def test_repeated_expected_ids_need_as_many_rows() -> None:
    """Answers keyed by a value that repeats (a comment's text): each id as often as there,
    rows of one id kept in file order."""
    spec = SubmissionSpec("s.csv", "id", ("y",), "label")
    with pytest.raises(InvalidSubmission, match="repeated ids"):
        validate_submission_frame(
            pd.DataFrame({"id": ["a", "b", "b"], "y": ["1", "2", "3"]}, dtype=str),
            ["a", "a", "b"],
            spec,
        )
    out = validate_submission_frame(
        pd.DataFrame({"id": ["b", "a", "a"], "y": ["3", "1", "2"]}, dtype=str),
        ["a", "b", "a"],
        spec,
    )
    assert out["id"].tolist() == ["a", "a", "b"] and out["y"].tolist() == ["1", "2", "3"]


def test_many_problems_show_a_few_examples() -> None:
    spec = SubmissionSpec("s.csv", "id", ("y",), "binary")
    ids = [str(i) for i in range(100)]
    df = pd.DataFrame({"id": [f"x{i}" for i in range(100)], "y": ["1"] * 100}, dtype=str)
    with pytest.raises(InvalidSubmission) as info:
        validate_submission_frame(df, ids, spec)
    message = str(info.value)
    assert "unknown ids: 100" in message and "and 95 more" in message
    assert len(message) < 600


# --------------------------------------------------------------------------- safe reader


def test_reader_returns_text_exactly(tmp_path: Path) -> None:
    spec = SubmissionSpec("s.csv", "id", ("y",), "label")
    path = tmp_path / "s.csv"
    path.write_text('id,y\n007,NA\n"a,b",""\n\n1.0,  x \n')
    df = read_submission(path, spec, max_bytes=MAX)
    assert list(df.columns) == ["id", "y"]
    assert df.values.tolist() == [["007", "NA"], ["a,b", ""], ["1.0", "  x "]]


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.binary(max_size=200) | st.text(alphabet='ab,"\n\r 1\x00', max_size=60).map(str.encode))
def test_reader_only_raises_invalid_submission(tmp_path: Path, data: bytes) -> None:
    spec = SubmissionSpec("s.csv", "id", ("y",), "label")
    path = tmp_path / "fuzz.csv"
    path.write_bytes(data)
    try:
        df = read_submission(path, spec, max_bytes=MAX)
    except InvalidSubmission as exc:
        assert str(exc)
    else:
        assert len(df) >= 1
        assert all(isinstance(v, str) for v in df.to_numpy().ravel())


# --------------------------------------------------------------------------- task grade.py


def _task_with_grader(tmp_path: Path, body: str) -> TaskSpec:
    folder = tmp_path / "tasks" / "spaceship-titanic"
    shutil.copytree(TASK_DIR, folder)
    (folder / "grade.py").write_text(body)
    return load_task(folder)


def test_task_grade_py_is_used(tmp_path: Path, answers: Path) -> None:
    custom = _task_with_grader(
        tmp_path,
        "def grade(submission, answers):\n"
        "    assert list(submission['PassengerId']) == list(answers['PassengerId'])\n"
        "    assert 'HomePlanet' in answers.columns\n"
        "    return float(submission['Transported'].sum()) / 1000 + 0.123456789\n",
    )
    sub = write(tmp_path / "s.csv", _rows(preds=["1", "0"] * 5)[::-1])
    report = grade(custom, sub, answers)
    assert report.valid, report.message
    assert report.score == round(5 / 1000 + 0.123456789, 5)


def test_grader_exception_becomes_invalid(tmp_path: Path, answers: Path) -> None:
    broken = _task_with_grader(tmp_path, "def grade(submission, answers):\n    return 1 / 0\n")
    report = grade(broken, write(tmp_path / "s.csv", _rows()), answers)
    assert not report.valid
    assert report.message.startswith("grader error:")
    assert "ZeroDivisionError" in report.message


def test_grader_nan_becomes_invalid(tmp_path: Path, answers: Path) -> None:
    nan_task = _task_with_grader(
        tmp_path, "def grade(submission, answers):\n    return float('nan')\n"
    )
    report = grade(nan_task, write(tmp_path / "s.csv", _rows()), answers)
    assert not report.valid and "not a finite number" in report.message


def test_metric_value_error_is_an_invalid_submission(tmp_path: Path, answers: Path) -> None:
    picky = _task_with_grader(
        tmp_path, "def grade(submission, answers):\n    raise ValueError('rows must sum to 1')\n"
    )
    report = grade(picky, write(tmp_path / "s.csv", _rows()), answers)
    assert not report.valid and report.message == "cannot score the submission: rows must sum to 1"


def test_raw_grader_gets_unvalidated_text_frames(tmp_path: Path, answers: Path) -> None:
    folder = tmp_path / "tasks" / "spaceship-titanic"
    shutil.copytree(TASK_DIR, folder)
    (folder / "task.yaml").write_text((folder / "task.yaml").read_text() + "grader: raw\n")
    (folder / "grade.py").write_text(
        "from mle_gym.grading import InvalidSubmission\n"
        "def grade(submission, answers):\n"
        "    if 'Extra' not in submission.columns:\n"
        "        raise InvalidSubmission('need Extra')\n"
        "    assert all(isinstance(v, str) for v in submission['Extra'])\n"
        "    return len(submission) / len(answers)\n"
    )
    raw_task = load_task(folder)
    assert raw_task.grader == "raw"
    dup = "PassengerId,Transported,Extra\n" + "0001_01,True,x\n" * 20  # repeated ids are fine
    (tmp_path / "s.csv").write_text(dup)
    report = grade(raw_task, tmp_path / "s.csv", answers)
    assert report.valid and report.score == 2.0
    (tmp_path / "t.csv").write_text("PassengerId\n1\n")
    report = grade(raw_task, tmp_path / "t.csv", answers)
    assert not report.valid and report.message == "need Extra"
    report = grade(raw_task, tmp_path / "missing.csv", answers)
    assert not report.valid and not report.submission_exists


def test_grade_py_can_reject_a_submission(tmp_path: Path, answers: Path) -> None:
    strict = _task_with_grader(
        tmp_path,
        "from mle_gym.grading import InvalidSubmission\n"
        "def grade(submission, answers):\n"
        "    raise InvalidSubmission('all predictions are identical; that is not allowed')\n",
    )
    report = grade(strict, write(tmp_path / "s.csv", _rows()), answers)
    assert not report.valid
    assert report.message == "all predictions are identical; that is not allowed"


# --------------------------------------------------------------------------- setup errors


def test_missing_answers_is_a_setup_error(task: TaskSpec, tmp_path: Path) -> None:
    sub = write(tmp_path / "s.csv", _rows())
    with pytest.raises(RuntimeError, match="answers"):
        grade(task, sub, tmp_path / "no_answers.csv")


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"PassengerId,Other\na,1\n",
        b"PassengerId,Transported\na,perhaps\n",
        b"\x00\x01",
    ],
)
def test_corrupt_answers_is_a_setup_error(task: TaskSpec, tmp_path: Path, content: bytes) -> None:
    answers = tmp_path / "answers.csv"
    answers.write_bytes(content)
    with pytest.raises(RuntimeError, match="answers file"):
        grade(task, write(tmp_path / "s.csv", [("a", "True")]), answers)


def test_answers_repeating_an_id_pair_rows_in_order(task: TaskSpec, tmp_path: Path) -> None:
    """Not a setup error: a submission repeating the id as often is graded, the rows of one
    id paired in file order; one row for it is invalid."""
    answers = tmp_path / "answers.csv"
    answers.write_text("PassengerId,Transported\na,True\na,False\nb,True\n")
    report = grade(
        task, write(tmp_path / "s.csv", [("a", "True"), ("b", "True"), ("a", "True")]), answers
    )
    assert report.valid and report.score == pytest.approx(2 / 3, abs=1e-5)
    once = grade(task, write(tmp_path / "t.csv", [("a", "True"), ("b", "True")]), answers)
    assert not once.valid and "repeated ids" in once.message


def test_unknown_data_source_and_metric(task: TaskSpec, answers: Path, tmp_path: Path) -> None:
    sub = write(tmp_path / "s.csv", _rows())
    with pytest.raises(ValueError, match="no data source"):
        grade(task, sub, answers, data_source="bundled")
    odd = dataclasses.replace(task, metric="no-such-metric")
    with pytest.raises(RuntimeError, match=r"known metrics: .*accuracy"):
        grade(odd, sub, answers)


# --------------------------------------------------------------------------- medals


def test_medals_at_exact_thresholds_higher_better(task: TaskSpec) -> None:
    lb = task.leaderboard
    assert lb is not None
    assert (lb.gold, lb.silver, lb.bronze, lb.median) == (0.82066, 0.81388, 0.80967, 0.79565)
    gold = medals_for(0.82066, lb, lower_is_better=False)
    assert gold == {
        "gold_medal": True,
        "silver_medal": False,
        "bronze_medal": False,
        "any_medal": True,
        "above_median": True,
    }
    silver = medals_for(0.82065, lb, False)
    assert silver["silver_medal"] and not silver["gold_medal"] and silver["any_medal"]
    assert medals_for(0.81388, lb, False)["silver_medal"]
    assert medals_for(0.81387, lb, False)["bronze_medal"]
    assert medals_for(0.80967, lb, False)["bronze_medal"]
    none = medals_for(0.80966, lb, False)
    assert not none["any_medal"] and none["above_median"]
    assert medals_for(0.79565, lb, False)["above_median"] is False
    assert medals_for(0.79566, lb, False)["above_median"] is True
    assert not any(medals_for(math.nan, lb, False).values())


def test_medals_at_exact_thresholds_lower_better() -> None:
    lb = Leaderboard(
        teams=100,
        gold=0.1,
        silver=0.2,
        bronze=0.3,
        median=0.5,
        sample_submission_score=1.0,
        score_at_rank_fraction=(),
    )
    assert medals_for(0.1, lb, True)["gold_medal"]
    assert medals_for(0.05, lb, True)["gold_medal"]
    assert medals_for(0.10001, lb, True)["silver_medal"]
    assert medals_for(0.3, lb, True)["bronze_medal"]
    assert not medals_for(0.30001, lb, True)["any_medal"]
    assert medals_for(0.5, lb, True)["above_median"] is False
    assert medals_for(0.49999, lb, True)["above_median"] is True


def test_report_medals_follow_score(task: TaskSpec, tmp_path: Path) -> None:
    # 1000 rows, 821 right -> 0.821 >= 0.82066: gold
    ids = [f"{i:05d}" for i in range(1000)]
    answers = write(tmp_path / "ans.csv", [(i, "True") for i in ids])
    preds = ["True"] * 821 + ["False"] * 179
    report = grade(task, write(tmp_path / "s.csv", list(zip(ids, preds, strict=True))), answers)
    assert report.score == 0.821
    assert report.gold_medal and report.any_medal and not report.silver_medal
    assert report.gold_threshold == 0.82066 and report.median_threshold == 0.79565
    assert report.sample_submission_score == 0.50345
    assert report.is_lower_better is False
    assert report.competition_id == "spaceship-titanic"


# --------------------------------------------------------------------------- percentile


def _lb(grid: list[float]) -> Leaderboard:
    return Leaderboard(
        teams=len(grid),
        gold=grid[0],
        silver=grid[0],
        bronze=grid[0],
        median=grid[len(grid) // 2],
        sample_submission_score=None,
        score_at_rank_fraction=tuple(grid),
    )


def test_percentile_on_spaceship_titanic(task: TaskSpec) -> None:
    lb = task.leaderboard
    assert lb is not None
    assert percentile_beaten(0.83, lb, False) == 1.0
    assert percentile_beaten(0.82815, lb, False) == 1.0  # the best entry, nothing above
    assert percentile_beaten(0.0, lb, False) == 0.0  # ties the worst entries
    assert percentile_beaten(-1.0, lb, False) == 0.0
    assert 0.49 <= percentile_beaten(0.79565, lb, False) <= 0.51
    assert percentile_beaten(0.79565, lb, False) == pytest.approx(0.5)
    # halfway between the grid points at 0.50 and 0.51
    assert percentile_beaten((0.79565 + 0.79518) / 2, lb, False) == pytest.approx(0.495)


def test_percentile_flat_stretches_and_lower_better() -> None:
    grid = [1.0] * 51 + list(np.linspace(0.9, 0.0, 50))
    lb = _lb(grid)
    assert percentile_beaten(1.0, lb, False) == pytest.approx(0.5)  # ties the top half
    assert percentile_beaten(1.0001, lb, False) == 1.0
    # the same leaderboard, lower is better, mirrored
    mirrored = _lb([-x for x in grid])
    for s in (1.2, 1.0, 0.95, 0.5, 0.0, -0.3):
        assert percentile_beaten(-s, mirrored, True) == percentile_beaten(s, lb, False)
    with pytest.raises(ValueError, match="no score_at_rank_fraction"):
        percentile_beaten(0.5, dataclasses.replace(lb, score_at_rank_fraction=()), False)
    with pytest.raises(ValueError, match="NaN"):
        percentile_beaten(math.nan, lb, False)


@functools.cache
def _spaceship_leaderboard() -> Leaderboard | None:
    return load_task(TASK_DIR).leaderboard


@settings(max_examples=200, deadline=None)
@given(st.floats(-0.5, 1.5), st.floats(-0.5, 1.5))
def test_percentile_monotone_on_spaceship_titanic(a: float, b: float) -> None:
    lb = _spaceship_leaderboard()
    assert lb is not None
    lo, hi = min(a, b), max(a, b)
    p_lo, p_hi = percentile_beaten(lo, lb, False), percentile_beaten(hi, lb, False)
    assert 0.0 <= p_lo <= p_hi <= 1.0
    # lower-is-better on the negated board is the mirror image
    neg = dataclasses.replace(
        lb, score_at_rank_fraction=tuple(-x for x in lb.score_at_rank_fraction)
    )
    assert percentile_beaten(-hi, neg, True) == p_hi


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 20), min_size=2, max_size=101),
    st.integers(-2, 22),
    st.integers(-2, 22),
    st.booleans(),
)
def test_percentile_monotone_on_any_board(
    values: list[int], a: int, b: int, lower_is_better: bool
) -> None:
    grid = sorted(values, reverse=not lower_is_better)  # best first, with repeats
    lb = _lb([float(v) for v in grid])
    worse, better = (max(a, b), min(a, b)) if lower_is_better else (min(a, b), max(a, b))
    p_worse = percentile_beaten(float(worse), lb, lower_is_better)
    p_better = percentile_beaten(float(better), lb, lower_is_better)
    assert 0.0 <= p_worse <= p_better <= 1.0
    best, last = grid[0], grid[-1]
    beyond_best = best - 1 if lower_is_better else best + 1
    assert percentile_beaten(float(beyond_best), lb, lower_is_better) == 1.0
    assert percentile_beaten(float(last), lb, lower_is_better) == 0.0


# --------------------------------------------------------------------------- reports


def test_replica_report_claims_no_medals(task: TaskSpec, answers: Path, tmp_path: Path) -> None:
    sub = write(tmp_path / "s.csv", _rows())
    report = grade(task, sub, answers, data_source="replica")
    assert report.valid and report.score == 0.6
    assert report.data_source == "replica"
    for name in (
        "gold_medal",
        "silver_medal",
        "bronze_medal",
        "any_medal",
        "above_median",
        "percentile",
        "gold_threshold",
        "silver_threshold",
        "bronze_threshold",
        "median_threshold",
    ):
        assert getattr(report, name) is None, name
    replica = task.data["replica"]
    assert report.sample_submission_score == replica["sample_submission_score"]
    assert report.reference_score == replica["reference_score"]
    invalid = grade(task, tmp_path / "missing.csv", answers, data_source="replica")
    assert invalid.any_medal is None and invalid.percentile is None and not invalid.valid


def test_replica_reference_figures_come_from_task_data(
    task: TaskSpec, answers: Path, tmp_path: Path
) -> None:
    data = dict(task.data)
    data["replica"] = {"reference_score": 0.79, "sample_submission_score": 0.5}
    measured = dataclasses.replace(task, data=data)
    report = grade(measured, write(tmp_path / "s.csv", _rows()), answers, data_source="replica")
    assert report.reference_score == 0.79
    assert report.sample_submission_score == 0.5
    assert report.percentile is None


def test_report_to_dict_is_json(task: TaskSpec, answers: Path, tmp_path: Path) -> None:
    report = grade(task, write(tmp_path / "s.csv", _rows()), answers)
    data = report.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert {f.name for f in dataclasses.fields(GradeReport)} == set(data)
    assert type(data["score"]) is float and type(data["gold_medal"]) is bool
    numpy_report = dataclasses.replace(
        report, score=np.float64(0.5), any_medal=np.bool_(True), percentile=np.float32(0.25)
    )
    converted = numpy_report.to_dict()
    json.dumps(converted)
    assert type(converted["any_medal"]) is bool and converted["percentile"] == 0.25


# --------------------------------------------------------------------------- hygiene


def test_grading_imports_no_sklearn_or_scipy() -> None:
    code = (
        "import sys, mle_gym.grading\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('sklearn', 'scipy')]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO)
    heavy = re.compile(r"^\s*(from|import)\s+(sklearn|scipy)\b", re.MULTILINE)
    for source in (REPO / "mle_gym" / "grading").glob("*.py"):
        assert not heavy.search(source.read_text()), source


@pytest.mark.parametrize(
    ("written", "hint"),
    [
        (["1.0", "2.0", "3.0"], "written as floats"),
        (["7", "8", "9"], "leading zeros were lost"),
    ],
)
def test_mangled_ids_get_a_hint(written: list[str], hint: str) -> None:
    spec = SubmissionSpec("s.csv", "id", ("y",), "label")
    expected = ["1", "2", "3"] if hint == "written as floats" else ["007", "008", "009"]
    df = pd.DataFrame({"id": written, "y": ["a"] * 3}, dtype=str)
    with pytest.raises(InvalidSubmission, match=hint):
        validate_submission_frame(df, expected, spec)
    # the same ids, correctly written, pass
    good = pd.DataFrame({"id": expected, "y": ["a"] * 3}, dtype=str)
    assert validate_submission_frame(good, expected, spec)["id"].tolist() == expected
