"""The family layout: every family is one package with the same parts, the core loads and names
none of them, and every family's options reach it as ``gym.make`` keywords through one entry
point."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import pytest

import mle_gym
from mle_gym.families import FAMILIES, family_class
from mle_gym.registration import ENTRY_POINT
from mle_gym.tasks import TaskError, get_task, task_index

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "mle_gym"
#: the parts every family package has (mle_gym/families/__init__.py documents them)
LAYOUT = ("family", "task", "options", "prepare", "grading", "prompts", "policy")
FAMILY_PACKAGES = tuple(
    sorted(target.split(":")[0].rsplit(".", 1)[0] for target in FAMILIES.values())
)


def _modules_after(code: str, prefix: str = "mle_gym") -> list[str]:
    """The modules named ``prefix...`` loaded by ``code`` in a fresh interpreter."""
    program = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=120, check=True
    )
    return [m for m in json.loads(done.stdout.splitlines()[-1]) if m.startswith(prefix)]


def test_import_mle_gym_loads_no_family_and_no_schema_library() -> None:
    loaded = _modules_after("import mle_gym")
    assert not [m for m in loaded if any(m.startswith(p) for p in FAMILY_PACKAGES)], loaded
    assert "mle_gym.families.base" not in loaded and "mle_gym.task_schema" not in loaded
    assert "mle_gym.tasks" in loaded  # the index that registration reads
    assert _modules_after("import mle_gym", prefix="pydantic") == []


def test_a_task_loads_its_own_family_only() -> None:
    loaded = _modules_after("import mle_gym.tasks as t; t.get_task('spaceship-titanic')")
    families = {p for p in FAMILY_PACKAGES if any(m.startswith(p + ".") for m in loaded)}
    assert families == {"mle_gym.families.mlebench"}
    loaded = _modules_after("import mle_gym.tasks as t; t.get_task('MLBench/clusterlab-v0')")
    families = {p for p in FAMILY_PACKAGES if any(m.startswith(p + ".") for m in loaded)}
    assert families == {"mle_gym.families.mlbench"}


@pytest.mark.parametrize("package", FAMILY_PACKAGES)
def test_every_family_package_has_the_same_parts(package: str) -> None:
    folder = PACKAGE.joinpath(*package.split(".")[1:])
    missing = [part for part in LAYOUT if not (folder / f"{part}.py").is_file()]
    assert missing == [], f"{package} lacks {missing}"


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_every_family_declares_its_models_and_options(name: str) -> None:
    cls = family_class(name)
    assert cls.name == name
    assert cls.task_file.__module__.endswith(".task"), cls.task_file
    assert cls.options_model.__module__.endswith(".options"), cls.options_model
    assert cls.option_names() == tuple(cls.options_model.model_fields)


def test_every_task_is_registered_through_the_one_entry_point() -> None:
    ids = mle_gym.register_all()
    assert len(ids) == len(task_index()) > 100
    entry_points = {gym.registry[env_id].entry_point for env_id in ids}
    assert entry_points == {ENTRY_POINT}


@pytest.mark.parametrize(
    ("env_id", "options", "attribute", "expected"),
    [
        ("MLEBench/spaceship-titanic-v0", {"replica_seed": 3}, "replica_seed", 3),
        ("MLAgentBench/house-price-v0", {"rerun": True}, "rerun", True),
        ("MLBench/clusterlab-v0", {"context": "oracle"}, "config.context", "oracle"),
    ],
)
def test_each_family_takes_its_options_as_gym_make_keywords(
    env_id: str, options: dict[str, object], attribute: str, expected: object
) -> None:
    env = gym.make(env_id, sandbox="unsafe-local", **options)
    try:
        value: object = env.unwrapped.family
        for part in attribute.split("."):
            value = getattr(value, part)
        assert value == expected
        assert env.unwrapped.family.options == options
    finally:
        env.close()


def test_a_misspelt_keyword_names_what_the_env_and_the_family_take() -> None:
    with pytest.raises(TypeError, match=r"unexpected keyword argument\(s\) \['replica_sed'\]") as e:
        gym.make("MLEBench/spaceship-titanic-v0", replica_sed=1, sandbox="unsafe-local")
    assert "the env takes data, sandbox" in str(e.value)
    assert "its family (mlebench) takes replica_seed" in str(e.value)
    with pytest.raises(ValueError, match="both as keywords and in family_options"):
        gym.make(
            "MLEBench/spaceship-titanic-v0",
            replica_seed=1,
            family_options={"replica_seed": 2},
            sandbox="unsafe-local",
        )
    with pytest.raises(ValueError, match=r"replica_seed: Input should be a valid integer"):
        gym.make("MLEBench/spaceship-titanic-v0", replica_seed="one", sandbox="unsafe-local")


def test_core_modules_name_no_family() -> None:
    """The core (spec, discovery, registry, env, spaces, tools, sandbox, family contract)
    has no family's name in its code: what differs is a hook."""
    core = [
        "task_spec.py",
        "task_folders.py",
        "tasks.py",
        "task_schema.py",
        "registration.py",
        "env.py",
        "spaces.py",
        "pool.py",
        "families/base.py",
        "families/toolsets.py",
        "families/workdir.py",
        *[str(p.relative_to(PACKAGE)) for p in (PACKAGE / "tools").glob("*.py")],
        *[str(p.relative_to(PACKAGE)) for p in (PACKAGE / "sandbox").glob("*.py")],
    ]
    names = ("mlebench", "mlagentbench", "mlbench", "ml-bench")
    found = []
    for rel in core:
        code = _code_without_strings_and_comments((PACKAGE / rel).read_text())
        found += [f"{rel}: {n}" for n in names if n in code.lower()]
    assert found == []


