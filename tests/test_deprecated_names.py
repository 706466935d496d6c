"""Names that moved in issue 14 keep working for one release, with a DeprecationWarning
naming the new place, and resolve to the very same objects."""

from __future__ import annotations

import importlib
import sys
import warnings

import pytest

import mle_gym
from mle_gym import _deprecation, pool
from mle_gym.bench import context


def _forget(monkeypatch: pytest.MonkeyPatch, old: str) -> None:
    """Make the next import of module ``old`` go through the finder of moved modules again
    (restored after the test)."""
    parent, _, name = old.rpartition(".")
    monkeypatch.delitem(sys.modules, old, raising=False)
    if parent in _deprecation.MOVED_PACKAGES and parent not in sys.modules:
        with warnings.catch_warnings():  # the old parent's own warning is not this test's
            warnings.simplefilter("ignore", DeprecationWarning)
            importlib.import_module(parent)
    if parent in sys.modules and name in vars(sys.modules[parent]):
        monkeypatch.delattr(sys.modules[parent], name)


@pytest.mark.parametrize(("old", "new"), sorted(_deprecation.MOVED_MODULES.items()))
def test_moved_module_warns_and_is_the_new_module(
    old: str, new: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _forget(monkeypatch, old)
    with pytest.warns(DeprecationWarning, match=f"{old} is deprecated: it moved to {new};"):
        module = importlib.import_module(old)
    assert module is importlib.import_module(new)
    assert sys.modules[old] is module


def test_old_module_attribute_patches_the_new_one(monkeypatch: pytest.MonkeyPatch) -> None:
    _forget(monkeypatch, "mle_gym.runner")
    with pytest.warns(DeprecationWarning):
        from mle_gym import runner
    from mle_gym import episode_runner

    assert runner.run_episode is episode_runner.run_episode
    assert runner.EpisodeResult is episode_runner.EpisodeResult


@pytest.mark.parametrize(
    ("module", "old", "new"),
    [
        (mle_gym, "EnvPool", "EpisodePool"),
        (pool, "EnvPool", "EpisodePool"),
        (context, "FAMILIES", "GROUPS"),
        (importlib.import_module("mle_gym.bench"), "FAMILIES", "GROUPS"),
    ],
    ids=["mle_gym.EnvPool", "mle_gym.pool.EnvPool", "bench.context.FAMILIES", "bench.FAMILIES"],
)
def test_renamed_attribute_warns_from_the_callers_line(module: object, old: str, new: str) -> None:
    name = getattr(module, "__name__", "")
    with pytest.warns(DeprecationWarning, match=f"{name}.{old} is deprecated") as record:
        value = getattr(module, old)
    assert value is getattr(module, new)
    assert f"renamed {name}.{new}" in str(record[0].message)
    assert record[0].filename == __file__


def test_from_import_of_the_old_pool_name() -> None:
    with pytest.warns(DeprecationWarning, match="EpisodePool"):
        from mle_gym import EnvPool

        assert EnvPool is mle_gym.EpisodePool


def test_unknown_names_still_raise_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'NoSuchThing'"):
        _ = mle_gym.NoSuchThing  # type: ignore[attr-defined]
    assert not hasattr(pool, "NoSuchPool")
    assert "EnvPool" not in mle_gym.__all__


def test_removed_cli_modules_are_gone() -> None:
    for old in ("mle_gym.evaluation.cli", "mle_gym.bench.cli"):
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module(old)


def test_an_aliased_module_keeps_its_own_spec(monkeypatch: pytest.MonkeyPatch) -> None:
    _forget(monkeypatch, "mle_gym.rewards")
    with pytest.warns(DeprecationWarning):
        old = importlib.import_module("mle_gym.rewards")
    assert old.__spec__ is not None and old.__spec__.name == "mle_gym.families.mlebench.rewards"
    assert old.__name__ == "mle_gym.families.mlebench.rewards"


def test_a_submodule_of_a_moved_package_that_is_gone_names_the_new_package() -> None:
    with pytest.raises(ModuleNotFoundError, match=r"mle_gym\.mlbench moved to mle_gym\.families"):
        importlib.import_module("mle_gym.mlbench.no_such_module")


def test_a_moved_module_warns_from_the_importing_line(monkeypatch: pytest.MonkeyPatch) -> None:
    _forget(monkeypatch, "mle_gym.prompts")
    with pytest.warns(DeprecationWarning, match="mle_gym.prompts is deprecated") as record:
        from mle_gym import prompts
    assert record[0].filename == __file__
    from mle_gym.families.mlebench import prompts as new

    assert prompts is new


@pytest.mark.parametrize(
    ("module", "name", "new_module"),
    [
        ("mle_gym.grading", "grade_submission", "mle_gym.families.mlebench.grading"),
        ("mle_gym.grading", "GradeReport", "mle_gym.families.mlebench.grade_report"),
        ("mle_gym.grading", "medals_for", "mle_gym.families.mlebench.leaderboard"),
        ("mle_gym.tasks", "SubmissionSpec", "mle_gym.grading.submission"),
        ("mle_gym.tasks", "Leaderboard", "mle_gym.families.mlebench.task"),
        ("mle_gym.agents.scripted", "generic_solution", "mle_gym.families.mlebench.policy"),
    ],
)
def test_moved_attribute_warns_from_the_callers_line(
    module: str, name: str, new_module: str
) -> None:
    with pytest.warns(DeprecationWarning, match=f"{module}.{name} is deprecated") as record:
        value = getattr(importlib.import_module(module), name)
    assert value is getattr(importlib.import_module(new_module), name)
    assert f"moved to {new_module}.{name}" in str(record[0].message)
    assert record[0].filename == __file__


def test_renamed_schema_models_and_the_old_mlbench_entry_point() -> None:
    from mle_gym import task_schema
    from mle_gym.families import mlbench

    with pytest.warns(DeprecationWarning, match="FamilyTaskFile is deprecated"):
        assert task_schema.FamilyTaskFile is task_schema.TaskFile
    with pytest.warns(DeprecationWarning, match="mlbench.make_env is deprecated"):
        env = mlbench.make_env("MLBench/clusterlab-v0", context="oracle", sandbox="unsafe-local")
    try:
        assert env.family.config.context == "oracle"
    finally:
        env.close()


def test_mlebench_fields_on_another_familys_task_name_their_place() -> None:
    from mle_gym.tasks import get_task

    task = get_task("MLBench/clusterlab-v0")
    with pytest.raises(
        AttributeError,
        match=r"'submission' is a field of mle_gym\.families\.mlebench\.MLEBenchTask",
    ):
        _ = task.submission
    assert not hasattr(task, "leaderboard")


def test_a_moved_package_is_a_proxy_and_its_submodules_move_with_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import mle_gym.families.mlbench as new

    for old in ("mle_gym.mlbench.folders", "mle_gym.mlbench.grade", "mle_gym.mlbench"):
        monkeypatch.delitem(sys.modules, old, raising=False)
    with pytest.warns(DeprecationWarning, match="mle_gym.mlbench is deprecated"):
        package = importlib.import_module("mle_gym.mlbench")
    assert package is not new and package.MLBenchFamily is new.MLBenchFamily
    # a module of the new package that the table does not list moved with it
    with pytest.warns(DeprecationWarning, match="moved to mle_gym.families.mlbench.folders"):
        folders = importlib.import_module("mle_gym.mlbench.folders")
    assert folders is importlib.import_module("mle_gym.families.mlbench.folders")
    with pytest.warns(DeprecationWarning, match="moved to mle_gym.families.mlbench.grading"):
        importlib.import_module("mle_gym.mlbench.grade")
    assert "grade" not in vars(new)  # importing an old name sets nothing on the new package


def test_importlib_import_module_of_an_old_name_warns_at_the_callers_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _forget(monkeypatch, "mle_gym.rewards")
    with pytest.warns(DeprecationWarning, match="mle_gym.rewards is deprecated") as record:
        importlib.import_module("mle_gym.rewards")
    assert record[0].filename == __file__


def test_the_old_templates_package_serves_the_new_files(monkeypatch: pytest.MonkeyPatch) -> None:
    from importlib import resources

    _forget(monkeypatch, "mle_gym.agents.templates")
    with pytest.warns(DeprecationWarning, match="mle_gym.agents.templates is deprecated"):
        text = resources.files("mle_gym.agents.templates").joinpath("tabular_baseline.py")
        assert "submission.csv" in text.read_text()


def test_the_replica_seed_of_before_the_family_options(recwarn: pytest.WarningsRecorder) -> None:
    import gymnasium as gym

    from mle_gym.families import make_family
    from mle_gym.tasks import get_task

    task = get_task("MLEBench/spaceship-titanic-v0")
    with pytest.warns(DeprecationWarning, match=r"make_family\(\.\.\., replica_seed=\.\.\.\)"):
        family = make_family(task, replica_seed=4)
    assert family.replica_seed == 4 and family.opts.replica_seed == 4
    env = gym.make("MLEBench/spaceship-titanic-v0", replica_seed=2, sandbox="unsafe-local")
    try:
        with pytest.warns(DeprecationWarning, match="MLEEnv.replica_seed is deprecated"):
            assert env.unwrapped.replica_seed == 2
    finally:
        env.close()
    # families without replicas ignored the env's former keyword: they still do, warning
    with pytest.warns(DeprecationWarning, match="replica_seed is not an option of the mlbench"):
        env = gym.make("MLBench/clusterlab-v0", replica_seed=0, sandbox="unsafe-local")
    env.close()


def test_mlebench_model_names_of_task_schema_moved() -> None:
    from mle_gym import task_schema
    from mle_gym.families.mlebench import task

    for name in ("MLEBenchTaskFile", "LeaderboardFile", "TargetKind", "MLEBENCH_SOURCES"):
        with pytest.warns(DeprecationWarning, match=f"task_schema.{name} is deprecated"):
            assert getattr(task_schema, name) is getattr(task, name)


def test_the_former_mlbench_module_names_and_removed_helpers() -> None:
    from mle_gym.families import mlbench
    from mle_gym.families.mlbench import family, loader, options, repos
    from mle_gym.tasks import get_task

    assert mlbench.REWARD_MODES is family.REWARD_MODES
    with pytest.warns(DeprecationWarning, match="OPTION_NAMES is deprecated"):
        assert mlbench.OPTION_NAMES is options.OPTION_FIELDS
    for module, name in ((loader, "bundled_dir"), (repos, "bundled_repos_dir")):
        with pytest.raises(AttributeError, match=f"{name} was removed: bundled repositories"):
            getattr(module, name)
    with pytest.warns(DeprecationWarning, match=r"grader_problem\(\) is deprecated"):
        assert get_task("spaceship-titanic").grader_problem() is None
