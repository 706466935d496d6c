"""The worked example of docs/adding-an-mlbench-repository.md: a new bundled ML-Bench
repository is one folder.

The example folder ``docs/examples/mlbench/smoothkit/`` (task.yaml, description.md,
``repository/``, ``examples/full.jsonl``) is copied into a fresh task root named by
``$MLE_GYM_TASKS_PATH``, as a user adds a repository outside the package (a folder under
``task_assets/mlbench/`` is found the same way). With nothing else changed, the task is
discovered and registered, ``mle-gym://smoothkit`` resolves to its ``repository/``, its
examples load (alone and within ``MLBench/offline-v0``), and the scripted agent passes
its episodes on both sandbox backends. A broken folder gets an error naming the file.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import gymnasium as gym
import pytest

import mle_gym
from mle_gym import paths, tasks
from mle_gym.agents import make_agent
from mle_gym.episode_runner import run_episode
from mle_gym.families import make_family
from mle_gym.families.mlbench.argcheck import check_arguments
from mle_gym.families.mlbench.folders import discover_bundled
from mle_gym.families.mlbench.loader import MLBenchDataError, load_examples
from mle_gym.families.mlbench.repos import RepoResolver, RepoUnavailable, bundled_repo_names
from mle_gym.families.mlbench.schema import ExampleError
from mle_gym.families.mlbench.solver import compose_solution
from mle_gym.tasks import TaskError, get_task, task_errors

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "docs" / "examples" / "mlbench" / "smoothkit"
NAME = EXAMPLE.name
ENV_ID = f"MLBench/{NAME}-v0"
EXAMPLE_IDS = [1001, 1002, 1003]
BUILTIN = {"clusterlab", "regkit", "tabkit"}


def fingerprint(root: Path) -> dict[str, str]:
    """Every file under ``root`` (relative path) -> the SHA-256 of its content."""
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


@pytest.fixture
def task_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A task root holding only a copy of the example folder, on $MLE_GYM_TASKS_PATH; the
    built-in task_assets/mlbench must be byte for byte the same afterwards."""
    before = fingerprint(paths.builtin_task_assets() / "mlbench")
    root = tmp_path / "my_tasks"
    shutil.copytree(EXAMPLE, root / "mlbench" / NAME)
    monkeypatch.setenv("MLE_GYM_TASKS_PATH", str(root))
    tasks.clear_caches()
    yield root
    gym.registry.pop(ENV_ID, None)
    tasks.clear_caches()
    assert fingerprint(paths.builtin_task_assets() / "mlbench") == before


def test_the_example_is_not_built_in_and_nothing_else_names_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("MLE_GYM_TASKS_PATH", raising=False)
    with pytest.raises(TaskError, match="unknown task"):
        get_task(ENV_ID)
    assert set(bundled_repo_names()) == BUILTIN
    assert NAME not in {e.repo_name for e in load_examples("bundled", "full")}
    # the package and the built-in tasks know nothing of it: the folder is all there is
    for top in (REPO / "mle_gym", paths.builtin_task_assets()):
        naming = [p for p in top.rglob("*") if p.is_file() and NAME.encode() in p.read_bytes()]
        assert naming == [], naming


def test_one_folder_is_discovered_registered_and_its_examples_load(task_root: Path) -> None:
    folder = task_root / "mlbench" / NAME
    assert task_errors() == []
    task = get_task(ENV_ID)
    assert task.folder == folder
    assert ENV_ID in mle_gym.register_all() and ENV_ID in gym.registry

    assert set(bundled_repo_names()) == BUILTIN | {NAME}
    checkout = RepoResolver(clone=False).resolve(f"mle-gym://{NAME}")
    assert checkout.origin == "bundled" and checkout.path == folder / "repository"

    # the task serves its own examples; the offline task serves them with every other
    family = make_family(task, {})
    assert [e.id for e in family.examples()] == EXAMPLE_IDS
    offline = make_family(get_task("MLBench/offline-v0"), {})
    assert [e.id for e in offline.examples()][-3:] == EXAMPLE_IDS
    assert {e.repo_name for e in offline.examples()} == BUILTIN | {NAME}
    # no quarter.jsonl in the folder: no example of that split, the others' unchanged
    quarter = load_examples("bundled", "quarter")
    assert quarter and NAME not in {e.repo_name for e in quarter}
    with pytest.raises(MLBenchDataError, match=r"no example of split 'quarter'.*smoothkit"):
        make_family(task, {"split": "quarter"}).examples()

    # each example is consistent with the README the agent reads
    readme = (folder / "repository" / "README.md").read_text(encoding="utf-8")
    for ex in family.examples():
        assert (checkout.path / ex.path).is_dir() and ex.oracle in readme, ex.id
        assert check_arguments(ex.output, ex.arguments, ex.type).passed, ex.id
        solution = compose_solution(readme, ex.path, ex.type, ex.arguments)
        assert solution is not None and check_arguments(solution, ex.arguments, ex.type).passed


