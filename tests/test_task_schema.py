"""task.yaml parsing (mle_gym.task_schema + mle_gym.tasks.load_task): a malformed file is a
TaskError naming the file and the field at fault; docs/task.schema.json is current and
accepts every task folder of the repository."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from mle_gym import tasks
from mle_gym.families.mlagentbench.options import MLAgentBenchOptions
from mle_gym.families.mlebench.task import GRADER_KINDS, TARGET_KINDS
from mle_gym.grading.submission import TARGET_KINDS as SUBMISSION_TARGET_KINDS
from mle_gym.grading.submission import SubmissionSpec
from mle_gym.task_schema import validate_options
from mle_gym.tasks import TaskError, load_task

REPO = Path(__file__).resolve().parents[1]
ASSETS = REPO / "task_assets"
MLEBENCH_TASK = ASSETS / "mlebench" / "spaceship-titanic"

MLAB_YAML = {
    "id": "toy",
    "benchmark": "MLAgentBench",
    "metric": "value",
    "mlagentbench": {
        "run": "python train.py",
        "outputs": ["result.txt"],
        "baseline": {"mode": "measured", "seeds": [0, 1]},
    },
    "data": {"none": {}},
}
MLBENCH_YAML = {
    "id": "toy",
    "benchmark": "MLBench",
    "family": "mlbench",
    "metric": "pass",
    "mlbench": {"source": "hf", "split": "full", "github_id": 2},
}


def _write(folder: Path, raw: dict[str, Any]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "task.yaml").write_text(yaml.safe_dump(raw, sort_keys=False))
    (folder / "description.md").write_text("A task.\n")
    return folder


def _mlebench(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """A copy of a real MLE-bench task folder's task.yaml (no data needed to parse it)."""
    folder = tmp_path / MLEBENCH_TASK.name
    folder.mkdir()
    shutil.copy(MLEBENCH_TASK / "description.md", folder)
    return folder, yaml.safe_load((MLEBENCH_TASK / "task.yaml").read_text())


def _mlab(tmp_path: Path, raw: dict[str, Any]) -> Path:
    folder = _write(tmp_path / raw["id"], raw)
    (folder / "evaluate.py").write_text("")
    (folder / "starter").mkdir(exist_ok=True)
    return folder


def _set(raw: dict[str, Any], dotted: str, value: Any) -> None:
    *parents, last = dotted.split(".")
    node = raw
    for key in parents:
        node = node[key]
    if value is _DELETE:
        del node[last]
    else:
        node[last] = value


_DELETE = object()

MLEBENCH_ERRORS = [
    ("metric", _DELETE, r"task\.yaml: missing required field 'metric'"),
    ("id", None, "missing required field 'id'"),
    ("submission.id_column", _DELETE, "missing required field 'submission.id_column'"),
    ("files", _DELETE, "missing required field 'files'"),
    ("version", "one", r"version: Input should be a valid integer.*'one'"),
    ("lower_is_better", "perhaps", "lower_is_better: Input should be a valid boolean"),
    ("limits", {"max_steps": 0}, r"limits\.max_steps: Input should be greater than 0"),
    ("limits", {"cpus": float("nan")}, r"limits\.cpus: Input should be a finite number"),
    ("limits", {"max_stepz": 5}, r"unknown field 'limits\.max_stepz'; known: max_steps, "),
    ("submission.target_kind", "text", r"submission\.target_kind: Input should be 'binary'"),
    ("submission.target_columns", [], r"submission\.target_columns: .* at least 1 item"),
    ("submission.max_mb", -1, r"submission\.max_mb: Input should be greater than 0"),
    ("grader", "magic", r"grader: Input should be 'generic', 'module'"),
    ("leaderboard.teams", "many", r"leaderboard\.teams: Input should be a valid integer"),
    ("leaderboard.gold", _DELETE, "missing required field 'leaderboard.gold'"),
    ("leaderboard.score_at_rank_fraction", [1.0, 2.0], "needs 101 values, got 2"),
    ("data", {"elsewhere": {}}, r"data lists no source \(kaggle, bundled or replica\)"),
    ("data.kaggle.supported", "sometimes", r"data\.kaggle\.supported: Input should be"),
    ("id", "another-id", "id 'another-id' differs from folder name 'spaceship-titanic'"),
]


