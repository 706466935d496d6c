"""``mle-gym grade``, ``prepare``, ``list`` and task selection (``--split``, ``--benchmark``,
task ids), run for real through :func:`mle_gym.cli.main`: what a new user sees."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from mle_gym.cli import main as cli
from mle_gym.cli.prepare_summary import Outcome, outcome_of_error, summary_lines
from mle_gym.data import kaggle, store
from mle_gym.families.mlebench.grading import grade_submission
from mle_gym.families.mlebench.prepare import prepare_replica
from mle_gym.families.mlebench.task import MLEBenchTask
from mle_gym.tasks import all_tasks, evaluation_set, get_task

Capsys = pytest.CaptureFixture[str]
TOOL_TALK = ("validate_submission", "submission.csv", "write ", "/workspace")


def mlebench_task(name: str) -> MLEBenchTask:
    task = get_task(name)
    assert isinstance(task, MLEBenchTask)
    return task


@pytest.fixture
def no_kaggle(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No Kaggle credentials anywhere, and a data cache of the test's own."""
    for name in ("KAGGLE_USERNAME", "KAGGLE_KEY", "KAGGLE_API_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("KAGGLE_CONFIG_DIR", str(tmp_path / "no-kaggle"))
    monkeypatch.setenv("MLE_GYM_HOME", str(tmp_path / "home"))


def write_zip(path: Path, members: dict[str, str]) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        for name, text in members.items():
            zf.writestr(name, text)
    return path


def env_ids(out: str) -> list[str]:
    return [line.split()[0] for line in out.splitlines() if "/" in line.split(" ", 1)[0]]


# -- 1. --split and --benchmark ---------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["list", "--split", "lit"],
        ["prepare", "--split", "lit"],
        ["eval", "--split", "lit", "--out", "RUN"],
    ],
    ids=["list", "prepare", "eval"],
)
def test_an_unknown_split_is_an_error_naming_the_splits(
    argv: list[str], tmp_path: Path, capsys: Capsys
) -> None:
    argv = [str(tmp_path / "run") if a == "RUN" else a for a in argv]
    assert cli(argv) == 2
    captured = capsys.readouterr()
    assert captured.err.strip() == (
        "mle-gym: error: unknown split 'lit'; choose one of lite (= low), medium, high, dev"
    )
    assert captured.out == ""


@pytest.mark.parametrize(
    "argv",
    [
        ["list", "--benchmark", "MLE-Benchh"],
        ["prepare", "--benchmark", "MLE-Benchh"],
        ["eval", "--benchmark", "MLE-Benchh", "--out", "RUN"],
    ],
    ids=["list", "prepare", "eval"],
)
def test_an_unknown_benchmark_is_an_error_naming_the_benchmarks(
    argv: list[str], tmp_path: Path, capsys: Capsys
) -> None:
    argv = [str(tmp_path / "run") if a == "RUN" else a for a in argv]
    assert cli(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("mle-gym: error: unknown benchmark 'MLE-Benchh'; choose one of ")
    assert "MLAgentBench, MLBench, MLEBench" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("spelling", "benchmark"),
    [
        ("MLE-bench", "MLEBench"),
        ("MLEBench", "MLEBench"),
        ("mlebench", "MLEBench"),
        ("ML-Bench", "MLBench"),
        ("MLBench", "MLBench"),
        ("mlagentbench", "MLAgentBench"),
        ("MLAgentBench", "MLAgentBench"),
    ],
)
def test_the_documented_benchmark_spellings_are_accepted(
    spelling: str, benchmark: str, capsys: Capsys
) -> None:
    assert cli(["list", "--benchmark", spelling, "--wide"]) == 0
    listed = env_ids(capsys.readouterr().out)
    expected = sorted(t.env_id for t in all_tasks().values() if t.benchmark == benchmark)
    assert listed == expected and expected


def test_split_names_are_case_insensitive_and_lite_is_low(capsys: Capsys) -> None:
    assert cli(["list", "--split", "LITE", "--wide"]) == 0
    lite = env_ids(capsys.readouterr().out)
    assert lite == [t.env_id for t in evaluation_set("low", include_leaky=True)]
    assert len(lite) == 22


