"""MLE-bench's verdict by default, the strict one on request (``grading=``).

Every MLE-bench task folder ports MLE-bench's grader (``mlebench_grade.py``), declares its
quirks and has a ParityCase (its variants run by test_grading_cases.py); the report, the
validation tool, ``gym.make``, the CLI and ``eval`` take the mode; docs/mlebench-grading.md
is generated from the quirks.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import pandas as pd
import pytest

import mle_gym  # noqa: F401  (registers the environments)
from mle_gym.families import make_family
from mle_gym.families.mlebench import testing
from mle_gym.families.mlebench.grading import grade_submission
from mle_gym.families.mlebench.parity import MODULE, frame_like_mlebench
from mle_gym.families.mlebench.task import MLEBenchTask
from mle_gym.families.mlebench.testing_parity import ParityCase
from mle_gym.tasks import all_tasks, get_task

REPO = Path(__file__).resolve().parents[2]
BUILT_IN = sorted(
    (
        t
        for t in all_tasks().values()
        if isinstance(t, MLEBenchTask) and str(t.folder).startswith(str(REPO))
    ),
    key=lambda t: t.id,
)


def call(tool: str, **args: object) -> dict:
    return {"tool": tool, "args": args}


@pytest.mark.parametrize("task", BUILT_IN, ids=lambda t: t.id)
def test_every_task_ports_mlebench_grading(task: MLEBenchTask) -> None:
    """mlebench_grade.py with grade(), a ParityCase, and quirks listed in task.yaml."""
    module = task.module(MODULE)
    assert module is not None and callable(getattr(module, "grade", None))
    assert (task.folder / testing.CASES_FILE).is_file()
    cases = testing.load_cases(task.folder)
    assert any(isinstance(c, ParityCase) for c in cases.values()), sorted(cases)
    assert task.quirks, f"{task.id}: task.yaml lists no mlebench_grading.quirks"
    for quirk in task.quirks:
        assert quirk.mlebench.strip() and quirk.strict.strip()


def test_all_82_competitions_are_covered() -> None:
    assert len(BUILT_IN) == 82


def test_quirks_document_is_current() -> None:
    path = REPO / "scripts" / "gen_mlebench_grading_md.py"
    spec = importlib.util.spec_from_file_location("gen_mlebench_grading_md", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    committed = (REPO / "docs" / "mlebench-grading.md").read_text(encoding="utf-8")
    assert committed == module.render(), "run: python scripts/gen_mlebench_grading_md.py"


# ----------------------------------------------------------------- the two modes, one file


def _spaceship(tmp_path: Path) -> tuple[MLEBenchTask, Path, pd.DataFrame]:
    task = get_task("mlebench/spaceship-titanic")
    assert isinstance(task, MLEBenchTask)
    answers = pd.DataFrame(
        {"PassengerId": ["0001_01", "0002_01", "0003_01"], "Transported": [True, False, True]}
    )
    path = tmp_path / "test.csv"
    answers.to_csv(path, index=False)
    return task, path, answers


def test_index_column_scores_by_default_and_is_a_strict_finding(tmp_path: Path) -> None:
    task, answers, truth = _spaceship(tmp_path)
    submission = tmp_path / "submission.csv"
    truth.to_csv(submission)  # the index written: the common mistake
    report = grade_submission(task, submission, answers=answers, data_source="kaggle")
    assert report.grading == "mlebench" and report.valid and report.score == 1.0
    assert len(report.strict_findings) == 1
    assert "index" in report.strict_findings[0]
    assert report.to_dict()["strict_findings"] == report.strict_findings
    strict = grade_submission(
        task, submission, answers=answers, data_source="kaggle", grading="strict"
    )
    assert strict.grading == "strict" and not strict.valid and strict.strict_findings == []


def test_unknown_grading_mode_is_an_error(tmp_path: Path) -> None:
    task, answers, _ = _spaceship(tmp_path)
    with pytest.raises(ValueError, match="grading must be one of"):
        grade_submission(task, answers, answers=answers, data_source="kaggle", grading="lax")


@pytest.mark.parametrize(
    "content",
    [
        b"\x00\x01\xff\xfe garbage",
        b'PassengerId,Transported\n"0001_01,True\n',
        b"\xef\xbb\xbf",
        b"a,b\n1,2,3,4\n",
    ],
    ids=["binary", "open-quote", "bom-only", "ragged"],
)
def test_unreadable_files_are_invalid_never_raise(tmp_path: Path, content: bytes) -> None:
    task, answers, _ = _spaceship(tmp_path)
    submission = tmp_path / "submission.csv"
    submission.write_bytes(content)
    report = grade_submission(task, submission, answers=answers, data_source="kaggle")
    assert not report.valid and report.score is None and report.message


def test_failure_messages_never_quote_library_errors(tmp_path: Path) -> None:
    """A library's message can quote answer values: only its type is reported."""
    task, answers, _ = _spaceship(tmp_path)
    submission = tmp_path / "submission.csv"
    submission.write_text("PassengerId,Transported\n0001_01,True\n0002_01,x\n0003_01,True\n")
    report = grade_submission(task, submission, answers=answers, data_source="kaggle")
    assert not report.valid
    assert "MLE-bench's grader fails" in report.message
    assert "Classes found" not in report.message and "False" not in report.message


def test_read_like_mlebench_reads_an_empty_file_as_an_empty_frame() -> None:
    assert frame_like_mlebench(b"").empty
    frame = frame_like_mlebench(b"id,x\n1,0.1\n")
    assert list(frame.columns) == ["id", "x"] and frame["x"].iloc[0] == 0.1


