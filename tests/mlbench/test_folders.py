"""Bundled-repository discovery follows the task index: a repository is the folder of the
task of that name (the first task root's, as for the task itself), a problem of one
folder is that repository's only, and the built-in folders have none."""

from __future__ import annotations

import logging
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import gymnasium as gym
import pytest

from mle_gym import paths, tasks
from mle_gym.families import make_family
from mle_gym.families.mlbench.family import MLBenchFamily
from mle_gym.families.mlbench.folders import (
    MLBenchDataError,
    declared_repositories,
    discover_bundled,
    is_git_url,
)
from mle_gym.families.mlbench.loader import load_examples
from mle_gym.families.mlbench.repos import RepoResolver, bundled_repo_names
from mle_gym.task_folders import candidates, index_errors
from mle_gym.tasks import get_task, task_errors

BUILTIN = {"clusterlab", "regkit", "tabkit"}
ASSETS = paths.builtin_task_assets() / "mlbench"
LOADER = "mle_gym.families.mlbench.loader"


def _family(env_id: str) -> MLBenchFamily:
    """The family of ``env_id`` with no options."""
    family = make_family(get_task(env_id), {})
    assert isinstance(family, MLBenchFamily)
    return family


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty task root on $MLE_GYM_TASKS_PATH (folders are added by each test)."""
    top = tmp_path / "x"
    (top / "mlbench").mkdir(parents=True)
    monkeypatch.setenv("MLE_GYM_TASKS_PATH", str(top))
    tasks.clear_caches()
    yield top
    monkeypatch.delenv("MLE_GYM_TASKS_PATH")
    tasks.clear_caches()


def _copy(name: str, root: Path, as_name: str | None = None, first_id: int = 0) -> Path:
    """The built-in folder ``name`` copied into ``root`` (renamed ``as_name``: its id,
    its examples' ``github`` and, from ``first_id`` on, their ids follow)."""
    new = as_name or name
    folder = root / "mlbench" / new
    shutil.copytree(ASSETS / name, folder)
    if as_name is not None:
        yaml_path = folder / "task.yaml"
        text = yaml_path.read_text(encoding="utf-8").replace(f"id: {name}", f"id: {new}")
        yaml_path.write_text(text.replace(f"repos: [{name}]", f"repos: [{new}]"), "utf-8")
        for split_file in (folder / "examples").glob("*.jsonl"):
            lines = split_file.read_text(encoding="utf-8").splitlines()
            out = []
            for line in lines:
                line = line.replace(f"mle-gym://{name}", f"mle-gym://{new}")
                out.append(line.replace('"id": ', f'"id": {first_id}', 1) if first_id else line)
            split_file.write_text("\n".join(out) + "\n", encoding="utf-8")
    tasks.clear_caches()
    return folder


@pytest.fixture(autouse=True)
def _warnings(caplog: pytest.LogCaptureFixture) -> None:
    """The loader's warnings are captured from the start of each test (each is logged
    once per process: by whichever env first loads the bundled examples)."""
    caplog.set_level(logging.WARNING, logger=LOADER)


def _offline(caplog: pytest.LogCaptureFixture) -> tuple[set[str], list[str]]:
    """The repositories ``MLBench/offline-v0`` serves, and the warnings of the test."""
    family = _family("MLBench/offline-v0")
    served = {e.repo_name for e in family.examples()}
    return served, [r.getMessage() for r in caplog.records if r.name == LOADER]


def test_the_built_in_folders_are_all_sound(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Nothing built in is ever left out: ``offline`` must not hide a broken folder."""
    monkeypatch.delenv("MLE_GYM_TASKS_PATH", raising=False)
    found = discover_bundled()
    assert found.problems() == [] and found.broken == {} and found.notes == ()
    assert set(found.repositories) == BUILTIN
    assert {p.name for p in ASSETS.iterdir() if (p / "repository").is_dir()} == BUILTIN
    assert [e for e in index_errors() if str(ASSETS) in e] == []
    assert [e for e in task_errors() if str(ASSETS) in e] == []
    served, warnings = _offline(caplog)
    assert served == BUILTIN and warnings == []
    assert len(load_examples("bundled", "full", needed=sorted(BUILTIN))) == 36


def test_a_copy_of_a_built_in_folder_breaks_no_env(
    root: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The review's case: task_assets/mlbench/clusterlab copied into a task root."""
    copy = _copy("clusterlab", root)
    assert [e.folder for e in candidates("mlbench/clusterlab")] == [
        ASSETS / "clusterlab",
        copy,
    ]
    assert len(_family("MLBench/tabkit-v0").examples()) == 12
    # the first root's folder stands, for the task and for its repository
    assert get_task("MLBench/clusterlab-v0").folder == ASSETS / "clusterlab"
    co = RepoResolver(clone=False).resolve("mle-gym://clusterlab")
    assert co.path == ASSETS / "clusterlab" / "repository"
    assert len(_family("MLBench/clusterlab-v0").examples()) == 12
    found = discover_bundled()
    assert found.broken == {} and set(found.repositories) == BUILTIN
    assert len(found.notes) == 1 and "'clusterlab' is defined twice" in found.notes[0]
    served, warnings = _offline(caplog)
    assert served == BUILTIN
    assert len([m for m in warnings if "defined twice" in m]) == 1  # once per process
    assert any("defined twice" in e for e in task_errors())  # the catalog says so too


def test_a_broken_folder_is_its_own_repositorys_problem(
    root: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = _copy("tabkit", root, "brokenkit", first_id=9)
    assert len(load_examples("bundled", "full")) == 48  # sound: 12 more examples
    (folder / "repository" / "README.md").unlink()
    found = discover_bundled()
    assert set(found.broken) == {"brokenkit"} and set(found.repositories) == BUILTIN
    assert set(bundled_repo_names()) == BUILTIN
    readme_error = rf"{folder / 'repository'} has no README\.md"
    # its own examples, its repository and its env fail with the specific error ...
    with pytest.raises(MLBenchDataError, match=readme_error):
        load_examples("bundled", "full", needed=["brokenkit"])
    with pytest.raises(MLBenchDataError, match=readme_error):
        RepoResolver(clone=False).resolve("mle-gym://brokenkit")
    with pytest.raises(MLBenchDataError, match="brokenkit"):
        _family("MLBench/brokenkit-v0").examples()
    # ... every other env works, and offline leaves it out with a warning saying why
    for name in BUILTIN:
        assert _family(f"MLBench/{name}-v0").examples()
    served, warnings = _offline(caplog)
    assert served == BUILTIN
    assert any("'brokenkit' left out" in m and "has no README" in m for m in warnings)
    # examples without a repository: the same
    (folder / "repository").rename(folder / "elsewhere")
    with pytest.raises(MLBenchDataError, match="has an examples/ folder but no repository/"):
        load_examples("bundled", "full", needed=["BrokenKit"])  # names ignore case
    assert {e.repo_name for e in load_examples("bundled", "full")} == BUILTIN


def test_a_folder_the_family_rejects(root: Path, caplog: pytest.LogCaptureFixture) -> None:
    folder = _copy("tabkit", root, "oddkit", first_id=9)
    yaml_path = folder / "task.yaml"
    yaml_path.write_text(
        yaml_path.read_text(encoding="utf-8").replace("split: full", "split: most"), "utf-8"
    )
    tasks.clear_caches()
    found = discover_bundled()
    assert set(found.broken) == {"oddkit"}
    with pytest.raises(MLBenchDataError, match=r"'oddkit' cannot be used: .*mlbench\.split"):
        RepoResolver(clone=False).resolve("mle-gym://oddkit")
    served, warnings = _offline(caplog)
    assert served == BUILTIN and any("oddkit" in m for m in warnings)


def test_the_task_and_its_repository_are_the_same_folder(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the first root's folder of a task is rejected by its family, the catalog
    serves the task from the next one: so does the repository."""
    first = _copy("tabkit", root, "twinkit", first_id=9)
    later = tmp_path / "y"
    second = _copy("tabkit", later, "twinkit", first_id=9)
    yaml_path = first / "task.yaml"
    yaml_path.write_text(yaml_path.read_text(encoding="utf-8") + "mlbench_extra: [\n", "utf-8")
    monkeypatch.setenv("MLE_GYM_TASKS_PATH", os.pathsep.join([str(root), str(later)]))
    tasks.clear_caches()
    # the index cannot read the first folder at all: the second is the task
    assert get_task("MLBench/twinkit-v0").folder == second
    assert RepoResolver(clone=False).resolve("mle-gym://twinkit").path.parent == second
    # readable, but rejected by the family: the same
    yaml_path.write_text(
        (second / "task.yaml").read_text(encoding="utf-8").replace("split: full", "split: x"),
        "utf-8",
    )
    tasks.clear_caches()
    assert get_task("MLBench/twinkit-v0").folder == second
    found = discover_bundled()
    assert found.repositories["twinkit"].folder == second and found.broken == {}
    assert any(str(first) in note and "left out" in note for note in found.notes)


def test_declared_repositories_come_from_the_tasks() -> None:
    from mle_gym.families.mlbench.task import MLBenchTask

    declared = declared_repositories()
    specs = [t for t in tasks.all_tasks().values() if isinstance(t, MLBenchTask)]
    assert declared == tuple(t.repository for t in specs if t.repository)
    assert len(declared) == 14


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("https://github.com/dmlc/dgl.git", True),
        ("ssh://git@host/owner/name.git", True),
        ("git@github.com:dmlc/dgl.git", True),
        ("file:///srv/git/dgl", True),
        ("_deploy@host:path", True),
        ("-x@host:path", False),
        ("--upload-pack=evil@host:path", False),
        ("-oProxyCommand=x@host:p", False),
        ("https://github.com/a b", False),
        ("dgl", False),
        ("", False),
    ],
)
def test_is_git_url(text: str, ok: bool) -> None:
    assert is_git_url(text) is ok


def test_a_leading_dash_repository_is_refused_in_task_yaml(root: Path) -> None:
    folder = root / "mlbench" / "dashy"
    folder.mkdir()
    (folder / "description.md").write_text("x\n")
    (folder / "task.yaml").write_text(
        "id: dashy\nbenchmark: MLBench\nmetric: pass\nmlbench:\n  repository: '-x@host:path'\n"
    )
    tasks.clear_caches()
    with pytest.raises(tasks.TaskError, match=r"mlbench\.repository: must be a git URL"):
        get_task("MLBench/dashy-v0")
    assert "-x@host:path" not in declared_repositories()


def test_gym_make_of_the_other_envs_with_a_broken_folder(root: Path) -> None:
    folder = _copy("tabkit", root, "brokenkit", first_id=9)
    (folder / "repository" / "README.md").unlink()
    import mle_gym

    mle_gym.register_all()
    try:
        env = gym.make("MLBench/offline-v0", sandbox="unsafe-local")
        env.close()
        with pytest.raises(MLBenchDataError, match="brokenkit"):
            gym.make("MLBench/brokenkit-v0", sandbox="unsafe-local")
    finally:
        gym.registry.pop("MLBench/brokenkit-v0", None)