def test_a_split_no_task_of_the_benchmark_has_is_bad_usage(capsys: Capsys) -> None:
    assert cli(["prepare", "--split", "lite", "--benchmark", "MLAgentBench"]) == 2
    assert "no task of benchmark MLAgentBench is in split lite" in capsys.readouterr().err


# -- 2. task ids: did-you-mean, shared ids ----------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["eval", "spaceship-titanik", "--out", "RUN"],
        ["grade", "--task", "spaceship-titanik", "--submission", "x.csv"],
        ["prepare", "spaceship-titanik"],
        ["prepare", "MLEBench/spaceship-titanik-v0"],
    ],
    ids=["eval", "grade", "prepare", "prepare-env-id"],
)
def test_a_misspelt_task_id_gets_a_did_you_mean(
    argv: list[str], tmp_path: Path, capsys: Capsys
) -> None:
    argv = [str(tmp_path / "run") if a == "RUN" else a for a in argv]
    assert cli(argv) == 2
    err = capsys.readouterr().err
    assert "unknown task" in err and "spaceship-titanik" in err
    assert "did you mean " in err and "MLEBench/spaceship-titanic-v0" in err
    assert err.count("\n") == 1


def test_an_unrelated_name_gets_no_suggestion(capsys: Capsys) -> None:
    assert cli(["prepare", "zzzz-qqqq"]) == 2
    err = capsys.readouterr().err
    assert "unknown task 'zzzz-qqqq'" in err and "did you mean" not in err


def test_tasks_sharing_a_short_id_in_one_run_are_an_error_naming_both(
    tmp_path: Path, capsys: Capsys
) -> None:
    argv = ["eval", "spaceship-titanic", "MLAgentBench/spaceship-titanic-v0"]
    assert cli([*argv, "--out", str(tmp_path / "run")]) == 2
    err = capsys.readouterr().err
    assert "MLAgentBench/spaceship-titanic-v0 and MLEBench/spaceship-titanic-v0" in err
    assert "share the task id 'spaceship-titanic'" in err


def test_a_shared_bare_id_says_which_task_it_was_taken_to_be(
    tmp_path: Path, capsys: Capsys
) -> None:
    submission = tmp_path / "preds.csv"
    submission.write_text("PassengerId,Transported\n")
    cli(["grade", "--task", "spaceship-titanic", "--submission", str(submission)])
    err = capsys.readouterr().err
    assert "note: spaceship-titanic is MLEBench/spaceship-titanic-v0" in err
    assert "MLAgentBench/spaceship-titanic-v0 has the same id" in err
    cli(["grade", "--task", "MLEBench/spaceship-titanic-v0", "--submission", str(submission)])
    assert "note:" not in capsys.readouterr().err


# -- 3. grade speaks of the user's file --------------------------------------------------------


def grade(tmp_path: Path, capsys: Capsys, text: str, *extra: str) -> tuple[int, dict]:
    submission = tmp_path / "preds.csv"
    submission.write_text(text)
    argv = ["grade", "--task", "spaceship-titanic", "--submission", str(submission)]
    code = cli([*argv, "--data", "replica", *extra])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("grading", ["mlebench", "strict"])
def test_grade_names_the_users_file_without_agent_advice(
    grading: str, tmp_path: Path, capsys: Capsys
) -> None:
    code, report = grade(tmp_path, capsys, "PassengerId,Foo\n0001_01,True\n", "--grading", grading)
    assert code == 1 and report["valid"] is False
    strict = report["message"] if grading == "strict" else report["strict_findings"][0]
    assert "Wrong columns in preds.csv: missing column(s) 'Transported'" in strict
    if grading == "mlebench":
        assert report["message"].startswith("MLE-bench's grader rejects preds.csv: ")
    text = json.dumps(report)
    for phrase in TOOL_TALK:
        assert phrase not in text, phrase


def test_grade_of_an_empty_or_unreadable_file_names_it(tmp_path: Path, capsys: Capsys) -> None:
    code, report = grade(tmp_path, capsys, "", "--grading", "strict")
    assert code == 1 and report["message"].startswith("preds.csv is empty")
    code, report = grade(tmp_path, capsys, "PassengerId,Transported\n0001_01,maybe\n")
    assert code == 1 and "preds.csv" in report["message"]
    assert "submission.csv" not in json.dumps(report)


