"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.testing import (
    Check,
    FormatChecker,
    MLEBenchTask,
    ParityCase,
    RawCase,
    RawFormat,
    RawGrading,
    RawSampleScore,
    ap_at_k,
    assert_invalid,
    assert_score,
    expect_invalid,
    grade_file,
    raw_files,
)

# Kaggle's sample submission: the same 12 articles for everyone, with leading zeros
HM_POPULAR = (
    "0706016001 0706016002 0372860001 0610776002 0759871002 0464297007 "
    "0372860002 0610776001 0399223001 0706016003 0720125001 0156231001"
)


def customer(n: int) -> str:
    """A 64-hex-digit customer id, as in the H&M data."""
    return hashlib.sha256(f"customer {n}".encode()).hexdigest()


def raw_case_hm() -> RawCase:
    customers = [customer(n) for n in range(6)]
    # answers: only the buyers of the test week; article ids without leading zeros, one per
    # purchase (a repeated purchase repeats the id)
    bought = {
        customers[0]: "706016001 706016002",
        customers[2]: "372860001",
        customers[3]: "610776002 759871002 610776002",
    }
    answers = pd.DataFrame({"customer_id": list(bought), "prediction": list(bought.values())})
    sample = pd.DataFrame({"customer_id": customers, "prediction": HM_POPULAR})
    perfect = sample.assign(prediction=[bought.get(c, "706016001") for c in customers])
    ranked = {
        customers[0]: "706016002 111111111 706016001",
        customers[2]: "0372860001",  # the leading zero makes it a miss, as in MLE-bench
        customers[3]: "759871002",
    }
    imperfect = sample.assign(prediction=[ranked.get(c, "") for c in customers])
    expected = float(
        np.mean([ap_at_k(set(bought[c].split(" ")), ranked[c].split(" "), 12) for c in bought])
    )
    # unscored customers (1, 4, 5) may be left out; scored ones (0, 2, 3) may not
    malformed = "customer_id,prediction\n" + "".join(f"{c},706016001\n" for c in customers[:2])
    return RawCase(
        answers, sample, perfect, imperfect, expected, malformed, "scored customers", 1.0
    )


def buyers_only_each_customer_once(task: MLEBenchTask, tmp_path: Path) -> None:
    task, case, answers = raw_files(task, raw_case_hm, tmp_path)
    buyers = case.answers["customer_id"].tolist()
    # only the buyers, in another order, plus a customer unknown to the sample: all fine
    only = case.perfect[case.perfect["customer_id"].isin(buyers)].iloc[::-1]
    only = pd.concat([only, pd.DataFrame({"customer_id": ["ffff"], "prediction": ["1"]})])
    report = grade_file(task, tmp_path, answers, "buyers.csv", only)
    assert_score(report, 1.0)
    # ranks past 12 do not count: the right article at rank 13 scores 0 for that customer
    late = case.perfect.copy()
    late.loc[2, "prediction"] = " ".join(["999999999"] * 12 + ["372860001"])
    report = grade_file(task, tmp_path, answers, "late.csv", late)
    assert_score(report, 2 / 3, abs=1e-5)
    # a customer listed twice is refused, even an unscored one
    twice = pd.concat([case.perfect, case.perfect.iloc[[1]]])
    report = grade_file(task, tmp_path, answers, "twice.csv", twice)
    assert_invalid(report, "must appear once")
    # the format check wants every customer of the sample (it cannot know who is scored)
    sample = tmp_path / "sample_submission.csv"
    case.sample.to_csv(sample, index=False)
    (tmp_path / "few.csv").write_text(only.to_csv(index=False), encoding="utf-8")
    with expect_invalid("missing from the submission"):
        FormatChecker(task, sample).check(tmp_path / "few.csv", "few.csv")


# 64-character customer ids that sort in the order of their number
PARITY_CUSTOMERS = [f"{n:02d}" + "c3" * 31 for n in range(6)]
# answers: the buyers 0, 2 and 3 only (3 bought 610776002 twice: a set of two articles)
PARITY_ANSWERS = pd.DataFrame(
    {
        "customer_id": [PARITY_CUSTOMERS[n] for n in (0, 2, 3)],
        "prediction": ["706016001 706016002", "372860001", "610776002 759871002 610776002"],
    }
)
# customer 0: hits at ranks 1 and 3: (1/1 + 2/3) / 2 = 5/6; customer 2: the leading zero
# misses, the hit is at rank 2: (1/2) / 1; customer 3: hits at ranks 1 and 3 (the repeat
# at rank 2 counts once): (1/1 + 2/3) / 2 = 5/6; customers 1, 4 and 5 are not scored
# (even a blank prediction is fine there). MAP@12 = (5/6 + 1/2 + 5/6) / 3
PARITY_SUBMISSION = pd.DataFrame(
    {
        "customer_id": PARITY_CUSTOMERS,
        "prediction": [
            "706016002 111111111 706016001",
            "706016001",
            "0372860001 372860001",
            "759871002 759871002 610776002",
            None,
            "1 2 3",
        ],
    }
)

CASES: dict[str, Check] = {
    "parity": ParityCase(
        PARITY_ANSWERS,
        PARITY_SUBMISSION,
        score=round((5 / 6 + 1 / 2 + 5 / 6) / 3, 5),
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            # exactly the two columns
            "extra_column": "invalid",
            "index_column": "invalid",
            # the last row is customer 5, who is not scored
            "missing_id": "same",
            # customer 0 twice: the pairs shift, customer 2's answers meet customer 0's
            # predictions (0) and customer 3's meet customer 2's (0): (5/6 + 0 + 0) / 3
            "duplicate_id": round(5 / 6 / 3, 5),
            "unknown_id": "invalid",
            # a blank becomes the text "nan" (pandas 2's astype(str)): customer 0 scores 0
            "blank_target": round((1 / 2 + 5 / 6) / 3, 5),
            "empty_file": "invalid",
            "header_only": "invalid",
            # customer 0 twice in both files: (5/6 + 5/6 + 1/2 + 5/6) / 4
            "duplicate_answer_keys": 0.75,
        },
        # strict grading also leaves unscored customers out and reads a blank as no
        # prediction
        strict={
            "missing_id": "same",
            "blank_target": round((1 / 2 + 5 / 6) / 3, 5),
            # strict wants each customer once, even where the answers repeat one
            "duplicate_answer_keys": "invalid",
        },
    ),
    "grading": RawGrading(raw_case_hm),
    "format": RawFormat(raw_case_hm),
    "sample-scores-as-on-the-leaderboard": RawSampleScore(raw_case_hm),
    "buyers-only-each-customer-once": buyers_only_each_customer_once,
}
