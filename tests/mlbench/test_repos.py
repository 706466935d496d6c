"""Repository resolution: bundled, local checkouts, the cache, and real git clones at a
pinned commit (from a git repository on disk, so no network is needed)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from mle_gym.families.mlbench.repos import RepoResolver, RepoUnavailable, bundled_repo_names

URL = "https://github.com/example/toyrepo"


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout.strip()


@pytest.fixture
def origin(tmp_path: Path) -> tuple[Path, str, str]:
    """A git repository with two commits: (path, first commit, second commit)."""
    repo = tmp_path / "origin" / "toyrepo"
    repo.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.email", "t@example.org")
    git(repo, "config", "user.name", "t")
    (repo / "train.py").write_text("print('version 1')\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "one")
    first = git(repo, "rev-parse", "HEAD")
    (repo / "train.py").write_text("print('version 2')\n")
    git(repo, "commit", "-q", "-am", "two")
    return repo, first, git(repo, "rev-parse", "HEAD")


def test_bundled_repositories_resolve() -> None:
    names = bundled_repo_names()
    assert {"tabkit", "regkit", "clusterlab"} <= set(names)
    co = RepoResolver(clone=False).resolve("mle-gym://tabkit")
    assert co.origin == "bundled" and (co.path / "README.md").is_file()
    with pytest.raises(RepoUnavailable, match=r"no repository 'nope' is shipped.*tabkit"):
        RepoResolver().resolve("mle-gym://nope")


def test_local_checkouts_by_name_url_or_folder(tmp_path: Path) -> None:
    (tmp_path / "repos" / "toyrepo").mkdir(parents=True)
    by_name = RepoResolver({"toyrepo": tmp_path / "repos" / "toyrepo"}, clone=False)
    assert by_name.resolve(URL).origin == "local"
    by_url = RepoResolver({URL + ".git": str(tmp_path / "repos" / "toyrepo")}, clone=False)
    assert by_url.resolve(URL).path == tmp_path / "repos" / "toyrepo"
    by_folder = RepoResolver(tmp_path / "repos", clone=False)
    assert by_folder.resolve(URL + ".git").path == tmp_path / "repos" / "toyrepo"
    (tmp_path / "repos" / "if").mkdir()  # ML-Bench's folder name for deep-floyd/IF
    assert by_folder.resolve("https://github.com/deep-floyd/IF").path.name == "if"
    with pytest.raises(RepoUnavailable, match=r"local checkout given for toyrepo .* does not"):
        RepoResolver({"toyrepo": tmp_path / "missing"}).resolve(URL)
    with pytest.raises(RepoUnavailable, match=r"repositories folder .* does not exist"):
        RepoResolver(tmp_path / "absent")


def test_nothing_available_says_what_was_tried(tmp_path: Path) -> None:
    resolver = RepoResolver(tmp_path, clone=False, cache=tmp_path / "cache")
    with pytest.raises(RepoUnavailable) as info:
        resolver.resolve(URL)
    text = str(info.value)
    assert "toyrepo" in text and f"no folder {tmp_path / 'toyrepo'}" in text
    assert "not in the cache" in text and "cloning is disabled" in text
    assert "repos={'toyrepo': '/path/to/checkout'}" in text
    unpinned = RepoResolver(cache=tmp_path / "cache")
    with pytest.raises(RepoUnavailable, match=r"no commit is pinned.*allow_unpinned=True"):
        unpinned.resolve(URL)
    with pytest.raises(ValueError, match=r"not a commit hash"):
        RepoResolver(pins={URL: "main"})


def test_clone_at_the_pinned_commit_then_reuse_the_cache(
    tmp_path: Path, origin: tuple[Path, str, str]
) -> None:
    repo, first, _ = origin
    cache = tmp_path / "cache"
    resolver = RepoResolver(pins={str(repo): first}, cache=cache)
    co = resolver.resolve(str(repo))
    assert co.origin == "clone" and co.commit == first
    assert co.path == cache / f"toyrepo@{first}"
    assert (co.path / "train.py").read_text() == "print('version 1')\n"
    assert git(co.path, "rev-parse", "HEAD") == first
    assert [p.name for p in cache.iterdir()] == [f"toyrepo@{first}"]  # no temp leftovers
    again = RepoResolver(pins={"toyrepo": first[:12]}, cache=cache, clone=False).resolve(str(repo))
    assert again.origin == "cache" and again.path == co.path


def test_unpinned_clone_only_when_allowed(tmp_path: Path, origin: tuple[Path, str, str]) -> None:
    repo, _, second = origin
    co = RepoResolver(cache=tmp_path / "c", allow_unpinned=True).resolve(str(repo))
    assert co.commit == second and (co.path / "train.py").read_text() == "print('version 2')\n"


def test_failed_clone_is_reported(tmp_path: Path, origin: tuple[Path, str, str]) -> None:
    repo, first, _ = origin
    bad_pin = "0" * 40
    with pytest.raises(RepoUnavailable, match=r"toyrepo .* is not available: .*git .* failed"):
        RepoResolver(pins={str(repo): bad_pin}, cache=tmp_path / "c").resolve(str(repo))
    missing = tmp_path / "no-such-repo"
    with pytest.raises(RepoUnavailable, match=r"`git clone` failed"):
        RepoResolver(pins={str(missing): first}, cache=tmp_path / "c").resolve(str(missing))
    assert not any((tmp_path / "c").iterdir())  # failed clones leave nothing behind


def test_with_superproject_keeps_every_other_setting(tmp_path: Path) -> None:
    """What ``mle-gym prepare --from`` uses: the env's own resolver, pins read elsewhere."""
    from mle_gym.families.mlbench.pins import Superproject

    (tmp_path / "repos" / "toyrepo").mkdir(parents=True)
    mine = Superproject(url=str(tmp_path / "ML-Bench"), ref="main")
    first = RepoResolver(
        {"toyrepo": tmp_path / "repos" / "toyrepo"},
        pins={"other": "abc1234"},
        clone=False,
        allow_unpinned=True,
        cache=tmp_path / "cache",
        superproject=False,
    )
    second = first.with_superproject(mine)
    assert second.superproject == mine and first.superproject is None
    assert second.pin("https://example.org/x/other") == "abc1234"
    assert (second.clone_allowed, second.allow_unpinned) == (False, True)
    assert second.cache == tmp_path / "cache"
    assert second.resolve(URL).path == tmp_path / "repos" / "toyrepo"
    assert first.with_superproject(False).superproject is None
    with pytest.raises(ValueError, match="superproject must be a Superproject or a bool"):
        first.with_superproject("yes")  # type: ignore[arg-type]
