"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mle_gym.families.mlebench.testing import (
    Check,
    MLEBenchTask,
    ParityCase,
    WorseCase,
    assert_invalid,
    assert_score,
    grade_file,
    score,
    write_csv,
)


def _tf2qa_first_answer(answers: pd.DataFrame) -> pd.DataFrame:
    """The first accepted answer of every row (blank where none is accepted)."""
    first = answers["PredictionString"].map(lambda c: c.split()[0] if c.split() else "")
    return pd.DataFrame({"example_id": answers["example_id"], "PredictionString": first})


CASE = WorseCase(
    answers={
        "example_id": [
            "-1011141123527297803_long",
            "-1011141123527297803_short",
            "-1028916936938579349_long",
            "-1028916936938579349_short",
            "1000463186017541226_long",
            "1000463186017541226_short",
        ],
        "PredictionString": ["212:310", "213:215 260:263", "", "", "6:68", "YES"],
    },
    imperfect={
        "example_id": [
            "-1011141123527297803_long",
            "-1011141123527297803_short",
            "-1028916936938579349_long",
            "-1028916936938579349_short",
            "1000463186017541226_long",
            "1000463186017541226_short",
        ],
        "PredictionString": ["212:310", "260:263", "5:9", "", "6:68", "NO"],
    },
    malformed={
        "example_id": [
            "-1011141123527297803_long",
            "-1011141123527297803_short",
            "-1028916936938579349_long",
            "-1028916936938579349_short",
            "1000463186017541226_long",
            "1000463186017541226_short",
        ],
        "PredictionString": ["212-310", "", "", "", "", ""],
    },
    best=1.0,
    perfect=_tf2qa_first_answer,
)


def blank_is_right_only_without_an_answer(task: MLEBenchTask, tmp_path: Path) -> None:
    case = CASE
    submission = {"example_id": case.answers["example_id"], "PredictionString": [""] * 6}
    report = score(task, tmp_path, case.answers, submission)
    assert_score(report, 2 / 6, abs=1e-5)
    case_imperfect = score(task, tmp_path, case.answers, case.imperfect)
    assert_score(case_imperfect, 4 / 6, abs=1e-5)


def all_blank_follows_pandas_fillna(task: MLEBenchTask, tmp_path: Path) -> None:
    """A PredictionString column left entirely blank (the sample submission) is read as
    float NaN; MLE-bench's in-place ``fillna("")`` fills it as pandas 2 does (2 of 6 rows
    right: the question without answers), also beside an extra column left blank; a lone
    number among blanks stays a number there and becomes the text "5.0": rejected."""
    ids = "\n".join(CASE.answers["example_id"])
    blank = "example_id,PredictionString\n" + ids.replace("\n", ",\n") + ",\n"
    answers = write_csv(tmp_path / task.answers_file, pd.DataFrame(CASE.answers))
    report = grade_file(task, tmp_path, answers, "blank.csv", blank, grading="mlebench")
    assert_score(report, 2 / 6, abs=1e-5)
    extra = blank.replace("PredictionString\n", "PredictionString,notes\n").replace(",\n", ",,\n")
    report = grade_file(task, tmp_path, answers, "extra.csv", extra, grading="mlebench")
    assert_score(report, 2 / 6, abs=1e-5)
    number = blank.replace("_long,\n", "_long,5\n", 1)
    report = grade_file(task, tmp_path, answers, "number.csv", number, grading="mlebench")
    assert_invalid(report)


def mlebench_answers(ours: Path, folder: Path) -> Path:
    """MLE-bench's answers (test.jsonl: per example its annotations, each a long answer
    span, short answer spans and a yes/no answer) from ours (answers.csv: rows
    ``<example>_long`` and ``<example>_short`` with the spans as ``start:end`` tokens,
    YES/NO among the short ones; the k-th short row of an example pairs with its k-th long
    row, the last one if fewer), for the parity script."""
    import json

    rows = pd.read_csv(ours, dtype=str, keep_default_na=False)
    pairs = [
        (eid.rsplit("_", 1), cell)
        for eid, cell in zip(rows["example_id"], rows["PredictionString"], strict=True)
    ]
    longs: dict[str, list[dict[str, int]]] = {}
    for (example, kind), cell in pairs:
        if kind == "long":
            spans = [token.split(":") for token in cell.split()]
            start, end = (int(spans[0][0]), int(spans[0][1])) if spans else (-1, -1)
            longs.setdefault(example, []).append({"start_token": start, "end_token": end})
    lines, seen = [], dict[str, int]()
    for (example, kind), cell in pairs:
        if kind != "short":
            continue
        tokens = cell.split()
        verdicts = [t for t in tokens if t in ("YES", "NO")]
        shorts = [
            {"start_token": int(a), "end_token": int(b)}
            for a, b in (t.split(":") for t in tokens if t not in ("YES", "NO"))
        ]
        k = seen.get(example, 0)
        seen[example] = k + 1
        options = longs[example]
        annotation = {
            "long_answer": options[min(k, len(options) - 1)],
            "short_answers": shorts,
            "yes_no_answer": verdicts[0] if verdicts else "NONE",
        }
        lines.append(json.dumps({"example_id": example, "annotations": [annotation]}) + "\n")
    out = folder / "test.jsonl"
    out.write_text("".join(lines), encoding="utf-8")
    return out


CASES: dict[str, Check] = {
    "grading": CASE,
    # rows agree (prediction given and accepted, or blank and nothing accepted) on 212:310,
    # 260:263 (one of two accepted spans), the blank of a question without answers and
    # 6:68; 5:9 where nothing is accepted and NO against YES do not: micro F1 = 4/6. A blank
    # first row misses its accepted answer: 3/6. Answers repeating a row make the
    # submission repeat an id: rejected.
    "parity": ParityCase(
        pd.DataFrame(CASE.answers),
        pd.DataFrame(CASE.imperfect),
        score=round(4 / 6, 5),
        mlebench_answers=mlebench_answers,
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "same",
            "index_column": "same",
            "missing_id": "invalid",
            "duplicate_id": "invalid",
            "unknown_id": "invalid",
            "blank_target": 0.5,
            "empty_file": "invalid",
            "header_only": "invalid",
            "duplicate_answer_keys": "invalid",
        },
        strict={"blank_target": 0.5},
    ),
    "blank-is-right-only-without-an-answer": blank_is_right_only_without_an_answer,
    "all-blank-follows-pandas-fillna": all_blank_follows_pandas_fillna,
}
