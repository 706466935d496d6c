"""MLAgentBench task folders use only the public authoring APIs.

A folder's host-side code (``prepare.py``, ``evaluate.py``) imports mle_gym only through
``mle_gym.authoring`` and ``mle_gym.families.mlagentbench.authoring`` (and only names the
latter's ``__all__`` lists); the code that runs inside a sandbox (``starter/``,
``solution/``, ``harness/``, where mle_gym is not importable) imports no mle_gym at all.
Checked for every built-in folder and for the worked example of
docs/adding-an-mlagentbench-task.md.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

import mle_gym.authoring
from mle_gym.families.mlagentbench import authoring, download, evaluation, guard, harness, tabular
from mle_gym.grading.submission import SubmissionSpec
from mle_gym.sandbox import hostfs
from mle_gym.tasks import TaskError, get_task

REPO = Path(__file__).resolve().parents[2]
API = "mle_gym.families.mlagentbench.authoring"
FAMILY_FREE = "mle_gym.authoring"
#: code run inside a sandbox (mle_gym is hidden there)
SANDBOX_FOLDERS = ("starter", "solution", "harness")


def task_folders() -> list[Path]:
    """Every built-in MLAgentBench folder and the worked example(s) of the docs."""
    roots = [REPO / "task_assets" / "mlagentbench", REPO / "docs" / "examples" / "mlagentbench"]
    return sorted(p.parent for root in roots for p in root.glob("*/task.yaml"))


def mle_gym_imports(path: Path) -> list[tuple[int, str, list[str]]]:
    """(line, module, imported names) of every import of mle_gym in ``path``, at any depth
    (imports inside functions included)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "mle_gym":
                    found.append((node.lineno, alias.name, []))
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "mle_gym":
            assert node.module is not None and node.level == 0
            found.append((node.lineno, node.module, [a.name for a in node.names]))
    return found


def _allowed(module: str, names: list[str]) -> str | None:
    """Why this import breaks the rule, or None."""
    if module == FAMILY_FREE or module.startswith(FAMILY_FREE + "."):
        return None
    if module == API:
        unknown = [n for n in names if n not in authoring.__all__]
        return f"{', '.join(unknown)} not in {API}.__all__" if unknown else None
    if module == API.rsplit(".", 1)[0] and names == ["authoring"]:
        return None
    return f"imports {module}"


def host_files(folder: Path) -> list[Path]:
    return sorted(
        p for p in folder.rglob("*.py") if p.relative_to(folder).parts[0] not in SANDBOX_FOLDERS
    )


def sandbox_files(folder: Path) -> list[Path]:
    return sorted(
        p for p in folder.rglob("*.py") if p.relative_to(folder).parts[0] in SANDBOX_FOLDERS
    )


def test_the_folders_are_found() -> None:
    names = {f.name for f in task_folders()}
    assert {"house-price", "spaceship-titanic", "vectorization", "CLRS", "babylm"} <= names
    assert len(names) >= 14  # the 13 tasks and the docs' example
    every_file = [p.name for f in task_folders() for p in host_files(f)]
    assert every_file.count("evaluate.py") == len(names)


def test_mlagentbench_task_folders_import_only_the_authoring_api() -> None:
    offenders = []
    for folder in task_folders():
        for path in host_files(folder):
            for line, module, names in mle_gym_imports(path):
                problem = _allowed(module, names)
                if problem:
                    offenders.append(f"{path.relative_to(REPO)}:{line}: {problem}")
    assert offenders == []


def test_code_run_in_a_sandbox_imports_no_mle_gym() -> None:
    checked, offenders = 0, []
    for folder in task_folders():
        for path in sandbox_files(folder):
            checked += 1
            for line, module, _ in mle_gym_imports(path):
                offenders.append(f"{path.relative_to(REPO)}:{line}: imports {module}")
    assert offenders == [] and checked >= 17  # 14 starters, 4 solutions, 3 harness scripts


def test_the_checker_sees_imports_inside_functions(tmp_path: Path) -> None:
    path = tmp_path / "prepare.py"
    path.write_text(
        "from mle_gym.families.mlagentbench.authoring import find_one, timed_run\n"
        "from mle_gym.authoring import read_csv_exact\n"
        "def replica(public, private, seed):\n"
        "    from mle_gym.tasks import get_task\n"
        "    import mle_gym.data.store\n"
        "    from mle_gym.families.mlagentbench.authoring import _task_folder\n"
    )
    problems = [_allowed(module, names) for _, module, names in mle_gym_imports(path)]
    assert problems == [
        None,
        None,
        "imports mle_gym.tasks",
        "imports mle_gym.data.store",
        f"_task_folder not in {API}.__all__",
    ]