@pytest.mark.slow
def test_the_scripted_agent_passes_every_example(task_root: Path, backend: str) -> None:
    mle_gym.register_all()
    env = gym.make(ENV_ID, sandbox=backend)
    try:
        results = [run_episode(env, make_agent("scripted"), seed=s) for s in range(3)]
    finally:
        env.close()
    for result in results:
        assert result.grade is not None and result.grade["passed"], result.grade
        assert result.reward == 1.0 and result.data_source == "bundled"
    assert sorted(r.grade["example_id"] for r in results if r.grade) == EXAMPLE_IDS
    # the built-in offline task plays it too
    env = gym.make("MLBench/offline-v0", sandbox=backend)
    try:
        obs, info = env.reset(options={"example_id": 1002})
        agent = make_agent("scripted")
        agent.reset({**info, "task": env.unwrapped.task, "observation": obs})
        done = False
        while not done:
            obs, _, terminated, truncated, info = env.step(agent.act(obs, info))
            done = terminated or truncated
    finally:
        env.close()
    assert info["grade"]["passed"] and info["grade"]["example_id"] == 1002, info["grade"]
    assert info["grade"]["execution"]["artifacts_found"] == ["trend.csv"]


# -- what a broken folder is told -----------------------------------------------------------
#
# A problem is that repository's: its own examples (``needed=[name]``, what its env loads)
# and ``mle-gym://<name>`` raise it; the offline set leaves it out with a warning and
# serves every other repository.