@pytest.mark.parametrize(("field", "value", "message"), MLEBENCH_ERRORS)
def test_malformed_mlebench_task_yaml_names_the_file_and_field(
    tmp_path: Path, field: str, value: Any, message: str
) -> None:
    folder, raw = _mlebench(tmp_path)
    _set(raw, field, value)
    _write(folder, raw)
    with pytest.raises(TaskError, match=message) as err:
        load_task(folder)
    assert str(err.value).startswith(f"{folder / 'task.yaml'}: ")


def test_several_faults_are_reported_together(tmp_path: Path) -> None:
    folder, raw = _mlebench(tmp_path)
    del raw["metric"]
    raw["version"] = "one"
    _write(folder, raw)
    with pytest.raises(TaskError) as err:
        load_task(folder)
    assert "'metric'" in str(err.value) and "version:" in str(err.value)


def test_not_a_mapping_and_bad_yaml_and_missing_files(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    with pytest.raises(TaskError, match=r"no task\.yaml"):
        load_task(folder)
    folder.mkdir()
    (folder / "task.yaml").write_text("- a list\n")
    with pytest.raises(TaskError, match="expected a mapping at top level"):
        load_task(folder)
    (folder / "task.yaml").write_text("id: [unclosed\n")
    with pytest.raises(TaskError, match="not valid YAML"):
        load_task(folder)
    (folder / "task.yaml").write_text("id: t\n")
    with pytest.raises(TaskError, match=r"no description\.md"):
        load_task(folder)


def test_unknown_keys_outside_limits_are_kept_as_before(tmp_path: Path) -> None:
    """The old parser accepted unknown top-level, submission and leaderboard keys (a task
    may carry notes for its own code): still accepted, and still in ``TaskSpec.raw``."""
    folder, raw = _mlebench(tmp_path)
    raw["notes"] = {"source": "hand-made"}
    raw["submission"]["comment"] = "x"
    raw["submission"]["target_columns"] = "Transported"  # one column as a bare string
    _write(folder, raw)
    spec = load_task(folder)
    assert spec.raw["notes"] == {"source": "hand-made"}
    assert spec.submission.target_columns == ("Transported",)


def test_defaults_fill_what_task_yaml_leaves_out(tmp_path: Path) -> None:
    folder, raw = _mlebench(tmp_path)
    for key in ("title", "version", "lower_is_better", "leaderboard", "leakage", "grader"):
        raw.pop(key, None)
    raw["submission"] = {"id_column": "PassengerId", "target_columns": ["Transported"]}
    _write(folder, raw)
    spec = load_task(folder)
    assert (spec.title, spec.version, spec.lower_is_better) == (spec.id, 0, False)
    assert spec.leaderboard is None and spec.leakage is None
    assert spec.grader == "generic"  # no grade.py in the copy
    assert spec.submission == SubmissionSpec(
        "submission.csv", "PassengerId", ("Transported",), "numeric", False, 200
    )
    assert spec.limits == tasks.Limits()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("mlagentbench", _DELETE, "missing required field 'mlagentbench'"),
        ("mlagentbench.run", " ", r"mlagentbench\.run: must be a command"),
        ("mlagentbench.outputs", [], r"mlagentbench\.outputs: .* at least 1 item"),
        ("mlagentbench.outputs", ["/etc/x"], r"'/etc/x' must be relative to the workspace"),
        ("mlagentbench.read_only", ["a/../../b"], "must be relative to the workspace"),
        ("mlagentbench.requires", [""], r"mlagentbench\.requires\[0\]: String should have"),
        ("mlagentbench.baseline.seeds", [], r"mlagentbench\.baseline\.seeds"),
        ("mlagentbench.baseline.seeds", ["0"], r"baseline\.seeds\[0\]: Input should be a valid"),
        ("mlagentbench.baseline.reference", {"a": "high"}, r"baseline\.reference\.a"),
        ("mlagentbench.success_threshold", -0.5, r"success_threshold: Input should be greater"),
        ("data", {}, "data: must list real, replica or none"),
        ("data", {"kaggle": {}}, r"unknown field 'data\.kaggle'; known: real, replica, none"),
        ("data", {"real": "somewhere"}, r"data\.real: Input should be a valid dictionary"),
    ],
)
def test_malformed_mlagentbench_block(tmp_path: Path, field: str, value: Any, message: str) -> None:
    raw = json.loads(json.dumps(MLAB_YAML))
    _set(raw, field, value)
    folder = _mlab(tmp_path, raw)
    with pytest.raises(TaskError, match=message) as err:
        load_task(folder)
    assert str(err.value).startswith(f"{folder / 'task.yaml'}: ")