#: where each name of the API comes from (the API re-exports, it does not wrap)
ORIGINS = {
    "EvalJob": evaluation,
    "Evaluation": evaluation,
    "EvaluationFailed": evaluation,
    "check_file": tabular,
    "read_answers": tabular,
    "read_predictions": tabular,
    "fetch_kaggle": download,
    "fetch_url": download,
    "fetch_hf_files": download,
    "find_one": download,
    "read_raw_csv": download,
    "extract_any": download,
    "extract_tar": download,
    "check_safetensors": download,
    "DownloadError": download,
    "TimedRun": guard,
    "TimingFailed": guard,
    "read_checked": guard,
    "timed_run": guard,
    "run_harness": harness,
    "temporary_dir": hostfs,
    "clear_dir": hostfs,
    "copy_tree": hostfs,
    "chown_tree": hostfs,
    "write_file": hostfs,
    "extract_zip": mle_gym.authoring,
}


def test_the_api_reexports_the_family_s_objects() -> None:
    assert sorted(authoring.__all__) == sorted(set(authoring.__all__))
    for name in authoring.__all__:
        assert hasattr(authoring, name), name
    for name, origin in ORIGINS.items():
        assert name in authoring.__all__ and getattr(authoring, name) is getattr(origin, name)


def _mlagentbench_section() -> str:
    text = (REPO / "docs" / "authoring.md").read_text(encoding="utf-8")
    start = text.index("\n## MLAgentBench task folders")
    return text[start:]


def test_every_name_has_a_contract_and_is_documented() -> None:
    doc = _mlagentbench_section()
    module_doc = authoring.__doc__ or ""
    for name in authoring.__all__:
        value = getattr(authoring, name)
        assert f"`{name}" in doc, f"docs/authoring.md does not describe {name}"
        assert name in module_doc, f"the module docstring states no contract for {name}"
        if inspect.isfunction(value) or inspect.isclass(value):
            assert inspect.getdoc(value), f"{name} has no docstring"


def test_submission_spec() -> None:
    spec = authoring.submission_spec("submission.csv", "Id", ["SalePrice"], "numeric")
    assert spec == SubmissionSpec("submission.csv", "Id", ("SalePrice",), "numeric")
    assert spec == tabular.spec("submission.csv", "Id", ["SalePrice"], "numeric")
    two = authoring.submission_spec("s.csv", "id", ("a", "b"), "label")
    assert two.target_columns == ("a", "b")
    with pytest.raises(ValueError, match="kind must be one of"):
        authoring.submission_spec("s.csv", "id", ["a"], "float")
    with pytest.raises(ValueError, match="non-empty list"):
        authoring.submission_spec("s.csv", "id", "a", "label")
    with pytest.raises(ValueError, match="non-empty list"):
        authoring.submission_spec("s.csv", "id", [], "label")


def test_task_module_is_the_task_s_own_module() -> None:
    module = authoring.task_module("mlebench/spaceship-titanic", "prepare")
    assert module is get_task("mlebench/spaceship-titanic").module("prepare")
    assert callable(module.replica)
    assert authoring.task_module("MLEBench/spaceship-titanic", "prepare") is module
    with pytest.raises(TaskError, match="unknown task 'mlebench/no-such-task'"):
        authoring.task_module("mlebench/no-such-task", "prepare")
    with pytest.raises(TaskError, match=r"has no nothing\.py"):
        authoring.task_module("mlebench/spaceship-titanic", "nothing")
    with pytest.raises(TaskError, match="is not a task key"):
        authoring.task_module("spaceship-titanic", "prepare")


def test_task_module_finds_folders_on_the_tasks_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "more" / "mlagentbench" / "api-probe"
    folder.mkdir(parents=True)
    (folder / "task.yaml").write_text("id: api-probe\nbenchmark: MLAgentBench\n")
    (folder / "helper.py").write_text("VALUE = 3\n")
    with pytest.raises(TaskError, match="unknown task 'mlagentbench/api-probe'"):
        authoring.task_module("mlagentbench/api-probe", "helper")
    monkeypatch.setenv("MLE_GYM_TASKS_PATH", str(tmp_path / "more"))
    assert authoring.task_module("mlagentbench/api-probe", "helper").VALUE == 3
    with pytest.raises(TaskError, match="unknown task"):  # another benchmark's key
        authoring.task_module("mlebench/api-probe", "helper")