def _code_without_strings_and_comments(source: str) -> str:
    """The names of a module's code (docstrings, strings and comments dropped)."""
    import io
    import tokenize

    kept = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in (tokenize.NAME, tokenize.OP, tokenize.NUMBER):
            kept.append(tok.string)
    return " ".join(kept)


def test_an_unknown_family_and_a_family_that_rejects_its_folder_say_why(tmp_path: Path) -> None:
    from mle_gym.tasks import load_task

    folder = tmp_path / "x" / "odd"
    folder.mkdir(parents=True)
    (folder / "description.md").write_text("x\n")
    (folder / "task.yaml").write_text("id: odd\nbenchmark: MLEBench\nmetric: accuracy\n")
    with pytest.raises(TaskError, match=r"odd/task.yaml: .*missing required field 'submission'"):
        load_task(folder)
    (folder / "task.yaml").write_text("id: odd\nbenchmark: X\nfamily: nope\nmetric: m\n")
    with pytest.raises(TaskError, match="unknown task family 'nope'"):
        load_task(folder)


def test_a_broken_folder_is_registered_but_make_says_what_is_wrong(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import mle_gym.tasks as tasks

    root = tmp_path / "tasks"
    folder = root / "mlebench" / "broken-task"
    folder.mkdir(parents=True)
    (folder / "description.md").write_text("x\n")
    (folder / "task.yaml").write_text("id: broken-task\nbenchmark: MLEBench\nmetric: accuracy\n")
    monkeypatch.setenv("MLE_GYM_TASKS_PATH", str(root))
    try:
        assert "MLEBench/broken-task-v0" in mle_gym.register_all()
        with pytest.raises(TaskError, match="missing required field 'submission'"):
            get_task("MLEBench/broken-task-v0")
        assert any("broken-task" in e for e in tasks.task_errors())
        assert "mlebench/broken-task" not in tasks.all_tasks()
    finally:
        gym.registry.pop("MLEBench/broken-task-v0", None)
        monkeypatch.delenv("MLE_GYM_TASKS_PATH")
        tasks.clear_caches()


@pytest.mark.slow
@pytest.mark.parametrize("env_id", ["MLAgentBench/vectorization-v0", "MLBench/clusterlab-v0"])
def test_code_around_the_env_takes_any_familys_task(env_id: str, tmp_path: Path) -> None:
    """The random agent, the eval snapshot and the macro wrapper on tasks without MLE-bench's
    CSV submission: they work, or (the macro wrapper, which needs one) refuse clearly."""
    from mle_gym.agents import make_agent
    from mle_gym.evaluation.snapshot import snapshot_env
    from mle_gym.wrappers.macro import MacroActionWrapper

    env = gym.make(env_id, sandbox="local")
    try:
        obs, info = env.reset(seed=0)
        agent = make_agent("random", seed=0)
        agent.reset({**info, "task": env.unwrapped.task, "observation": obs})
        for _ in range(3):
            obs, _, terminated, _, info = env.step(agent.act(obs, info))
            if terminated:
                break
        submitted = env.unwrapped.submission_path
        assert submitted is not None and submitted.startswith("/workspace/")
        name = submitted.removeprefix("/workspace/")
        (env.unwrapped.workspace / name).parent.mkdir(parents=True, exist_ok=True)
        (env.unwrapped.workspace / name).write_text("x\n")
        snap = snapshot_env(env, tmp_path / "final")
        assert snap is not None and name in [f["path"] for f in snap.copied]
        with pytest.raises(TypeError, match="needs a task graded on a CSV submission"):
            MacroActionWrapper(env)
    finally:
        env.close()


MINIMAL_FAMILY = """
from mle_gym.families.base import TaskFamily


class Grade:
    def __init__(self, valid, score):
        self.valid, self.score = valid, score

    def to_dict(self):
        return {"valid": self.valid, "score": self.score}


class Minimal(TaskFamily):
    name = "minimal"

    def resolve_data(self, data, options):
        return None

    def observation(self, episode, listing, tools, max_steps, limits):
        return "write submission.csv\\n" + listing

    def grade(self, episode):
        path = episode.workspace / "submission.csv"
        return Grade(path.is_file(), 1.0 if path.is_file() else None)

    def reward(self, grade, mode, data_source):
        return float(grade["score"] or 0.0)

    def end_summary(self, grade, reward, reason):
        return f"reward {reward}"
"""


def test_a_family_with_only_the_abstract_hooks_runs_episodes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A third-party family gets working defaults for every other hook (the default
    submission file included), through gym.make and the catalog."""
    from mle_gym.tasks import clear_caches, load_task

    (tmp_path / "minimal_family.py").write_text(MINIMAL_FAMILY)
    monkeypatch.syspath_prepend(str(tmp_path))
    folder = tmp_path / "tasks" / "custom" / "hello"
    folder.mkdir(parents=True)
    (folder / "description.md").write_text("Say hello.\n")
    (folder / "task.yaml").write_text(
        "id: hello\nbenchmark: Custom\nfamily: minimal_family:Minimal\nmetric: m\ndata: [replica]\n"
    )
    with pytest.raises(TaskError, match=r"data: must be a mapping of data sources, got list"):
        load_task(folder)
    (folder / "task.yaml").write_text(
        "id: hello\nbenchmark: Custom\nfamily: minimal_family:Minimal\nmetric: m\n"
    )
    monkeypatch.setenv("MLE_GYM_TASKS_PATH", str(tmp_path / "tasks"))
    clear_caches()
    try:
        assert "Custom/hello-v0" in mle_gym.register_all()
        env = gym.make("Custom/hello-v0", sandbox="local")
        try:
            obs, _ = env.reset(seed=0)
            assert obs.startswith("write submission.csv")
            assert env.unwrapped.submission_path == "/workspace/submission.csv"
            env.step({"tool": "write_file", "args": {"path": "submission.csv", "content": "hi"}})
            _, reward, terminated, _, info = env.step({"tool": "submit", "args": {}})
            assert terminated and reward == 1.0 and info["grade"]["valid"]
        finally:
            env.close()
    finally:
        gym.registry.pop("Custom/hello-v0", None)
        clear_caches()


def test_import_of_the_family_registry_loads_no_family() -> None:
    loaded = _modules_after("import mle_gym.families")
    assert not [m for m in loaded if any(m.startswith(p) for p in FAMILY_PACKAGES)], loaded