def test_mlagentbench_block_keeps_unknown_keys_and_reads_bare_strings(tmp_path: Path) -> None:
    from mle_gym.families.mlagentbench.task import parse_config

    raw = json.loads(json.dumps(MLAB_YAML))
    raw["mlagentbench"].update(notes="kept", outputs="result.txt", read_only=None)
    cfg = parse_config(load_task(_mlab(tmp_path, raw)))
    assert cfg.outputs == ("result.txt",) and cfg.read_only == ()
    assert cfg.baseline_seeds == (0, 1) and cfg.success_threshold == 0.1
    assert cfg.self_contained and not cfg.has_replica


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("mlbench.repo_url", "x", r"unknown field 'mlbench\.repo_url'; known: source,"),
        ("mlbench.repository", "x", r"mlbench\.repository: must be a git URL"),
        ("mlbench.split", "most", r"mlbench\.split: must be one of"),
        ("mlbench.context", "all", r"mlbench\.context: must be one of"),
        ("mlbench.run_timeout_s", 0, r"mlbench\.run_timeout_s: Input should be greater than 0"),
        ("mlbench.github_id", "two", r"mlbench\.github_id: Input should be a valid integer"),
        ("mlbench", ["x"], r"mlbench: Input should be a valid dictionary"),
    ],
)
def test_malformed_mlbench_block(tmp_path: Path, field: str, value: Any, message: str) -> None:
    raw = json.loads(json.dumps(MLBENCH_YAML))
    _set(raw, field, value)
    with pytest.raises(TaskError, match=message):
        load_task(_write(tmp_path / "toy", raw))


def test_mlbench_block_defaults(tmp_path: Path) -> None:
    from mle_gym.families.mlbench.options import MLBenchConfig
    from mle_gym.families.mlbench.task import task_config as _task_config

    raw = {k: v for k, v in MLBENCH_YAML.items() if k != "mlbench"}
    assert _task_config(load_task(_write(tmp_path / "toy", raw))) == MLBenchConfig()
    raw["mlbench"] = {"repos": "BERT"}
    assert _task_config(load_task(_write(tmp_path / "toy", raw))).repos == ("BERT",)


def test_family_options_are_checked_by_the_options_model() -> None:
    assert validate_options(MLAgentBenchOptions, {}, "here").rerun is False
    assert validate_options(MLAgentBenchOptions, {"rerun": True}, "here").rerun is True
    with pytest.raises(
        ValueError, match="here: unknown option 'rerunn'; known: replica_seed, rerun"
    ):
        validate_options(MLAgentBenchOptions, {"rerunn": True}, "here")
    with pytest.raises(ValueError, match="here: rerun: Input should be a valid boolean"):
        validate_options(MLAgentBenchOptions, {"rerun": "sometimes"}, "here")


def test_kind_tuples_agree_with_the_schema() -> None:
    assert SUBMISSION_TARGET_KINDS == TARGET_KINDS
    assert GRADER_KINDS == ("generic", "module", "raw", "missing")


def _generator() -> Any:
    path = REPO / "scripts" / "gen_task_schema.py"
    spec = importlib.util.spec_from_file_location("gen_task_schema", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_published_json_schema_is_current() -> None:
    committed = (REPO / "docs" / "task.schema.json").read_text(encoding="utf-8")
    assert committed == _generator().render(), "run: python scripts/gen_task_schema.py"


@pytest.mark.slow
def test_every_task_folder_validates_against_the_published_schema() -> None:
    schema = json.loads((REPO / "docs" / "task.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    files = sorted(ASSETS.glob("*/*/task.yaml"))
    assert len(files) > 100
    bad = {
        str(p.relative_to(ASSETS)): [
            e.message for e in validator.iter_errors(yaml.safe_load(p.read_text()))
        ]
        for p in files
    }
    assert {k: v for k, v in bad.items() if v} == {}
    broken = yaml.safe_load((MLEBENCH_TASK / "task.yaml").read_text())
    broken["limits"] = {"max_stepz": 5}
    assert not validator.is_valid(broken)
