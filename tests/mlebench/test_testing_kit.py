"""The public grading-case kit, mle_gym.families.mlebench.testing: its checks can fail.

A grading case is only worth running if a wrong expectation makes it fail: each kind of check
(ExactGrading, WorseCase, RawGrading, RawFormat, RawSampleScore, KeyedRawGrading,
KeyedRawFormat) and a folder's own check is run here with one expectation broken (a wrong
expected score, a wrong best value, a malformed submission that is in fact valid, a complaint
the grader does not make, a submission the format check refuses, a grader that disagrees)
and must raise AssertionError saying so, under ``python -O`` too (the kit uses no ``assert``
statement). The kit's score comparison (exactly ``pytest.approx``'s rule), its assertion
helpers, its discovery and loading, and its import cost (no pytest, no scikit-learn) are
checked too.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import itertools
import math
import subprocess
import sys
import textwrap
import warnings
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest

from mle_gym.families.mlebench import testing, testing_checks, testing_oracles
from mle_gym.tasks import all_tasks, get_task

HM = "h-and-m-personalized-fashion-recommendations"
SMARTPHONE = "smartphone-decimeter-2022"
UW = "uw-madison-gi-tract-image-segmentation"
VENTILATOR = "ventilator-pressure-prediction"

#: the kit's kinds of check: any other callable in a CASES is a folder's own check
KIT_CHECKS = (
    testing.ExactGrading,
    testing.WorseCase,
    testing.RawGrading,
    testing.RawFormat,
    testing.RawSampleScore,
    testing.KeyedRawGrading,
    testing.KeyedRawFormat,
)


def _task(competition: str) -> testing.MLEBenchTask:
    task = get_task(f"mlebench/{competition}")
    assert isinstance(task, testing.MLEBenchTask)
    return task


def _check(competition: str, case: str) -> testing.Check:
    return testing.load_cases(_task(competition).folder)[case]


def _run(check: testing.Check, competition: str, tmp_path: Path) -> None:
    tmp_path.mkdir(parents=True, exist_ok=True)
    check(_task(competition), tmp_path)


def test_importing_the_kit_imports_neither_pytest_nor_scikit_learn() -> None:
    code = (
        "import sys, mle_gym.families.mlebench.testing\n"
        "print(sorted(m for m in ('pytest', 'sklearn', 'scipy') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


# ----------------------------------------------------------------- each kind of check fails


def test_exact_grading_fails_on_a_wrong_expected_score(tmp_path: Path) -> None:
    check = _check("AI4Code", "grading")
    assert isinstance(check, testing.ExactGrading)
    _run(check, "AI4Code", tmp_path / "right")  # the case as written holds

    def wrong() -> testing.ExactCase:
        case = check.build()
        return dataclasses.replace(case, expected=case.expected + 0.01)

    with pytest.raises(AssertionError, match=r"score .* is not"):
        _run(testing.ExactGrading(wrong), "AI4Code", tmp_path / "wrong")


def test_exact_grading_fails_when_the_malformed_submission_is_valid(tmp_path: Path) -> None:
    check = _check("AI4Code", "grading")
    assert isinstance(check, testing.ExactGrading)

    def gradable() -> testing.ExactCase:
        case = check.build()
        return dataclasses.replace(case, malformed=case.answers.to_csv(index=False))

    with pytest.raises(AssertionError, match="the submission is valid"):
        _run(testing.ExactGrading(gradable), "AI4Code", tmp_path)


def test_worse_case_fails_on_a_wrong_best_value_or_a_better_imperfect_one(tmp_path: Path) -> None:
    competition = "tgs-salt-identification-challenge"
    case = _check(competition, "grading")
    assert isinstance(case, testing.WorseCase)
    with pytest.raises(AssertionError, match=r"score 1.0 is not 0.5"):
        _run(dataclasses.replace(case, best=0.5), competition, tmp_path / "best")
    perfect_as_imperfect = dataclasses.replace(case, imperfect=case.answers)
    with pytest.raises(
        AssertionError,
        match=r"imperfect submission's score 1.0 is not worse than the perfect one's 1.0 "
        r"\(higher is better\)",
    ):
        _run(perfect_as_imperfect, competition, tmp_path / "imperfect")


def test_raw_grading_fails_on_a_complaint_the_grader_does_not_make(tmp_path: Path) -> None:
    check = _check(HM, "grading")
    assert isinstance(check, testing.RawGrading)

    def other_complaint() -> testing.RawCase:
        return dataclasses.replace(check.build(), complaint="a complaint nobody makes")

    with pytest.raises(AssertionError, match="'a complaint nobody makes' is not in the message"):
        _run(testing.RawGrading(other_complaint), HM, tmp_path)


def test_raw_format_fails_when_the_format_check_refuses_a_submission_it_should_pass(
    tmp_path: Path,
) -> None:
    check = _check(HM, "format")
    assert isinstance(check, testing.RawFormat)
    _run(check, HM, tmp_path / "right")  # the case as written holds

    def perfect_without_a_customer() -> testing.RawCase:
        case = check.build()  # the format check wants every customer of the sample
        return dataclasses.replace(case, perfect=case.perfect.iloc[1:])

    with pytest.raises(
        AssertionError, match=r"the format check refuses perfect\.csv, which it should accept"
    ):
        _run(testing.RawFormat(perfect_without_a_customer), HM, tmp_path / "perfect")

    def renamed_sample() -> testing.RawCase:
        case = check.build()  # a sample whose last column is already 'target': no refusal
        return dataclasses.replace(case, sample=case.sample.rename(columns={"prediction": "x"}))

    with pytest.raises(AssertionError, match="the format check refuses"):
        _run(testing.RawFormat(renamed_sample), HM, tmp_path / "sample")


def test_raw_sample_score_fails_when_the_sample_scores_otherwise(tmp_path: Path) -> None:
    check = _check(HM, "sample-scores-as-on-the-leaderboard")
    assert isinstance(check, testing.RawSampleScore)
    _run(check, HM, tmp_path / "right")  # the sample scores the leaderboard's 0.0

    def perfect_as_sample() -> testing.RawCase:
        case = check.build()
        return dataclasses.replace(case, sample=case.perfect)

    with pytest.raises(AssertionError, match=r"score 1\.0 is not 0\.0 ± 1e-05"):
        _run(testing.RawSampleScore(perfect_as_sample), HM, tmp_path / "perfect")
    without_leaderboard = dataclasses.replace(_task(HM), leaderboard=None)
    (tmp_path / "none").mkdir()
    with pytest.raises(AssertionError, match=f"{HM} has no leaderboard"):
        check(without_leaderboard, tmp_path / "none")


def test_keyed_raw_grading_fails_on_a_wrong_expected_score(tmp_path: Path) -> None:
    check = _check(UW, "grading")
    assert isinstance(check, testing.KeyedRawGrading)

    def wrong() -> testing.KeyedRawCase:
        case = check.build()
        return dataclasses.replace(case, expected=case.expected - 0.05)

    with pytest.raises(AssertionError, match=r"score .* is not"):
        _run(testing.KeyedRawGrading(wrong), UW, tmp_path)


def test_keyed_raw_format_fails_on_a_complaint_or_a_refusal_it_does_not_expect(
    tmp_path: Path,
) -> None:
    check = _check(SMARTPHONE, "format")
    assert isinstance(check, testing.KeyedRawFormat)
    _run(check, SMARTPHONE, tmp_path / "right")  # the case as written holds

    def other_complaint() -> testing.KeyedRawCase:
        return dataclasses.replace(check.build(), complaint="a complaint nobody makes")

    with pytest.raises(
        AssertionError,
        match=r"InvalidSubmission was raised, but .* does not match 'a.*complaint.*nobody",
    ):
        _run(testing.KeyedRawFormat(other_complaint), SMARTPHONE, tmp_path / "complaint")

    def imperfect_without_a_row() -> testing.KeyedRawCase:
        case = check.build()
        return dataclasses.replace(case, imperfect=case.imperfect.iloc[1:])

    with pytest.raises(AssertionError, match=r"the format check refuses imperfect\.csv"):
        _run(testing.KeyedRawFormat(imperfect_without_a_row), SMARTPHONE, tmp_path / "row")


def test_a_folders_own_check_fails_when_the_grader_disagrees(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ventilator folder's own check says the expiratory rows (u_out == 1) are not
    scored: with a grade.py that scores every row, that check fails."""
    own = _check(VENTILATOR, "ignores-the-expiratory-phase")
    assert inspect.isfunction(own) and not isinstance(own, KIT_CHECKS)
    assert own.__module__.startswith("mlebench_grading_cases.")
    _run(own, VENTILATOR, tmp_path / "right")  # with the real grader it holds

    grade_module = _task(VENTILATOR).module("grade")
    assert grade_module is not None

    def every_row(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
        """The MAE of pressure over every row, the expiratory phase too."""
        diff = submission["pressure"].astype(float) - answers["pressure"].astype(float)
        return float(diff.abs().mean())

    monkeypatch.setattr(grade_module, "grade", every_row)
    # MAE over the six rows: (1 + 1 + 1 + 11.74 + 6.2 + 6.1) / 6, rounded to 5 decimals
    with pytest.raises(AssertionError, match=r"score 4\.50667 is not 1\.0 ± 1e-06"):
        _run(own, VENTILATOR, tmp_path / "wrong")
    # the folder's end-to-end case sees the disagreement too (a perfect score, but the
    # imperfect submission no longer scores what MLE-bench's grade.py gives)
    monkeypatch.setattr(grade_module, "grade", lambda submission, answers: 2.0)
    with pytest.raises(AssertionError, match=r"score 2\.0 is not 0\.0 ± 1e-05"):
        _run(_check(VENTILATOR, "grading"), VENTILATOR, tmp_path / "grading")


def test_the_assertion_helpers_say_what_was_expected_and_what_was_got(tmp_path: Path) -> None:
    task = _task(VENTILATOR)
    case = _check(VENTILATOR, "grading")
    assert isinstance(case, testing.WorseCase)
    report = testing.score(task, tmp_path, case.answers, case.imperfect)
    testing.assert_score(report, 1.0)
    with pytest.raises(AssertionError, match=r"score 1.0 is not 1.5 ± 1e-05"):
        testing.assert_score(report, 1.5, abs=1e-5)
    malformed = testing.score(task, tmp_path, case.answers, case.malformed)
    testing.assert_invalid(malformed)
    with pytest.raises(AssertionError, match="the submission is invalid: "):
        testing.assert_score(malformed, 1.0)
    with pytest.raises(AssertionError, match=r"the submission is valid \(score 1.0\)"):
        testing.assert_invalid(report)
    with pytest.raises(AssertionError, match="'no such words' is not in the message"):
        testing.assert_invalid(malformed, "no such words")
    with pytest.raises(AssertionError, match=r"^what was expected, what was got$"):
        testing.expect(0, "what was expected, what was got")
    testing.expect("non-empty", "not raised")
    with pytest.raises(AssertionError, match=r"^failed$"):
        testing.fail("failed")


# ----------------------------------------------------------------- no assert statement


KIT_MODULES = (testing, testing_checks, testing_oracles)


def test_the_kit_uses_no_assert_statement() -> None:
    """``python -O`` removes ``assert`` statements: the kit raises AssertionError itself."""
    found = []
    for module in KIT_MODULES:
        assert module.__file__ is not None
        tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
        found += [
            f"{module.__name__}:{n.lineno}" for n in ast.walk(tree) if isinstance(n, ast.Assert)
        ]
    assert found == []


#: run under ``python -O``: broken checks of several kinds, each must raise AssertionError
OPTIMIZED_SCRIPT = textwrap.dedent(
    """
    import dataclasses, sys, tempfile, warnings
    from pathlib import Path

    from mle_gym.families.mlebench import testing
    from mle_gym.tasks import get_task

    assert False, "asserts are on"  # removed by -O: the kit must not need them

    def task(name):
        return get_task(f"mlebench/{name}")

    def check(name, case):
        return testing.load_cases(task(name).folder)[case]

    exact = check("AI4Code", "grading")
    worse = check("tgs-salt-identification-challenge", "grading")
    sample = check(
        "h-and-m-personalized-fashion-recommendations", "sample-scores-as-on-the-leaderboard"
    )
    keyed = check("smartphone-decimeter-2022", "format")
    broken = {
        "exact": ("AI4Code", testing.ExactGrading(
            lambda: dataclasses.replace(exact.build(), expected=0.5))),
        "worse": ("tgs-salt-identification-challenge", dataclasses.replace(worse, best=0.5)),
        "sample": ("h-and-m-personalized-fashion-recommendations", testing.RawSampleScore(
            lambda: dataclasses.replace(sample.build(), sample=sample.build().perfect))),
        "keyed": ("smartphone-decimeter-2022", testing.KeyedRawFormat(
            lambda: dataclasses.replace(keyed.build(), complaint="nobody says this"))),
        "close": (None, lambda t, p: testing.assert_close(1 + 5e-7, 1.0, abs=1e-9)),
        "oracle": (None, lambda t, p: testing.micro_f1_like_mlebench(["a"], ["a"])),
    }
    print("optimize", sys.flags.optimize)
    for name, (competition, broken_check) in broken.items():
        with tempfile.TemporaryDirectory() as tmp, warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                broken_check(task(competition) if competition else None, Path(tmp))
            except AssertionError as err:
                print(name, "AssertionError", str(err).splitlines()[0][:60])
            else:
                print(name, "passed")
    """
)


def test_broken_checks_fail_under_python_optimized() -> None:
    done = subprocess.run(
        [sys.executable, "-O", "-c", OPTIMIZED_SCRIPT], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "optimize 1"
    outcomes = {line.split()[0]: line.split()[1] for line in lines[1:]}
    assert outcomes == dict.fromkeys(
        ("exact", "worse", "sample", "keyed", "close", "oracle"), "AssertionError"
    ), done.stdout


# ----------------------------------------------------------------- close is pytest.approx


Compared = tuple[float | None, float, float | None, float | None, bool]


def _by_pytest(
    actual: float | None, expected: float, rel: float | None, abs_: float | None, nan_ok: bool
) -> bool:
    return bool(actual == pytest.approx(expected, rel=rel, abs=abs_, nan_ok=nan_ok))


def _by_kit(
    actual: float | None, expected: float, rel: float | None, abs_: float | None, nan_ok: bool
) -> bool:
    return testing.close(actual, expected, rel=rel, abs=abs_, nan_ok=nan_ok)


def _outcome(compare: Callable[..., bool], args: Compared) -> object:
    """``compare(*args)``, or the type and message of the exception it raised."""
    try:
        return compare(*args)
    except Exception as err:
        return type(err), str(err)


def test_close_is_pytest_approx_on_a_grid() -> None:
    """Same answer (or the same ValueError) as ``actual == pytest.approx(expected, ...)``
    for every combination of values, tolerances given or not, and nan_ok."""
    expecteds = [0.0, 1.0, -1.0, 1e-13, 3.5e6, 1e300, math.inf, -math.inf, math.nan]
    deltas = [0.0, 1e-13, 5e-13, 2e-12, 5e-10, 5e-7, 2e-6, 5e-6, 2e-5, 1e-3, 1.0]
    specials = [None, math.nan, math.inf, -math.inf, 0.0]
    tolerances = [None, 0.0, 1e-9, 1e-6, 1e-5, 1e-3, math.inf, -1e-6, math.nan]
    compared = 0
    for expected in expecteds:
        scale = 1.0 if not math.isfinite(expected) else max(1.0, math.fabs(expected))
        actuals: list[float | None] = [
            expected + sign * d * scale for d in deltas for sign in (1, -1)
        ]
        actuals += specials
        for actual, rel, abs_, nan_ok in itertools.product(
            actuals, tolerances, tolerances, (False, True)
        ):
            args: Compared = (actual, expected, rel, abs_, nan_ok)
            assert _outcome(_by_kit, args) == _outcome(_by_pytest, args), args
            compared += 1
    assert compared > 30_000


def test_close_follows_the_approx_rule() -> None:
    assert testing.close(1.0 + 5e-7, 1.0) and not testing.close(1.0 + 2e-6, 1.0)
    assert testing.close(0.0, 0.0) and not testing.close(1e-9, 0.0)
    assert testing.close(0.30001, 0.3, abs=1e-4) and not testing.close(0.3002, 0.3, abs=1e-4)
    # abs= alone is an absolute tolerance only: no relative one is added
    assert not testing.close(1.0 + 5e-7, 1.0, abs=1e-9)
    assert not testing.close(1e6 + 0.5, 1e6, abs=1e-5) and testing.close(1e6 + 0.5, 1e6)
    # rel= alone keeps the default absolute tolerance 1e-12
    assert testing.close(5e-13, 0.0, rel=1e-9) and not testing.close(2e-12, 0.0, rel=1e-9)
    assert testing.close(1.0 + 5e-7, 1.0, rel=1e-9, abs=1e-6)  # both: the larger
    assert not testing.close(None, 0.0) and not testing.close(math.nan, math.nan)
    assert testing.close(math.nan, math.nan, nan_ok=True)
    assert testing.close(math.inf, math.inf) and not testing.close(math.inf, 1e300)
    assert not testing.close(1.0, math.inf)
    with pytest.raises(ValueError, match="absolute tolerance can't be negative"):
        testing.close(1.1, 1.0, abs=-1.0)
    assert testing.tolerance(2.0) == 2e-6 and testing.tolerance(2.0, abs=1e-9) == 1e-9
    assert testing.tolerance(0.0, rel=1.0) == 1e-12
    testing.assert_close(2 / 3, 0.6667, abs=1e-4)
    with pytest.raises(AssertionError, match=r"value 0\.5 is not 0\.6 ± 6e-07"):
        testing.assert_close(0.5, 0.6)
    with pytest.raises(AssertionError, match=r"value 1\.0000005 is not 1\.0 ± 1e-09"):
        testing.assert_close(1.0 + 5e-7, 1.0, abs=1e-9)
    with pytest.raises(AssertionError, match=r"value 1\.0 is not inf$"):
        testing.assert_close(1.0, math.inf)
    with pytest.raises(AssertionError, match=r"value None is not 1\.0 ± \?\?\?"):
        testing.assert_close(None, 1.0, abs=-1.0)


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
    with pytest.raises(AssertionError, match=r"nothing was raised \(yet\)"):
        _ = testing.Raised[ValueError]().value


def test_micro_f1_oracle_requires_an_unknown_label() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert testing.micro_f1_like_mlebench(["a b", "c"], ["a", "c x"]) == pytest.approx(
            2 * 2 / (2 * 2 + 1)
        )
    with pytest.raises(AssertionError, match="no predicted label is unknown"):
        testing.micro_f1_like_mlebench(["a b", "c"], ["a", "c"])


# ----------------------------------------------------------------- discovery and loading


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


def test_case_params_carry_the_task_key() -> None:
    """A case names its task by key, so it never depends on how a bare id resolves."""
    params = testing.case_params(all_tasks().values())
    assert params and all(p.task_key.startswith("mlebench/") for p in params)
    assert all(get_task(p.task_key).key == p.task_key for p in params)
    first = next(p for p in params if p.task_id == "AI4Code")
    assert (first.task_key, first.id) == ("mlebench/AI4Code", "AI4Code-grading")

    # another benchmark's task with the same id: two tasks, two keys, never confused
    task = _task("AI4Code")
    twin = dataclasses.replace(task, benchmark="Elsewhere")
    keys = {p.task_key for p in testing.case_params([twin, task])}
    assert keys == {"mlebench/AI4Code", "elsewhere/AI4Code"}


def _cases_file(folder: Path, text: str) -> Path:
    folder.mkdir(parents=True)
    (folder / testing.CASES_FILE).write_text(text, encoding="utf-8")
    return folder


def _cases_modules() -> set[str]:
    return {name for name in sys.modules if name.startswith("mlebench_grading_cases.")}


@pytest.mark.parametrize(
    ("text", "error", "match"),
    [
        ("CASES = {}\n", ValueError, "defines no CASES"),
        ("CASES = [print]\n", ValueError, "defines no CASES"),
        ("X = 1\n", ValueError, "defines no CASES"),
        ("CASES = {'a': 1}\n", ValueError, r"not callable: \['a'\]"),
        (
            "CASES = {'a': print, 1: print}\n",
            ValueError,
            r"CASES keys must be case names \(strings\), got 1$",
        ),
        ("CASES = {'': print}\n", ValueError, r"CASES keys must be case names .*, got ''"),
        ("raise RuntimeError('broken file')\n", RuntimeError, "broken file"),
        ("CASES = {\n", SyntaxError, "never closed"),
    ],
)
def test_load_cases_refuses_invalid_cases_and_leaves_no_module(
    tmp_path: Path, text: str, error: type[Exception], match: str
) -> None:
    before = _cases_modules()
    folder = _cases_file(tmp_path / "bad-cases", text)
    with pytest.raises(error, match=match):
        testing.load_cases(folder)
    assert _cases_modules() == before


def test_load_cases_gives_each_folder_its_own_module(tmp_path: Path) -> None:
    """Two folders of one name (one id in two benchmarks) load their own CASES; a file's
    dataclasses find their module."""
    text = (
        "from dataclasses import dataclass\n"
        "@dataclass(frozen=True)\n"
        "class Own:\n"
        "    value: int = {value}\n"
        "    def __call__(self, task, tmp_path):\n"
        "        pass\n"
        "CASES = {{'own': Own()}}\n"
    )
    one = _cases_file(tmp_path / "one" / "same-id", text.format(value=1))
    two = _cases_file(tmp_path / "two" / "same-id", text.format(value=2))
    first, second = testing.load_cases(one)["own"], testing.load_cases(two)["own"]
    assert (vars(first)["value"], vars(second)["value"]) == (1, 2)
    modules = {type(first).__module__, type(second).__module__}
    assert len(modules) == 2 and modules <= set(sys.modules)
    assert testing.load_cases(one)["own"] is first  # imported once per folder


def test_write_csv_and_is_worse(tmp_path: Path) -> None:
    path = testing.write_csv(tmp_path / "a.csv", {"id": [1, 2], "y": ["x", ""]})
    assert path.read_text() == "id,y\n1,x\n2,\n"
    frame = pd.DataFrame({"id": [3]})
    assert testing.write_csv(tmp_path / "b.csv", frame).read_text() == "id\n3\n"
    rmse_task = _task(VENTILATOR)  # lower is better
    assert rmse_task.lower_is_better
    assert testing.is_worse(rmse_task, 2.0, 1.0) and not testing.is_worse(rmse_task, 0.5, 1.0)