def _rows(folder: Path) -> list[dict[str, object]]:
    lines = (folder / "examples" / "full.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def _write_rows(folder: Path, rows: list[dict[str, object]]) -> Path:
    path = folder / "examples" / "full.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def _warnings(caplog: pytest.LogCaptureFixture) -> None:
    """The loader's warnings, captured from the start (each is logged once per process)."""
    caplog.set_level(logging.WARNING, logger="mle_gym.families.mlbench.loader")


def _left_out(caplog: pytest.LogCaptureFixture, name: str = NAME) -> list[str]:
    """The offline set without ``name``, and the warnings that said why."""
    served = {e.repo_name for e in load_examples("bundled", "full")}
    assert served == BUILTIN, served
    return [r.getMessage() for r in caplog.records if name in r.getMessage()]


def test_a_repository_without_readme(task_root: Path, caplog: pytest.LogCaptureFixture) -> None:
    readme = task_root / "mlbench" / NAME / "repository" / "README.md"
    readme.unlink()
    with pytest.raises(MLBenchDataError, match=rf"{readme.parent} has no README\.md"):
        load_examples("bundled", "full", needed=[NAME])
    with pytest.raises(MLBenchDataError, match="has no README"):
        RepoResolver(clone=False).resolve(f"mle-gym://{NAME}")
    assert NAME not in bundled_repo_names()
    assert any("has no README" in m for m in _left_out(caplog))
    assert make_family(get_task("MLBench/tabkit-v0"), {}).examples()
    # the env that serves the broken repository says what is wrong with it
    with pytest.raises(MLBenchDataError, match=rf"{readme.parent} has no README\.md"):
        make_family(get_task(ENV_ID), {}).examples()


def test_an_id_used_by_two_repositories_names_both_files(
    task_root: Path, caplog: pytest.LogCaptureFixture
) -> None:
    first = task_root / "mlbench" / NAME
    second = task_root / "mlbench" / "smoothkit2"
    shutil.copytree(first, second)
    task_yaml = second / "task.yaml"
    task_yaml.write_text(
        task_yaml.read_text(encoding="utf-8").replace(f"id: {NAME}", "id: smoothkit2"),
        encoding="utf-8",
    )
    rows = [{**r, "github": "mle-gym://smoothkit2"} for r in _rows(second)]
    path = _write_rows(second, rows)
    tasks.clear_caches()  # a folder added to a task root already read
    with pytest.raises(ExampleError) as err:
        load_examples("bundled", "full", needed=["smoothkit2"])
    message = str(err.value)
    assert f"{path} line 1: id 1001 is used twice" in message
    assert f"first at {first / 'examples' / 'full.jsonl'} line 1" in message
    # the later repository (in index order) is the one left out
    served = {e.repo_name for e in load_examples("bundled", "full")}
    assert served == BUILTIN | {NAME}
    assert any("'smoothkit2' left out" in r.getMessage() for r in caplog.records)


def test_a_malformed_line_names_the_file_and_line(
    task_root: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = task_root / "mlbench" / NAME / "examples" / "full.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text(lines[0] + "\n{not json\n", encoding="utf-8")
    with pytest.raises(MLBenchDataError, match=rf"{path} line 2: not valid JSON"):
        load_examples("bundled", "full", needed=[NAME])
    assert any("not valid JSON" in m for m in _left_out(caplog))
    path.write_text(lines[0] + "\n" + json.dumps({"id": 5}) + "\n", encoding="utf-8")
    with pytest.raises(ExampleError, match=rf"{path} line 2: .*missing"):
        load_examples("bundled", "full", needed=[NAME])


def test_an_example_must_run_in_its_own_folders_repository(task_root: Path) -> None:
    folder = task_root / "mlbench" / NAME
    rows = _rows(folder)
    rows[1]["github"] = "mle-gym://tabkit"
    path = _write_rows(folder, rows)
    with pytest.raises(ExampleError, match=rf"{path} line 2: field 'github' is 'mle-gym://tabkit'"):
        load_examples("bundled", "full", needed=[NAME])


def test_misplaced_files_and_folders(task_root: Path, caplog: pytest.LogCaptureFixture) -> None:
    folder = task_root / "mlbench" / NAME
    stray = folder / "examples" / "train.jsonl"
    stray.write_text("", encoding="utf-8")
    with pytest.raises(MLBenchDataError, match=rf"{stray}: not an examples file"):
        load_examples("bundled", "full", needed=[NAME])
    stray.unlink()
    (folder / "repository").rename(folder / "repo")
    with pytest.raises(MLBenchDataError, match=r"has an examples/ folder but no repository/"):
        load_examples("bundled", "full", needed=[NAME])
    with pytest.raises(MLBenchDataError, match=r"has an examples/ folder but no repository/"):
        RepoResolver(clone=False).resolve(f"mle-gym://{NAME}")
    assert any("no repository/" in m for m in _left_out(caplog))
    (folder / "repo").rename(folder / "repository")
    with pytest.raises(RepoUnavailable, match=r"no repository 'nope' is shipped.*smoothkit"):
        RepoResolver(clone=False).resolve("mle-gym://nope")


def test_the_same_repository_in_two_task_roots(
    task_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = tmp_path / "more_tasks"
    shutil.copytree(task_root, other)
    monkeypatch.setenv("MLE_GYM_TASKS_PATH", os.pathsep.join([str(task_root), str(other)]))
    # the first root's folder is the repository, as it is the task; the second is reported
    assert set(bundled_repo_names()) == BUILTIN | {NAME}
    checkout = RepoResolver(clone=False).resolve(f"mle-gym://{NAME}")
    assert checkout.path == task_root / "mlbench" / NAME / "repository"
    assert get_task(ENV_ID).folder == task_root / "mlbench" / NAME
    notes = discover_bundled().notes
    assert len(notes) == 1
    assert re.search(r"'smoothkit' is defined twice: .*my_tasks.*more_tasks", notes[0])
    assert [e.id for e in load_examples("bundled", "full")][-3:] == EXAMPLE_IDS