def test_grade_of_a_valid_file(tmp_path: Path, capsys: Capsys) -> None:
    data = prepare_replica(mlebench_task("spaceship-titanic"), 0)
    code, report = grade(tmp_path, capsys, (data.public / "sample_submission.csv").read_text())
    assert code == 0 and report["valid"] and report["message"] == ""


def test_grade_of_a_missing_file_is_bad_usage(tmp_path: Path, capsys: Capsys) -> None:
    missing = tmp_path / "nothere.csv"
    assert cli(["grade", "--task", "spaceship-titanic", "--submission", str(missing)]) == 2
    err = capsys.readouterr().err
    assert err == f"mle-gym: error: --submission {missing}: no such file\n"
    assert cli(["grade", "--task", "spaceship-titanic", "--submission", str(tmp_path)]) == 2
    assert "not a file" in capsys.readouterr().err


def test_an_agents_grade_keeps_the_agents_wording(tmp_path: Path) -> None:
    """Without a name for the file (an episode's copy of the agent's file), the messages
    are the ones the agent reads: they speak of submission.csv and what to write."""
    task = mlebench_task("spaceship-titanic")
    data = prepare_replica(task, 0)
    answers = data.private / task.answers_file
    copy = tmp_path / "submission.csv"
    copy.write_text("PassengerId,Foo\n0001_01,True\n")
    report = grade_submission(task, copy, answers=answers, data_source="replica", grading="strict")
    assert report.message.startswith("Wrong columns: missing column(s) 'Transported'")
    none = grade_submission(task, None, answers=answers, data_source="replica")
    assert none.message == (
        "no submission file: none was given; write submission.csv with the columns "
        "PassengerId,Transported"
    )


# -- 4. an archive with the wrong files --------------------------------------------------------