# ----------------------------------------------------------------- gym.make, tool, CLI, eval


def test_gym_make_takes_grading_and_rejects_other_values() -> None:
    env = gym.make("MLEBench/spaceship-titanic-v0", data="replica", grading="strict")
    try:
        family = env.unwrapped.family  # type: ignore[attr-defined]
        assert family.opts.grading == "strict"
    finally:
        env.close()
    with pytest.raises(ValueError, match="grading"):
        gym.make("MLEBench/spaceship-titanic-v0", data="replica", grading="lax")


@pytest.mark.parametrize("grading", ["mlebench", "strict"])
def test_validate_and_submit_with_the_index_written(make_env, grading: str) -> None:
    """Default: MLE-bench accepts the file, validation warns, the grade carries findings;
    strict: the same file is invalid in both."""
    env = make_env(grading=grading, reward_mode="raw")
    env.reset(seed=0)
    env.step(
        call(
            "python",
            code="import pandas as pd\n"
            "pd.read_csv('data/sample_submission.csv').to_csv('submission.csv')\n",
        )
    )
    obs, *_, info = env.step(call("validate_submission"))
    last, reward, term, _, end = env.step(call("submit"))
    grade = end["grade"]
    assert term and grade["grading"] == grading
    if grading == "mlebench":
        assert info["ok"] and obs.startswith("valid:") and "Warning" in obs, obs
        assert "does not score" in obs
        assert grade["valid"] and grade["strict_findings"]
        assert "Strict grading would have flagged" in last, last
    else:
        assert not info["ok"] and obs.startswith("invalid:"), obs
        assert not grade["valid"] and reward == 0.0 and grade["strict_findings"] == []


def test_grade_command_takes_grading(tmp_path: Path) -> None:
    family = make_family(get_task("mlebench/spaceship-titanic"))
    prepared = family.resolve_data("replica", {"replica_seed": 0})
    sample = pd.read_csv(prepared.public / "sample_submission.csv")
    submission = tmp_path / "submission.csv"
    sample.to_csv(submission)  # index written
    reports = {}
    for grading in ("mlebench", "strict"):
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "mle_gym.cli",
                "grade",
                "--task",
                "spaceship-titanic",
                "--submission",
                str(submission),
                "--data",
                "replica",
                "--grading",
                grading,
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        reports[grading] = (result.returncode, json.loads(result.stdout))
    assert reports["mlebench"][0] == 0 and reports["mlebench"][1]["valid"] is True
    assert reports["strict"][0] == 1 and reports["strict"][1]["valid"] is False


def test_eval_stores_grading_and_rejects_bad_values(tmp_path: Path) -> None:
    from mle_gym.evaluation.errors import EvalConfigError
    from mle_gym.evaluation.plan import EvalRequest, build_config, check_config

    request = EvalRequest(out=tmp_path / "run", tasks=["spaceship-titanic"], grading="strict")
    config = build_config(request, None)
    assert config.grading == "strict" and config.settings()["grading"] == "strict"
    bad = build_config(
        EvalRequest(out=tmp_path / "run2", tasks=["spaceship-titanic"], grading="lax"), None
    )
    with pytest.raises(EvalConfigError, match="--grading must be"):
        check_config(bad, request)


def test_eval_passes_grading_to_mlebench_envs_only() -> None:
    from mle_gym.evaluation.episode import _takes_grading

    assert _takes_grading("MLEBench/spaceship-titanic-v0")
    others = [t for t in all_tasks().values() if t.benchmark != "MLEBench"]
    assert others and not _takes_grading(others[0].env_id)


def test_a_header_too_wide_for_the_host_is_refused_before_parsing(tmp_path: Path) -> None:
    task, answers, _ = _spaceship(tmp_path)
    submission = tmp_path / "submission.csv"
    submission.write_text("PassengerId,Transported," + ",".join(f"c{i}" for i in range(20_000)))
    report = grade_submission(task, submission, answers=answers, data_source="kaggle")
    assert not report.valid and "fields on its first line" in report.message


def test_an_infinite_score_is_a_score_and_the_raw_reward_stays_a_number() -> None:
    """MLE-bench's champs grader gives -inf for an exactly predicted coupling type: a valid
    score (the best); the raw reward is bounded, the others are in [0, 1] already."""
    from mle_gym.families.mlebench.rewards import RAW_LIMIT, compute_reward

    task = get_task("mlebench/champs-scalar-coupling")
    assert isinstance(task, MLEBenchTask) and task.lower_is_better
    grade = {"valid": True, "score": float("-inf"), "percentile": 1.0, "gold_medal": True}
    assert compute_reward(grade, "raw", task, "kaggle") == RAW_LIMIT
    assert compute_reward(grade, "medal", task, "kaggle") == 1.0
    assert compute_reward(grade, "normalized", task, "kaggle") == 1.0


@pytest.mark.parametrize("grading", ["mlebench", "strict"])
def test_a_submission_that_cannot_be_copied_is_invalid_in_either_mode(
    make_env, grading: str
) -> None:
    env = make_env(grading=grading)
    env.reset(seed=0)
    env.step(call("execute", command="mkdir submission.csv"))
    _, reward, term, _, info = env.step(call("submit"))
    grade = info["grade"]
    assert term and reward == 0.0 and not grade["valid"] and grade["grading"] == grading
