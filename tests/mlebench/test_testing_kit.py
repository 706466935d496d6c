"""The public grading-case kit, mle_gym.families.mlebench.testing: its checks can fail.

A grading case is only worth running if a wrong expectation makes it fail: each kind of check
is run here with one expectation broken (a wrong expected score, a wrong best value, a
malformed submission that is in fact valid, a complaint the grader does not make) and must
raise AssertionError. The kit's own assertion helpers, its discovery and its import cost
(no pytest, no scikit-learn) are checked too.
"""

from __future__ import annotations

import dataclasses
import math
import subprocess
import sys
import warnings
from pathlib import Path

import pandas as pd
import pytest

from mle_gym.families.mlebench import testing
from mle_gym.tasks import all_tasks, get_task


def _check(competition: str, case: str) -> testing.Check:
    return testing.load_cases(get_task(competition).folder)[case]


def _run(check: testing.Check, competition: str, tmp_path: Path) -> None:
    task = get_task(competition)
    assert isinstance(task, testing.MLEBenchTask)
    check(task, tmp_path)


def test_importing_the_kit_imports_neither_pytest_nor_scikit_learn() -> None:
    code = (
        "import sys, mle_gym.families.mlebench.testing\n"
        "print(sorted(m for m in ('pytest', 'sklearn', 'scipy') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_exact_grading_fails_on_a_wrong_expected_score(tmp_path: Path) -> None:
    check = _check("AI4Code", "grading")
    assert isinstance(check, testing.ExactGrading)
    (tmp_path / "right").mkdir()
    _run(check, "AI4Code", tmp_path / "right")  # the case as written holds

    def wrong() -> testing.ExactCase:
        case = check.build()
        return dataclasses.replace(case, expected=case.expected + 0.01)

    with pytest.raises(AssertionError, match=r"score .* is not"):
        _run(testing.ExactGrading(wrong), "AI4Code", tmp_path)


def test_exact_grading_fails_when_the_malformed_submission_is_valid(tmp_path: Path) -> None:
    check = _check("AI4Code", "grading")
    assert isinstance(check, testing.ExactGrading)

    def gradable() -> testing.ExactCase:
        case = check.build()
        return dataclasses.replace(case, malformed=case.answers.to_csv(index=False))

    with pytest.raises(AssertionError, match="the submission is valid"):
        _run(testing.ExactGrading(gradable), "AI4Code", tmp_path)


def test_worse_case_fails_on_a_wrong_best_value_or_a_better_imperfect_one(tmp_path: Path) -> None:
    case = _check("tgs-salt-identification-challenge", "grading")
    assert isinstance(case, testing.WorseCase)
    (tmp_path / "best").mkdir()
    with pytest.raises(AssertionError, match=r"score 1.0 is not 0.5"):
        _run(dataclasses.replace(case, best=0.5), "tgs-salt-identification-challenge", tmp_path)
    perfect_as_imperfect = dataclasses.replace(case, imperfect=case.answers)
    with pytest.raises(AssertionError):
        _run(perfect_as_imperfect, "tgs-salt-identification-challenge", tmp_path / "best")


def test_raw_grading_fails_on_a_complaint_the_grader_does_not_make(tmp_path: Path) -> None:
    competition = "h-and-m-personalized-fashion-recommendations"
    check = _check(competition, "grading")
    assert isinstance(check, testing.RawGrading)

    def other_complaint() -> testing.RawCase:
        return dataclasses.replace(check.build(), complaint="a complaint nobody makes")

    with pytest.raises(AssertionError, match="a complaint nobody makes"):
        _run(testing.RawGrading(other_complaint), competition, tmp_path)


def test_keyed_raw_grading_fails_on_a_wrong_expected_score(tmp_path: Path) -> None:
    competition = "uw-madison-gi-tract-image-segmentation"
    check = _check(competition, "grading")
    assert isinstance(check, testing.KeyedRawGrading)

    def wrong() -> testing.KeyedRawCase:
        case = check.build()
        return dataclasses.replace(case, expected=case.expected - 0.05)

    with pytest.raises(AssertionError, match=r"score .* is not"):
        _run(testing.KeyedRawGrading(wrong), competition, tmp_path)


def test_a_folders_own_check_fails_when_the_grader_disagrees(tmp_path: Path) -> None:
    task = get_task("ventilator-pressure-prediction")
    assert isinstance(task, testing.MLEBenchTask)
    case = _check("ventilator-pressure-prediction", "grading")
    assert isinstance(case, testing.WorseCase)
    report = testing.score(task, tmp_path, case.answers, case.imperfect)
    testing.assert_score(report, 1.0)
    with pytest.raises(AssertionError, match=r"score 1.0 is not 1.5"):
        testing.assert_score(report, 1.5, abs=1e-5)
    malformed = testing.score(task, tmp_path, case.answers, case.malformed)
    testing.assert_invalid(malformed)
    with pytest.raises(AssertionError, match="the submission is invalid"):
        testing.assert_score(malformed, 1.0)
    with pytest.raises(AssertionError, match="the submission is valid"):
        testing.assert_invalid(report)


def test_close_follows_the_approx_rule() -> None:
    assert testing.close(1.0 + 5e-7, 1.0) and not testing.close(1.0 + 2e-6, 1.0)
    assert testing.close(0.0, 0.0) and not testing.close(1e-9, 0.0)
    assert testing.close(0.30001, 0.3, abs=1e-4) and not testing.close(0.3002, 0.3, abs=1e-4)
    assert not testing.close(None, 0.0) and not testing.close(math.nan, math.nan)
    assert testing.close(math.inf, math.inf) and not testing.close(math.inf, 1e300)
    assert not testing.close(1.0, math.inf)
    testing.assert_close(2 / 3, 0.6667, abs=1e-4)
    with pytest.raises(AssertionError, match=r"value 0\.5 is not 0\.6"):
        testing.assert_close(0.5, 0.6)


def test_raises_catches_only_a_matching_exception() -> None:
    with testing.raises(ValueError, match="b+") as caught:
        raise ValueError("abbc")
    assert str(caught.value) == "abbc"
    with (
        pytest.raises(AssertionError, match="no ValueError was raised"),
        testing.raises(ValueError),
    ):
        pass
    with (
        pytest.raises(AssertionError, match="does not match"),
        testing.raises(ValueError, match="z"),
    ):
        raise ValueError("abc")
    with pytest.raises(KeyError), testing.raises(ValueError):
        raise KeyError("other")
    with testing.expect_invalid("bad") as err:
        raise testing.InvalidSubmission("a bad file")
    assert isinstance(err.value, testing.InvalidSubmission)


def test_micro_f1_oracle_requires_an_unknown_label() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert testing.micro_f1_like_mlebench(["a b", "c"], ["a", "c x"]) == pytest.approx(
            2 * 2 / (2 * 2 + 1)
        )
    with pytest.raises(AssertionError, match="no predicted label is unknown"):
        testing.micro_f1_like_mlebench(["a b", "c"], ["a", "c"])


def test_discovery_and_run_case(tmp_path: Path) -> None:
    params = testing.case_params(all_tasks().values())
    ids = [p.id for p in params]
    assert len(ids) == len(set(ids)) and "AI4Code-grading" in ids
    with_cases = testing.tasks_with_cases(all_tasks().values())
    assert [t.id for t in with_cases] == sorted(t.id for t in with_cases)
    assert all(isinstance(t, testing.MLEBenchTask) for t in with_cases)

    with pytest.raises(KeyError, match="no case 'nothing'"):
        testing.run_case(get_task("AI4Code"), "nothing", tmp_path)
    other = next(t for t in all_tasks().values() if not isinstance(t, testing.MLEBenchTask))
    with pytest.raises(TypeError, match="not an MLE-bench task"):
        testing.run_case(other, "grading", tmp_path)


def test_load_cases_refuses_a_file_without_cases(tmp_path: Path) -> None:
    folder = tmp_path / "no-cases"
    folder.mkdir()
    (folder / testing.CASES_FILE).write_text("CASES = {}\n")
    with pytest.raises(ValueError, match="defines no CASES"):
        testing.load_cases(folder)
    folder = tmp_path / "not-callable"
    folder.mkdir()
    (folder / testing.CASES_FILE).write_text("CASES = {'a': 1}\n")
    with pytest.raises(ValueError, match=r"not callable: \['a'\]"):
        testing.load_cases(folder)


def test_write_csv_and_is_worse(tmp_path: Path) -> None:
    path = testing.write_csv(tmp_path / "a.csv", {"id": [1, 2], "y": ["x", ""]})
    assert path.read_text() == "id,y\n1,x\n2,\n"
    frame = pd.DataFrame({"id": [3]})
    assert testing.write_csv(tmp_path / "b.csv", frame).read_text() == "id\n3\n"
    rmse_task = get_task("ventilator-pressure-prediction")  # lower is better
    assert isinstance(rmse_task, testing.MLEBenchTask) and rmse_task.lower_is_better
    assert testing.is_worse(rmse_task, 2.0, 1.0) and not testing.is_worse(rmse_task, 0.5, 1.0)
