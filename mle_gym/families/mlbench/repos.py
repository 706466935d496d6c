"""Finding the repository an ML-Bench example runs in.

:class:`RepoResolver` maps an example's ``github`` URL to a checkout on this host, in
this order:

1. ``mle-gym://<name>``: a bundled repository, the ``repository/`` folder of the task
   folder ``<task root>/mlbench/<name>/`` of the task ``<name>``, in the built-in
   ``task_assets`` or a folder of ``$MLE_GYM_TASKS_PATH``
   (:func:`~mle_gym.families.mlbench.folders.discover_bundled`; a broken one raises its
   own :class:`~mle_gym.families.mlbench.folders.MLBenchDataError`);
2. a local checkout given by the user: ``local={"dgl": "/src/dgl", ...}`` (keys are
   repository names or URLs), or a folder holding one checkout per repository name
   (e.g. ML-Bench's own ``repos/`` folder of submodules);
3. the cache, ``$MLE_GYM_HOME/mlbench/repos/<name>@<commit>``;
4. a clone at the pinned commit, when cloning is allowed: ``git clone`` into a
   temporary folder, ``git checkout --detach <commit>``, then an atomic rename into the
   cache. The pin is ``pins={url_or_name: commit}`` if given, else the gitlink of the
   repository in ML-Bench's own git repository (:mod:`mle_gym.families.mlbench.pins`: read once
   at a fixed ML-Bench commit, then cached), and then the clone is made from the URL
   ML-Bench's ``.gitmodules`` gives. Without a pin the clone is refused unless
   ``allow_unpinned=True`` (then the default branch's head is used and its commit is
   recorded in the cache folder's name).

When none of these gives a checkout, :class:`RepoUnavailable` says which were tried
and how to provide one.
"""

from __future__ import annotations

import copy
import logging
import os
import re
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from mle_gym import paths
from mle_gym._deprecation import removed_names
from mle_gym.errors import SetupError
from mle_gym.families.mlbench.folders import BUNDLED_SCHEME, discover_bundled
from mle_gym.families.mlbench.pins import (
    PinsUnavailable,
    PinTable,
    SubmodulePin,
    Superproject,
    run_git,
    url_key,
)
from mle_gym.families.mlbench.schema import repo_name_of
from mle_gym.families.mlbench.task import LocalRepos

log = logging.getLogger(__name__)

CLONE_TIMEOUT_S = 1800.0
_COMMIT = re.compile(r"^[0-9a-f]{7,40}$")


class RepoUnavailable(SetupError):
    """No checkout of a repository can be found or made; the message says how to fix it."""


@dataclass(frozen=True)
class RepoCheckout:
    """A repository on this host: where it is, how it was found, and its commit if known."""

    url: str
    name: str
    path: Path
    origin: str  # "bundled", "local", "cache" or "clone"
    commit: str | None = None


def cache_dir() -> Path:
    """``$MLE_GYM_HOME/mlbench/repos``."""
    return paths.home() / "mlbench" / "repos"


def bundled_repo_names() -> list[str]:
    """Names of the usable bundled repositories of every task root, sorted (a broken one
    is not among them: :func:`~mle_gym.families.mlbench.folders.discover_bundled` says
    why)."""
    return sorted(discover_bundled().repositories)