def test_a_zip_with_the_wrong_files_lists_expected_and_found(
    no_kaggle: None, tmp_path: Path, capsys: Capsys
) -> None:
    members = {f"extra/file{i:02d}.txt": "x" for i in range(25)}
    archive = write_zip(tmp_path / "wrong.zip", {"notes.txt": "x", **members})
    assert cli(["prepare", "MLEBench/spaceship-titanic-v0", "--from", str(archive)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "wrong.zip does not hold the files of the Kaggle competition spaceship-titanic" in err
    assert "needs train.csv" in err
    assert "it holds 26 file(s): extra/file00.txt, " in err and "and 16 more" in err
    assert "mle_gym-raw" not in err  # no temporary folder
    assert "https://www.kaggle.com/competitions/spaceship-titanic/data" in err
    assert store.lookup(get_task("spaceship-titanic"), "kaggle") is None


def test_a_zip_with_the_files_one_folder_down_says_so(
    no_kaggle: None, tmp_path: Path, capsys: Capsys
) -> None:
    archive = write_zip(tmp_path / "nested.zip", {"spaceship-titanic/train.csv": "a\n1\n"})
    assert cli(["prepare", "MLEBench/spaceship-titanic-v0", "--from", str(archive)]) == 2
    err = capsys.readouterr().err
    assert "it holds spaceship-titanic/train.csv: the files must be at the top" in err


def test_an_mlagentbench_archive_with_the_wrong_files_lists_them(
    no_kaggle: None, tmp_path: Path, capsys: Capsys
) -> None:
    archive = write_zip(tmp_path / "wrong.zip", {"foo.txt": "x", "sub/bar.csv": "a\n1\n"})
    assert cli(["prepare", "MLAgentBench/house-price-v0", "--from", str(archive)]) == 2
    err = capsys.readouterr().err
    assert f"--from {archive} does not hold the files MLAgentBench/house-price-v0 needs" in err
    assert "wrong.zip holds no train.csv" in err
    assert "it holds 2 file(s): foo.txt, sub/bar.csv" in err
    assert "https://www.kaggle.com/competitions/home-data-for-ml-course/data" in err
    assert "mle_gym-raw" not in err


def test_a_folder_given_for_a_kaggle_zip_is_named_as_such(
    no_kaggle: None, tmp_path: Path, capsys: Capsys
) -> None:
    assert cli(["prepare", "MLEBench/spaceship-titanic-v0", "--from", str(tmp_path)]) == 2
    assert f"--from {tmp_path} is a folder; give the competition's zip" in capsys.readouterr().err


# -- 5. without Kaggle credentials: a command that works ---------------------------------------


def _kaggle_mlagentbench_tasks() -> list[str]:
    from mle_gym.families.mlagentbench.task import MLAgentBenchTask

    return sorted(
        t.env_id
        for t in evaluation_set(benchmark="MLAgentBench")
        if isinstance(t, MLAgentBenchTask)
        and str(t.config.real_source.get("via", "")).lower() == "kaggle"
    )


def _suggested_from_commands(err: str) -> list[str]:
    return [
        part.split("`", 1)[0]
        for part in err.split("`mle-gym ")[1:]
        if part.split("`", 1)[0].startswith("prepare ")
    ]


@pytest.mark.parametrize("env_id", _kaggle_mlagentbench_tasks())
def test_mlagentbench_without_credentials_suggests_working_commands(
    env_id: str, no_kaggle: None, capsys: Capsys
) -> None:
    from mle_gym.families.mlagentbench.task import MLAgentBenchTask

    task = get_task(env_id)
    assert isinstance(task, MLAgentBenchTask)
    competition = task.config.real_source["competition"]
    assert cli(["prepare", env_id]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no Kaggle credentials found" in err
    assert "https://www.kaggle.com/settings" in err and "~/.kaggle/kaggle.json" in err
    assert f"https://www.kaggle.com/competitions/{competition}/data" in err
    commands = _suggested_from_commands(err)
    assert any("--from PATH" in c for c in commands), err
    for command in commands:  # each names this very task, as the CLI resolves it
        assert get_task(command.split()[1]).env_id == env_id, command
    assert f"mle-gym prepare {competition} " not in err or competition == task.id
    assert ("--replica" in err) == ("replica" in task.data)


def test_house_price_without_credentials_offers_the_replica(
    no_kaggle: None, capsys: Capsys
) -> None:
    assert cli(["prepare", "MLAgentBench/house-price-v0"]) == 2
    err = capsys.readouterr().err
    assert "mle-gym prepare home-data-for-ml-course" not in err
    assert "`mle-gym prepare MLAgentBench/house-price --from PATH`" in err
    assert "`mle-gym prepare MLAgentBench/house-price-v0 --replica`" in err
    assert "--data replica" in err


def test_mlebench_without_credentials_suggests_working_commands(
    no_kaggle: None, capsys: Capsys
) -> None:
    assert cli(["prepare", "spaceship-titanic"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 2  # the note on the shared id, and the error
    assert "no Kaggle credentials found" in err and "https://www.kaggle.com/settings" in err
    assert "`mle-gym prepare spaceship-titanic --from PATH.zip`" in err
    assert "`mle-gym prepare spaceship-titanic --replica`" in err
    assert cli(["prepare", "aerial-cactus-identification"]) == 2  # no replica: none offered
    err = capsys.readouterr().err
    assert "`mle-gym prepare aerial-cactus-identification --from PATH.zip`" in err
    assert "replica" not in err


# -- 6. a split at once: one table --------------------------------------------------------------


def test_prepare_a_split_without_credentials_prints_one_table(
    no_kaggle: None, capsys: Capsys
) -> None:
    assert cli(["prepare", "--split", "lite"]) == 1
    captured = capsys.readouterr()
    assert "error" not in captured.err.lower()
    lines = captured.out.splitlines()
    assert lines[0].split() == ["task", "status", "detail"]
    rows = [line for line in lines[1:] if line.startswith("MLEBench/")]
    assert len(rows) == 22 and all("needs credentials" in row for row in rows)
    assert all("https://www.kaggle.com/competitions/" in row for row in rows)
    assert "0 of 22 task(s) ready (22 needs credentials)" in lines
    credentials = [line for line in lines if "no Kaggle credentials" in line]
    assert len(credentials) == 1 and "every task asked for needs them" in credentials[0]


def test_prepare_a_split_not_yet_supported(no_kaggle: None, capsys: Capsys) -> None:
    assert cli(["prepare", "--split", "high"]) == 1
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("MLEBench/")]
    assert len(rows) == 15 and all("not yet supported" in row for row in rows)
    assert "no Kaggle credentials" not in out


@pytest.mark.slow
def test_prepare_a_split_of_replicas_then_again(no_kaggle: None, capsys: Capsys) -> None:
    assert cli(["prepare", "--split", "dev", "--replica"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("MLEBench/")]
    with_replica = [t for t in evaluation_set("dev", include_leaky=True) if "replica" in t.data]
    assert len(rows) == len(with_replica) and all("  prepared  " in row for row in rows)
    assert "have no offline replica (left out)" in out
    assert cli(["prepare", "--split", "dev", "--replica"]) == 0
    again = capsys.readouterr().out
    assert [r.split()[0] for r in rows] == [
        line.split()[0] for line in again.splitlines() if "  already prepared" in line
    ]
    assert f"{len(rows)} of {len(rows)} task(s) ready ({len(rows)} already prepared)" in again


def test_prepare_many_usage_errors(capsys: Capsys) -> None:
    assert cli(["prepare", "spaceship-titanic", "--split", "lite"]) == 2
    assert "not both" in capsys.readouterr().err
    assert cli(["prepare"]) == 2
    assert "name a task, or use --split" in capsys.readouterr().err


def test_summary_of_each_outcome() -> None:
    """Each kind of failure a family raises becomes its row (real exception objects)."""
    rules = kaggle.RulesNotAccepted("leaf-classification")
    try:
        raise RuntimeError("wrapped") from kaggle.MissingCredentials("leaf-classification")
    except RuntimeError as exc:
        wrapped = exc
    outcomes = [
        Outcome("A/a-v0", "prepared", "kaggle"),
        outcome_of_error("A/b-v0", rules),
        outcome_of_error("A/c-v0", wrapped),
        outcome_of_error("A/d-v0", NotImplementedError("the x family has no prepare step")),
        outcome_of_error("A/e-v0", ValueError("boom\n" + "long " * 100)),
    ]
    assert [o.status for o in outcomes] == [
        "prepared",
        "needs rules accepted",
        "needs credentials",
        "nothing to prepare",
        "failed",
    ]
    assert outcomes[1].detail == "https://www.kaggle.com/competitions/leaf-classification/rules"
    assert len(outcomes[4].detail) <= 200 and "\n" not in outcomes[4].detail
    lines = summary_lines(outcomes)
    assert "2 of 5 task(s) ready" in "\n".join(lines)
    assert sum("no Kaggle credentials found (1 task(s) need them)" in line for line in lines) == 1
    assert any("accept each competition's rules" in line for line in lines)


# -- 7. list fits in 120 columns -----------------------------------------------------------------


def test_list_fits_in_120_columns(capsys: Capsys) -> None:
    assert cli(["list"]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= 120
    assert len(env_ids(out)) == len(all_tasks())
    assert "--wide shows them whole" in out


def test_list_wide_shows_every_column_whole(capsys: Capsys) -> None:
    assert cli(["list", "--wide"]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) > 120
    assert out.splitlines()[0].split()[:3] == ["env", "id", "benchmark"]
    line = next(x for x in out.splitlines() if x.startswith("MLAgentBench/CLRS-v0 "))
    assert "real needs preparation (Google Cloud Storage (DeepMind's CLRS bucket))" in line
    assert "..." not in out


def test_list_json_has_every_field(capsys: Capsys) -> None:
    assert cli(["list", "--json", "--benchmark", "MLAgentBench"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert isinstance(records, list) and len(records) == 13
    house = next(r for r in records if r["env_id"] == "MLAgentBench/house-price-v0")
    assert house["benchmark"] == "MLAgentBench" and house["id"] == "house-price"
    assert house["metric"] == "mae" and house["lower_is_better"] is True
    assert "replica available" in house["data"] and house["data_sources"] == ["real", "replica"]
    assert {"split", "leaky", "notes", "title", "family", "version"} <= house.keys()


def test_list_wide_and_json_are_exclusive(capsys: Capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli(["list", "--wide", "--json"])
    assert exit_info.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err
