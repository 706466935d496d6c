"""Pins of ML-Bench's repositories read from its superproject's gitlinks, with real git.

Each test builds, on disk, small "sub-repositories" and a "superproject" whose
``.gitmodules`` and gitlinks (mode 160000 tree entries) point at them, the way
gersteinlab/ML-Bench records its 14 repositories; the resolver reads it over ``file://``
(or a plain path) exactly as it reads GitHub. No network is used.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from mle_gym import cli
from mle_gym.families import make_family
from mle_gym.families.mlbench.pins import (
    DEFAULT_COMMIT,
    ENV_COMMIT,
    ENV_URL,
    KNOWN_REPOSITORIES,
    PinsUnavailable,
    PinTable,
    SubmodulePin,
    Superproject,
    known_repositories,
)
from mle_gym.families.mlbench.prepare import select_pins
from mle_gym.families.mlbench.repos import RepoResolver, RepoUnavailable
from mle_gym.tasks import all_tasks, get_task

GIT_ID = ["-c", "user.email=t@example.org", "-c", "user.name=t"]


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *GIT_ID, *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout.strip()


def make_repo(path: Path, versions: list[str]) -> list[str]:
    """A repository whose ``train.py`` goes through ``versions``; its commits."""
    path.mkdir(parents=True)
    git(path, "init", "-q", "-b", "main")
    commits = []
    for text in versions:
        (path / "train.py").write_text(text)
        git(path, "add", "train.py")
        git(path, "commit", "-q", "-m", text.strip())
        commits.append(git(path, "rev-parse", "HEAD"))
    return commits


@dataclass
class World:
    root: Path
    superproject: Path
    first: str  # superproject commit pinning sub-a at its first commit
    second: str  # the superproject's branch head, pinning sub-a at its second commit
    sub_a: Path
    a_commits: list[str]
    sub_b: Path
    b_commit: str
    dgl: Path
    dgl_commit: str

    @property
    def url(self) -> str:
        return f"file://{self.superproject}"

    def sp(self, ref: str | None = None, **kw: object) -> Superproject:
        return Superproject(url=self.url, ref=ref or self.first, cache=self.root / "pins", **kw)  # type: ignore[arg-type]


def gitmodules(entries: list[tuple[str, str, str]]) -> str:
    return "".join(
        f'[submodule "{name}"]\n\tpath = {path}\n\turl = {url}\n' for name, path, url in entries
    )


@pytest.fixture
def world(tmp_path: Path) -> World:
    """Sub-repositories and a superproject with two commits; sub-a moves on afterwards."""
    a_commits = make_repo(tmp_path / "src" / "sub-a", ["print('a1')\n", "print('a2')\n"])
    (b_commit,) = make_repo(tmp_path / "src" / "sub-b", ["print('b1')\n"])
    (dgl_commit,) = make_repo(tmp_path / "src" / "dgl", ["print('dgl')\n"])
    sup = tmp_path / "ML-Bench"
    sup.mkdir()
    git(sup, "init", "-q", "-b", "main")
    git(sup, "config", "uploadpack.allowFilter", "true")  # as GitHub: blobs on demand
    (sup / ".gitmodules").write_text(
        gitmodules(
            [
                ("repos/sub-a", "repos/sub-a", str(tmp_path / "src" / "sub-a")),
                ("repos/B", "repos/sub-b", "../src/sub-b"),  # relative to the superproject
                ("repos/dgl", "repos/dgl", f"file://{tmp_path / 'src' / 'dgl'}"),
                ("repos/ghost", "repos/ghost", str(tmp_path / "src" / "ghost")),  # no gitlink
                ("elsewhere", "tools/x", str(tmp_path / "src" / "x")),  # outside repos/
            ]
        )
    )
    (sup / "README.md").write_text("superproject\n" * 1000)
    git(sup, "add", ".gitmodules", "README.md")
    for path, sha in (
        ("repos/sub-a", a_commits[0]),
        ("repos/sub-b", b_commit),
        ("repos/dgl", dgl_commit),
        ("repos/orphan", b_commit),  # a gitlink .gitmodules does not describe
    ):
        git(sup, "update-index", "--add", "--cacheinfo", f"160000,{sha},{path}")
    git(sup, "commit", "-q", "-m", "submodules")
    first = git(sup, "rev-parse", "HEAD")
    git(sup, "update-index", "--cacheinfo", f"160000,{a_commits[1]},repos/sub-a")
    git(sup, "commit", "-q", "-m", "bump sub-a")
    second = git(sup, "rev-parse", "HEAD")
    # the sub-repository moves past every pin: a clone of its head would be wrong
    (tmp_path / "src" / "sub-a" / "train.py").write_text("print('a3')\n")
    git(tmp_path / "src" / "sub-a", "commit", "-q", "-am", "a3")
    return World(
        tmp_path,
        sup,
        first,
        second,
        tmp_path / "src" / "sub-a",
        a_commits,
        tmp_path / "src" / "sub-b",
        b_commit,
        tmp_path / "src" / "dgl",
        dgl_commit,
    )


def test_pins_are_read_from_the_gitlinks_at_the_superproject_commit(world: World) -> None:
    table = world.sp().table()
    assert table.commit == world.first and table.superproject == world.url
    by_path = {p.path: p for p in table.pins}
    assert sorted(by_path) == ["repos/dgl", "repos/ghost", "repos/sub-a", "repos/sub-b"]
    assert by_path["repos/sub-a"].commit == world.a_commits[0]  # not sub-a's head, not a2
    assert by_path["repos/sub-b"].commit == world.b_commit
    assert by_path["repos/sub-b"].name == "repos/B"
    assert by_path["repos/sub-b"].url == f"file://{world.sub_b}"
    assert by_path["repos/ghost"].commit is None
    assert table.orphans == ("repos/orphan",)
    # the branch head's table pins the later commit; a ref is resolved to its commit
    head = world.sp("main").table()
    assert head.commit == world.second and head.ref == "main"
    assert head.find(str(world.sub_a)).commit == world.a_commits[1]  # type: ignore[union-attr]
    later = world.sp(world.second).table()
    assert later.find("sub-a").commit == world.a_commits[1]  # type: ignore[union-attr]


def test_the_table_is_cached_atomically_and_used_offline(world: World) -> None:
    sp = world.sp()
    table = sp.table()
    path = sp.cache_file()
    assert path == world.root / "pins" / f"commit-{world.first}.json"
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temp leftovers
    data = json.loads(path.read_text())
    assert data["commit"] == world.first and len(data["submodules"]) == 4
    assert PinTable.from_json(data) == table
    shutil.rmtree(world.superproject)  # offline from now on
    assert sp.table(fetch=False) == table
    # a local clone of ML-Bench at the same commit shares the cache (the key is the commit)
    assert Superproject(url="/elsewhere/ML-Bench", ref=world.first, cache=sp.cache).cached()
    with pytest.raises(PinsUnavailable, match=r"git fetch` of .* failed"):
        sp.table(refresh=True)
    assert sp.table(fetch=False) == table  # a failed refresh leaves the cache intact
    path.write_text('{"format": 1, "commit": "x"')  # corrupt
    with pytest.raises(PinsUnavailable, match=r"not cached .* fetching is disabled"):
        sp.table(fetch=False)


def test_corrupt_or_foreign_cache_is_replaced_by_a_fresh_fetch(world: World) -> None:
    sp = world.sp()
    path = sp.cache_file()
    path.parent.mkdir(parents=True)
    other = world.sp(world.second).table().to_json()
    path.write_text(json.dumps(other))  # a table of another commit under this name
    assert sp.cached() is None
    assert sp.table().commit == world.first
    assert json.loads(path.read_text())["commit"] == world.first
    for bad, message in [
        ({**other, "format": 2}, "format 1"),
        ({**other, "commit": "main"}, "full commit hash"),
        (
            {**other, "submodules": [{"name": "x", "path": "repos/x", "url": "u", "commit": 5}]},
            "bad commit",
        ),
        ({**other, "submodules": [{"name": "x"}]}, "missing or malformed"),
    ]:
        with pytest.raises(ValueError, match=message):
            PinTable.from_json(bad)


def test_clone_lands_at_the_pinned_commit_then_comes_from_the_cache(world: World) -> None:
    cache = world.root / "repos-cache"
    resolver = RepoResolver(superproject=world.sp(), cache=cache)
    # an example's URL as ML-Bench writes it: the clone comes from the .gitmodules URL
    co = resolver.resolve("https://github.com/someone/Sub-A")
    assert co.origin == "clone" and co.commit == world.a_commits[0]
    assert git(co.path, "rev-parse", "HEAD") == world.a_commits[0]
    assert git(world.sub_a, "rev-parse", "HEAD") not in (world.a_commits[0], world.a_commits[1])
    assert (co.path / "train.py").read_text() == "print('a1')\n"
    assert co.path == cache / f"Sub-A@{world.a_commits[0]}"
    b = resolver.resolve(str(world.sub_b))  # by name: the submodule URL is file://...
    assert b.commit == world.b_commit and (b.path / "train.py").read_text() == "print('b1')\n"
    assert sorted(p.name for p in cache.iterdir()) == sorted([co.path.name, b.path.name])
    # offline, without cloning: the cached pin table finds the cached checkout (any case)
    shutil.rmtree(world.superproject)
    again = RepoResolver(superproject=world.sp(), cache=cache, clone=False)
    found = again.resolve("https://github.com/other/sub-a")
    assert found.origin == "cache" and found.path == co.path
    # an explicit pin still wins over the superproject's
    explicit = RepoResolver(
        pins={"sub-a": world.a_commits[1]}, superproject=world.sp(), cache=cache
    )
    moved = explicit.resolve(str(world.sub_a))
    assert moved.commit == world.a_commits[1]
    assert (moved.path / "train.py").read_text() == "print('a2')\n"


def test_unreachable_superproject_says_what_was_tried(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = Superproject(url=str(world.root / "nowhere"), ref=world.first, cache=world.root / "p")
    resolver = RepoResolver(superproject=missing, cache=world.root / "c")
    with pytest.raises(RepoUnavailable) as info:
        resolver.resolve(str(world.sub_a))
    text = str(info.value)
    assert "no pin from the superproject" in text and "`git fetch` of" in text
    assert "no commit is pinned for it" in text
    assert "repos={'sub-a': '/path/to/checkout'}" in text and "pins={'sub-a'" in text
    # the failure is remembered: the next repository does not fetch again
    calls: list[bool] = []
    original = Superproject.fetch
    monkeypatch.setattr(Superproject, "fetch", lambda self: calls.append(True) or original(self))
    with pytest.raises(RepoUnavailable, match="no pin from the superproject"):
        resolver.resolve(str(world.sub_b))
    assert calls == []
    assert not (world.root / "c").exists() or not any((world.root / "c").iterdir())
    # ML-Bench's own superproject, offline and without cloning: no network, clear message
    default = RepoResolver(cache=world.root / "c", clone=False)
    assert default.superproject is not None and default.superproject.ref == DEFAULT_COMMIT
    with pytest.raises(RepoUnavailable) as info:
        default.resolve("https://github.com/dmlc/dgl")
    text = str(info.value)
    assert "gersteinlab/ML-Bench" in text and "not cached" in text
    assert "fetching is disabled" in text and "cloning is disabled" in text
    # a commit the superproject does not have
    with pytest.raises(PinsUnavailable, match=r"`git fetch` of .* at 0{40} failed"):
        world.sp("0" * 40).table()


def test_submodule_missing_from_the_superproject(world: World) -> None:
    resolver = RepoResolver(superproject=world.sp(), cache=world.root / "c")
    with pytest.raises(RepoUnavailable) as info:
        resolver.resolve("https://github.com/x/unknown")
    text = str(info.value)
    assert "has no submodule for it (dgl, ghost, sub-a, sub-b)" in text
    assert "no commit is pinned" in text
    with pytest.raises(RepoUnavailable, match=r"lists submodule repos/ghost in .gitmodules but"):
        resolver.resolve("https://github.com/x/ghost")
    # ML-Bench's default superproject is not consulted for repositories it does not use
    plain = RepoResolver(cache=world.root / "c", clone=False)
    with pytest.raises(RepoUnavailable) as info:
        plain.resolve("https://github.com/x/unknown")
    assert "superproject" not in str(info.value)


def test_pinned_commit_missing_from_the_clone(world: World) -> None:
    bad = world.root / "bad-super"
    bad.mkdir()
    git(bad, "init", "-q", "-b", "main")
    (bad / ".gitmodules").write_text(gitmodules([("a", "repos/sub-a", str(world.sub_a))]))
    git(bad, "add", ".gitmodules")
    # a commit of sub-b, which sub-a's repository does not contain
    git(bad, "update-index", "--add", "--cacheinfo", f"160000,{world.b_commit},repos/sub-a")
    git(bad, "commit", "-q", "-m", "bad pin")
    sp = Superproject(url=str(bad), ref="main", cache=world.root / "p")
    cache = world.root / "c"
    with pytest.raises(RepoUnavailable) as info:
        RepoResolver(superproject=sp, cache=cache).resolve(str(world.sub_a))
    text = str(info.value)
    assert f"pinned at {world.b_commit[:12]} by the superproject {bad}" in text
    assert "`git fetch` failed" in text
    assert not any(cache.iterdir())  # the failed clone left nothing


def test_superproject_without_gitlinks_or_gitmodules(tmp_path: Path) -> None:
    repo = tmp_path / "flat"
    make_repo(repo, ["x\n"])
    with pytest.raises(PinsUnavailable, match=r"no submodule commits \(gitlinks\) under repos/"):
        Superproject(url=str(repo), ref="main", cache=tmp_path / "p").table()
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{'1' * 40},repos/x")
    git(repo, "commit", "-q", "-m", "gitlink only")
    with pytest.raises(PinsUnavailable, match=r"has no readable .gitmodules"):
        Superproject(url=str(repo), ref="main", cache=tmp_path / "p").table()
    assert not any((tmp_path / "p").iterdir())  # nothing cached, no fetch folder left
    for bad in ("--upload-pack=x", "a b", "../x", ""):
        with pytest.raises(ValueError, match="not a commit or ref name"):
            Superproject(url=str(repo), ref=bad)
    with pytest.raises(ValueError, match="not a git URL"):
        Superproject(url="--upload-pack=touch")


def test_environment_overrides(monkeypatch: pytest.MonkeyPatch, world: World) -> None:
    monkeypatch.delenv(ENV_URL, raising=False)
    monkeypatch.delenv(ENV_COMMIT, raising=False)
    default = Superproject.from_environment()
    assert default.ref == DEFAULT_COMMIT and default.only == KNOWN_REPOSITORIES
    assert default.covers("https://github.com/salesforce/lavis")
    assert not default.covers("https://github.com/x/y")
    monkeypatch.setenv(ENV_COMMIT, world.first)
    assert Superproject.from_environment().ref == world.first
    monkeypatch.setenv(ENV_URL, str(world.superproject))
    mine = Superproject.from_environment(cache=world.root / "p")
    assert mine.only is None and mine.covers("https://github.com/x/y")
    assert mine.table().find("dgl").commit == world.dgl_commit  # type: ignore[union-attr]


def _known_table() -> PinTable:
    folders = {"IF": "if", "LAVIS": "lavis"}
    pins = []
    for url in KNOWN_REPOSITORIES:
        name = url.rsplit("/", 1)[1].removesuffix(".git")
        folder = folders.get(name, name)
        pins.append(SubmodulePin(f"repos/{folder}", f"repos/{folder}", url, "a" * 40))
    return PinTable("https://github.com/gersteinlab/ML-Bench.git", "x", "a" * 40, tuple(pins))


def test_every_real_mlbench_task_names_one_submodule() -> None:
    table = _known_table()
    real = [
        t
        for t in all_tasks().values()
        if t.family == "mlbench" and t.raw["mlbench"].get("github_id")
    ]
    assert len(real) == 14
    chosen = {t.id: select_pins(table, [t.id]) for t in real}
    assert all(len(p) == 1 for p in chosen.values()), chosen
    assert len({p[0].url for p in chosen.values()}) == 14
    assert chosen["deepfloyd-if"][0].folder == "if"
    assert chosen["open-clip"][0].url.endswith("/open_clip.git")
    assert select_pins(table, []) == list(table.pins)
    with pytest.raises(ValueError, match=r"no submodule .* named 'nope' \(submodules: .*\bdgl\b"):
        select_pins(table, ["nope"])
    # dataset URLs find their submodule whatever their case or suffix
    assert table.find("https://github.com/salesforce/lavis").folder == "lavis"  # type: ignore[union-attr]
    assert table.find("https://github.com/deep-floyd/IF/").folder == "if"  # type: ignore[union-attr]


def test_the_known_repositories_are_the_ones_task_folders_declare(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    real = [t for t in all_tasks().values() if t.family == "mlbench" and t.config.github_id]
    declared = {t.repository for t in real}  # type: ignore[attr-defined]
    assert None not in declared and len(declared) == 14
    assert set(KNOWN_REPOSITORIES) == declared == set(known_repositories())
    monkeypatch.delenv(ENV_URL, raising=False)
    extra = "https://example.org/lab/newrepo.git"
    assert not Superproject.from_environment().covers(extra)
    # one more folder on $MLE_GYM_TASKS_PATH declaring its URL: consulted for it too
    root = tmp_path / "root"
    _task_folder(root, "newrepo", f"mlbench:\n  repository: {extra}\n")
    # declaring nothing: a folder the index rejects (its id is not its folder's name), one
    # the family rejects (an unknown key), and a second folder of a task (dgl's)
    rejected = ["https://example.org/lab/misnamed.git", "https://example.org/lab/bad.git"]
    _task_folder(root, "misnamed", f"mlbench:\n  repository: {rejected[0]}\n", task_id="x")
    _task_folder(root, "bad", f"mlbench:\n  repository: {rejected[1]}\n  oops: 1\n")
    _task_folder(root, "dgl", "mlbench:\n  repository: https://example.org/lab/dgl2.git\n")
    monkeypatch.setenv("MLE_GYM_TASKS_PATH", str(root))
    assert known_repositories()[-1] == extra and len(known_repositories()) == 15
    assert not set(rejected) & set(known_repositories())
    assert "https://github.com/dmlc/dgl.git" in known_repositories()
    assert Superproject.from_environment().covers(extra)
    assert not Superproject.from_environment().covers("https://example.org/lab/other")


def _task_folder(root: Path, name: str, block: str, task_id: str | None = None) -> Path:
    """A task folder ``<root>/mlbench/<name>/`` of the mlbench family with ``block``."""
    folder = root / "mlbench" / name
    folder.mkdir(parents=True)
    (folder / "description.md").write_text(f"{name}\n")
    (folder / "task.yaml").write_text(
        f"id: {task_id or name}\nbenchmark: MLBench\nmetric: pass\n{block}"
    )
    return folder


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, world: World) -> Path:
    for var in (ENV_URL, "MLE_GYM_MLBENCH_SOURCE", "MLE_GYM_MLBENCH_REPOS"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("MLE_GYM_HOME", str(tmp_path / "home"))
    monkeypatch.setenv(ENV_COMMIT, world.first)
    return tmp_path / "home"


def test_prepare_clones_a_task_repository_for_later_offline_episodes(
    home: Path, world: World, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["prepare", "MLBench/dgl-v0", "--from", str(world.superproject)]) == 0
    out = capsys.readouterr().out
    assert f"dgl: clone at {world.dgl_commit}" in out and "sub-a" not in out
    assert (home / "mlbench" / "pins" / f"commit-{world.first}.json").is_file()
    shutil.rmtree(world.superproject)
    # an env's resolver (ML-Bench's default superproject, no network) finds it by the
    # dataset's URL through the cached pins
    co = RepoResolver(clone=False).resolve("https://github.com/dmlc/dgl")
    assert co.origin == "cache" and co.commit == world.dgl_commit
    assert (co.path / "train.py").read_text() == "print('dgl')\n"
    assert cli.main(["prepare", "MLBench/dgl-v0"]) == 0  # cached pins and checkout
    assert f"dgl: cache at {world.dgl_commit}" in capsys.readouterr().out


def test_prepare_fetches_the_repository_a_task_declares(
    home: Path,
    world: World,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A one-repository task is prepared by the URL its task.yaml declares, whatever its
    id (no submodule is named like this one's)."""
    url = f"file://{world.root / 'src' / 'dgl'}"
    _task_folder(
        tmp_path / "root",
        "graph-task",
        f"mlbench:\n  source: hf\n  github_id: 99\n  repository: {url}\n",
    )
    monkeypatch.setenv("MLE_GYM_TASKS_PATH", str(tmp_path / "root"))
    assert get_task("MLBench/graph-task-v0").repository == url  # type: ignore[attr-defined]
    code = cli.main(["prepare", "MLBench/graph-task-v0", "--from", str(world.superproject)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert f"dgl: clone at {world.dgl_commit}" in out and "sub-a" not in out


def test_prepare_everything_reports_each_failure(
    home: Path, world: World, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert cli.main(["prepare", "MLBench/ml-bench-v0", "--from", str(world.superproject)]) == 2
    err = capsys.readouterr().err
    assert "1 of 4 repositories could not be prepared" in err
    assert "lists submodule repos/ghost in .gitmodules" in err
    for name in ("dgl", "sub-a", "sub-b"):
        assert f"{name}: clone at" in err
    clones = sorted(p.name.split("@")[0] for p in (home / "mlbench" / "repos").iterdir())
    assert clones == ["dgl", "sub-a", "sub-b"]
    # no pins cached for this commit and the superproject unreachable: says what to do
    monkeypatch.setenv(ENV_COMMIT, world.second)
    shutil.rmtree(world.superproject)
    assert cli.main(["prepare", "MLBench/dgl-v0", "--from", str(world.superproject)]) == 2
    err = capsys.readouterr().err
    assert "could not be read" in err and "--from /path/to/ML-Bench" in err
    assert "repos=" in err and "pins=" in err
    assert cli.main(["prepare", "MLBench/dgl-v0", "--replica"]) == 2
    assert "no 'replica' data" in capsys.readouterr().err


def test_prepare_of_a_shipped_task_fetches_nothing(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["prepare", "MLBench/tabkit-v0"]) == 0
    assert "tabkit: shipped with mle_gym, nothing to fetch" in capsys.readouterr().out
    assert not (home / "mlbench").exists()


def test_the_env_option_chooses_the_superproject(world: World) -> None:
    task = get_task("MLBench/dgl-v0")
    assert make_family(task, {"superproject": False}).resolver().superproject is None
    mine = world.sp()
    family = make_family(task, {"superproject": mine, "clone": False})
    assert family.resolver().superproject == mine
    with pytest.raises(ValueError, match="superproject must be a Superproject or a bool"):
        make_family(task, {"superproject": "yes"}).resolver()