class RepoResolver:
    """Resolve example URLs to checkouts (see the module docstring).

    Args:
        local: ``{name or URL: path}`` of existing checkouts, or one folder holding a
            checkout per repository name.
        pins: ``{name or URL: commit}`` for clones.
        clone: whether cloning over the network may be tried.
        allow_unpinned: clone the default branch when no commit is pinned.
        cache: where clones are kept (default :func:`cache_dir`).
        superproject: where pins not given in ``pins`` come from: True (default) =
            ML-Bench's repository (:meth:`Superproject.from_environment`), a
            :class:`~mle_gym.families.mlbench.pins.Superproject`, or False (no such pins).
    """

    def __init__(
        self,
        local: LocalRepos | None = None,
        *,
        pins: Mapping[str, str] | None = None,
        clone: bool = True,
        allow_unpinned: bool = False,
        cache: Path | None = None,
        superproject: Superproject | bool = True,
    ) -> None:
        self._local_map: dict[str, Path] = {}
        self._local_root: Path | None = None
        if isinstance(local, Mapping):
            self._local_map = {url_key(k): Path(v).expanduser() for k, v in local.items()}
        elif local is not None:
            self._local_root = Path(local).expanduser()
            if not self._local_root.is_dir():
                raise RepoUnavailable(f"the repositories folder {self._local_root} does not exist")
        self._pins = {url_key(k): str(v).strip().lower() for k, v in (pins or {}).items()}
        for key, commit in self._pins.items():
            if not _COMMIT.match(commit):
                raise ValueError(f"pin for {key!r} is not a commit hash: {commit!r}")
        self.clone_allowed = clone
        self.allow_unpinned = allow_unpinned
        self._cache = cache
        self.superproject: Superproject | None = _superproject(superproject)
        self._table: PinTable | str | None = None  # the table, or why it is unavailable

    def with_superproject(self, superproject: Superproject | bool) -> RepoResolver:
        """A resolver like this one (the same local checkouts, pins, clone settings and
        cache) whose pins not given in ``pins`` come from ``superproject`` (as the
        constructor takes it); this one is left as it is."""
        other = copy.copy(self)
        other.superproject = _superproject(superproject)
        other._table = None
        return other

    @property
    def cache(self) -> Path:
        return self._cache or cache_dir()

    def pin(self, url: str) -> str | None:
        """The pinned commit of ``url`` (looked up by URL, then by name), if any."""
        return self._pins.get(url_key(url)) or self._pins.get(url_key(repo_name_of(url)))

    def resolve(self, url: str) -> RepoCheckout:
        """A checkout of ``url``; :class:`RepoUnavailable` if none can be had."""
        name = repo_name_of(url)
        if url.startswith(BUNDLED_SCHEME):
            bundled = discover_bundled()
            shipped = bundled.lookup(name)  # MLBenchDataError for a broken one
            if shipped is None:
                known = ", ".join(sorted(bundled.repositories)) or "none"
                raise RepoUnavailable(
                    f"{url}: no repository {name!r} is shipped with mle_gym or found in "
                    f"$MLE_GYM_TASKS_PATH (bundled: {known}; a bundled repository is the "
                    f"folder <task root>/mlbench/{name}/repository/ of the task {name})"
                )
            return RepoCheckout(url, name, shipped.path, "bundled")
        tried: list[str] = []
        local = self._local_map.get(url_key(url)) or self._local_map.get(url_key(name))
        if local is not None:
            if not local.is_dir():
                raise RepoUnavailable(
                    f"the local checkout given for {name} ({local}) does not exist"
                )
            return RepoCheckout(url, name, local, "local")
        if self._local_root is not None:
            candidate = self._local_root / name
            if not candidate.is_dir():  # e.g. ML-Bench's repos/if for github.com/deep-floyd/IF
                folded = [p for p in self._local_root.iterdir() if p.name.lower() == name.lower()]
                candidate = folded[0] if len(folded) == 1 and folded[0].is_dir() else candidate
            if candidate.is_dir():
                return RepoCheckout(url, name, candidate, "local")
            tried.append(f"no folder {self._local_root / name}")
        else:
            tried.append("no local checkout given (repos=...)")
        commit = self.pin(url)
        clone_url = url
        if commit is None:
            found = self._superproject_pin(url, tried)
            if found is not None and found.commit is not None:
                commit, clone_url = found.commit, found.url
        cached = self._cached(name, commit)
        if cached is not None:
            return RepoCheckout(url, name, cached, "cache", cached.name.split("@", 1)[1])
        tried.append(f"not in the cache {self.cache}")
        if not self.clone_allowed:
            tried.append("cloning is disabled")
            raise RepoUnavailable(_unavailable(url, tried))
        if commit is None and not self.allow_unpinned:
            tried.append("no commit is pinned for it, so it was not cloned")
            raise RepoUnavailable(
                _unavailable(url, tried)
                + f"; or pin a commit (pins={{'{name}': '<commit>'}}), or allow_unpinned=True"
            )
        try:
            path, resolved = self._clone(clone_url, name, commit)
        except RepoUnavailable as exc:
            tried.append(str(exc))
            raise RepoUnavailable(_unavailable(url, tried)) from None
        return RepoCheckout(url, name, path, "clone", resolved)

    def pin_table(self, *, refresh: bool = False) -> PinTable:
        """The superproject's pin table (fetched when not cached and cloning is allowed);
        :class:`~mle_gym.families.mlbench.pins.PinsUnavailable` if it cannot be had."""
        if self.superproject is None:
            raise PinsUnavailable("no superproject is configured (superproject=False)")
        if refresh or not isinstance(self._table, PinTable):
            self._table = self.superproject.table(fetch=self.clone_allowed, refresh=refresh)
        return self._table

    # -- internals ------------------------------------------------------------------------

    def _superproject_pin(self, url: str, tried: list[str]) -> SubmodulePin | None:
        """The superproject's submodule of ``url`` (noting in ``tried`` why there is none)."""
        sp = self.superproject
        if sp is None or not sp.covers(url):
            return None
        if isinstance(self._table, str):  # failed before: do not fetch again per repository
            tried.append(self._table)
            return None
        try:
            table = self.pin_table()
        except PinsUnavailable as exc:
            self._table = f"no pin from the superproject: {exc}"
            tried.append(self._table)
            return None
        found = table.find(url)
        if found is None:
            names = ", ".join(p.folder for p in table.pins) or "none"
            tried.append(f"the superproject {table.describe()} has no submodule for it ({names})")
        elif found.commit is None:
            tried.append(
                f"the superproject {table.describe()} lists submodule {found.path} in "
                ".gitmodules but its tree has no commit (gitlink) for it"
            )
        else:
            tried.append(f"pinned at {found.commit[:12]} by the superproject {table.describe()}")
        return found

    def _cached(self, name: str, commit: str | None) -> Path | None:
        root = self.cache
        if not root.is_dir():
            return None
        prefix = f"{name.lower()}@"  # without case: .../salesforce/lavis is LAVIS
        same = [e for e in root.iterdir() if e.name.lower().startswith(prefix) and e.is_dir()]
        if commit is not None:
            for entry in same:
                sha = entry.name.split("@", 1)[1]
                if sha.startswith(commit) or commit.startswith(sha):
                    return entry
            return None
        if not self.allow_unpinned:
            return None
        entries = sorted(same, key=lambda e: e.stat().st_mtime)
        return entries[-1] if entries else None

    def _clone(self, url: str, name: str, commit: str | None) -> tuple[Path, str]:
        git = shutil.which("git")
        if git is None:
            raise RepoUnavailable("git is not installed, so it cannot be cloned")
        self.cache.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{name}.clone-", dir=self.cache))
        try:
            target = tmp / "repo"
            _git([git, "clone", "--quiet", "--no-checkout", url, str(target)], None)
            ref = commit or "HEAD"
            try:
                _git([git, "checkout", "--quiet", "--detach", ref], target)
            except RepoUnavailable:
                if commit is None:
                    raise
                # a commit no branch reaches (servers such as GitHub serve it on request)
                _git([git, "fetch", "--quiet", "origin", commit], target)
                _git([git, "checkout", "--quiet", "--detach", "FETCH_HEAD"], target)
            sha = _git([git, "rev-parse", "HEAD"], target).strip()
            if commit is not None and not sha.startswith(commit):
                raise RepoUnavailable(f"checked out {sha}, not the pinned commit {commit}")
            final = self.cache / f"{name}@{sha}"
            if final.exists():  # another process cloned it meanwhile
                return final, sha
            os.replace(target, final)
            log.info("cloned %s at %s into %s", url, sha, final)
            return final, sha
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


def _superproject(value: Superproject | bool | None) -> Superproject | None:
    """The superproject a resolver reads pins from: ``value`` itself, ML-Bench's
    (:meth:`Superproject.from_environment`) for True, none for False or None."""
    if isinstance(value, Superproject):
        return value
    if value is True:
        return Superproject.from_environment()
    if value is False or value is None:
        return None
    raise ValueError(f"superproject must be a Superproject or a bool: {value!r}")


def _git(argv: list[str], cwd: Path | None) -> str:
    return run_git(argv[0], argv[1:], cwd, timeout_s=CLONE_TIMEOUT_S, error=RepoUnavailable)


def _unavailable(url: str, tried: list[str]) -> str:
    name = repo_name_of(url)
    return (
        f"repository {name} ({url}) is not available: {'; '.join(tried)}. "
        f"Give a local checkout with repos={{'{name}': '/path/to/checkout'}} or a folder of "
        "checkouts with repos='/path/to/repos'"
    )


# the one folder of bundled repositories became a folder per repository, in any task root
__getattr__ = removed_names(
    __name__,
    {
        "bundled_repos_dir": "bundled repositories are task folders now, "
        "<task root>/mlbench/<name>/ in any task root; see "
        "mle_gym.families.mlbench.folders.bundled_repositories()"
    },
)
