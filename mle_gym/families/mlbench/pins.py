"""The commits ML-Bench pins its repositories at, read from its own git repository.

ML-Bench (``gersteinlab/ML-Bench``) records the 14 repositories its examples run in as
git submodules under ``repos/``: ``.gitmodules`` gives each one's path and URL, and the
commit is a *gitlink* (a tree entry of mode 160000) in the superproject's tree — in no
file. :class:`Superproject` reads them at a fixed superproject commit:

1. ``git init --bare`` in a temporary folder, then one ``git fetch --depth 1
   --filter=blob:none`` of that commit (no checkout, no submodule recursion; only the
   commit and its trees travel, plus the ``.gitmodules`` blob fetched on demand);
2. the gitlinks: ``git ls-tree -r -z <commit> -- repos/`` entries of mode ``160000``;
3. their URLs: ``git config --blob <commit>:.gitmodules --get-regexp`` (a relative URL
   is taken relative to the superproject's);
4. the :class:`PinTable` is written atomically as JSON into the cache,
   ``$MLE_GYM_HOME/mlbench/pins/commit-<sha>.json`` (``<name>-<hash>@<ref>.json`` for a
   branch or tag), and read from there afterwards (offline too).

Settings: :data:`DEFAULT_URL` and :data:`DEFAULT_COMMIT` (a commit of ML-Bench whose
README documents the submodule checkout and the Hugging Face dataset
``super-dainiu/ml-bench``), overridden by ``$MLE_GYM_MLBENCH_SUPERPROJECT`` (a URL or a
local clone of ML-Bench) and ``$MLE_GYM_MLBENCH_SUPERPROJECT_COMMIT`` (a commit, or a
branch/tag — resolved once, then cached under that name until refreshed), or by building
a :class:`Superproject` yourself. The default superproject is consulted only for the
repositories the task folders declare (``mlbench: {repository: <git URL>}`` in a
task.yaml of the built-in ``task_assets`` or of ``$MLE_GYM_TASKS_PATH``:
:func:`known_repositories`, also readable as ``KNOWN_REPOSITORIES``), so a pin is never
looked for over the network for some other repository; a superproject you name is
consulted for any repository.

Failures raise :class:`PinsUnavailable` saying what was tried.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import posixpath
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from mle_gym import paths
from mle_gym.families.mlbench.folders import declared_repositories
from mle_gym.families.mlbench.schema import repo_name_of

log = logging.getLogger(__name__)

DEFAULT_URL = "https://github.com/gersteinlab/ML-Bench.git"
DEFAULT_COMMIT = "64de10c053bd430111d38f0c4f3716c9f3d4a4d6"
SUBMODULE_PREFIX = "repos/"
ENV_URL = "MLE_GYM_MLBENCH_SUPERPROJECT"
ENV_COMMIT = "MLE_GYM_MLBENCH_SUPERPROJECT_COMMIT"
FETCH_TIMEOUT_S = 600.0
TABLE_FORMAT = 1

_FULL_SHA = re.compile(r"^[0-9a-f]{40}$")
_REF = re.compile(r"^[A-Za-z0-9._][A-Za-z0-9._/-]*$")
_GITLINK = "160000"


def known_repositories() -> tuple[str, ...]:
    """The repositories ML-Bench's default superproject is consulted for: the git URLs
    the ML-Bench tasks declare (``mlbench: {repository: ...}``; the folder each task is
    served from, a folder the index or the family rejects declares nothing), read from
    the task index at each call
    (:func:`~mle_gym.families.mlbench.folders.declared_repositories`). For the built-in
    tasks these are the 14 submodules of ML-Bench's ``.gitmodules``."""
    return declared_repositories()


class PinsUnavailable(RuntimeError):
    """The pin table cannot be read or fetched; the message says what was tried."""


@dataclass(frozen=True)
class SubmodulePin:
    """One submodule of the superproject: ``commit`` is None when ``.gitmodules`` lists
    it but the superproject's tree has no gitlink at its path."""

    name: str  # the submodule's name in .gitmodules
    path: str  # e.g. repos/dgl
    url: str
    commit: str | None

    @property
    def folder(self) -> str:
        """The last part of ``path`` (ML-Bench's folder name, e.g. ``if`` for IF)."""
        return posixpath.basename(self.path.rstrip("/"))


@dataclass(frozen=True)
class PinTable:
    """The submodules of one superproject commit, as read by :meth:`Superproject.fetch`."""

    superproject: str
    ref: str  # as asked for
    commit: str  # what it resolved to
    pins: tuple[SubmodulePin, ...]
    orphans: tuple[str, ...] = ()  # gitlink paths that .gitmodules does not describe
    fetched_at: str = ""

    def find(self, url: str) -> SubmodulePin | None:
        """The submodule of ``url``: by URL (ignoring case, ``.git`` and a trailing
        slash), else by repository name or folder name when exactly one matches."""
        key = url_key(url)
        for pin in self.pins:
            if url_key(pin.url) == key:
                return pin
        name = repo_name_of(url).lower()
        matches = [p for p in self.pins if name in (repo_name_of(p.url).lower(), p.folder.lower())]
        return matches[0] if len(matches) == 1 else None

    def describe(self) -> str:
        return f"{self.superproject} at {self.commit[:12]}"

    def to_json(self) -> dict[str, Any]:
        return {
            "format": TABLE_FORMAT,
            "superproject": self.superproject,
            "ref": self.ref,
            "commit": self.commit,
            "fetched_at": self.fetched_at,
            "submodules": [
                {"name": p.name, "path": p.path, "url": p.url, "commit": p.commit}
                for p in self.pins
            ],
            "orphans": list(self.orphans),
        }

    @classmethod
    def from_json(cls, data: Any) -> PinTable:
        """Inverse of :meth:`to_json`; ValueError naming the bad field."""
        if not isinstance(data, dict) or data.get("format") != TABLE_FORMAT:
            raise ValueError(f"not a pin table of format {TABLE_FORMAT}")
        try:
            pins = tuple(
                SubmodulePin(str(s["name"]), str(s["path"]), str(s["url"]), s["commit"])
                for s in data["submodules"]
            )
            table = cls(
                superproject=str(data["superproject"]),
                ref=str(data["ref"]),
                commit=str(data["commit"]),
                pins=pins,
                orphans=tuple(str(o) for o in data.get("orphans", ())),
                fetched_at=str(data.get("fetched_at", "")),
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"missing or malformed field: {exc}") from None
        if not _FULL_SHA.match(table.commit):
            raise ValueError(f"commit {table.commit!r} is not a full commit hash")
        for pin in pins:
            if pin.commit is not None and not (
                isinstance(pin.commit, str) and _FULL_SHA.match(pin.commit)
            ):
                raise ValueError(f"submodule {pin.path}: bad commit {pin.commit!r}")
        return table


def pins_cache_dir() -> Path:
    """``$MLE_GYM_HOME/mlbench/pins``."""
    return paths.home() / "mlbench" / "pins"


@dataclass(frozen=True)
class Superproject:
    """Where to read pins from: a git repository (URL or path) at ``ref`` (a commit, or a
    branch/tag name), its submodules under ``prefix``. ``only``: the repositories it is
    consulted for (URLs; None = every repository). ``cache``: the folder of pin tables
    (default :func:`pins_cache_dir`)."""

    url: str = DEFAULT_URL
    ref: str = DEFAULT_COMMIT
    prefix: str = SUBMODULE_PREFIX
    only: tuple[str, ...] | None = None
    cache: Path | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        url = str(self.url).strip()
        if not url or url.startswith("-"):
            raise ValueError(f"not a git URL or path: {self.url!r}")
        ref = str(self.ref).strip()
        if not _REF.match(ref) or ".." in ref:
            raise ValueError(f"not a commit or ref name: {self.ref!r}")
        if _FULL_SHA.match(ref.lower()):
            ref = ref.lower()
        object.__setattr__(self, "url", url)
        object.__setattr__(self, "ref", ref)
        prefix = self.prefix.strip("/")
        object.__setattr__(self, "prefix", prefix + "/" if prefix else "")

    @classmethod
    def from_environment(cls, cache: Path | None = None) -> Superproject:
        """ML-Bench's superproject, with ``$MLE_GYM_MLBENCH_SUPERPROJECT`` and
        ``$MLE_GYM_MLBENCH_SUPERPROJECT_COMMIT`` applied. Consulted only for the
        repositories the task folders declare (:func:`known_repositories`, read now)
        unless the URL was overridden."""
        url = os.environ.get(ENV_URL, "").strip()
        if url:
            return cls.at(url, cache=cache)
        ref = os.environ.get(ENV_COMMIT, "").strip() or DEFAULT_COMMIT
        return cls(url=DEFAULT_URL, ref=ref, only=known_repositories(), cache=cache)

    @classmethod
    def at(cls, location: str | os.PathLike[str], cache: Path | None = None) -> Superproject:
        """ML-Bench's superproject read from ``location`` — a git URL or the folder of a
        clone (a leading ``~`` expanded) — at the commit
        ``$MLE_GYM_MLBENCH_SUPERPROJECT_COMMIT`` names (default :data:`DEFAULT_COMMIT`);
        consulted for every repository. ValueError for an empty location or one starting
        with ``-``."""
        text = os.fspath(location).strip()
        url = str(Path(text).expanduser()) if text.startswith("~") else text
        ref = os.environ.get(ENV_COMMIT, "").strip() or DEFAULT_COMMIT
        return cls(url=url, ref=ref, cache=cache)

    @property
    def cache_dir(self) -> Path:
        return self.cache or pins_cache_dir()

    def covers(self, url: str) -> bool:
        """Whether this superproject is consulted for ``url``."""
        if self.only is None:
            return True
        keys = {url_key(u) for u in self.only}
        names = {repo_name_of(u).lower() for u in self.only}
        return url_key(url) in keys or repo_name_of(url).lower() in names

    def cache_file(self) -> Path:
        """The JSON file this superproject's pin table is kept in: ``commit-<sha>.json``
        for a commit (its content depends on the commit only, so a local clone of ML-Bench
        and GitHub share it), ``<name>-<hash of URL>@<ref>.json`` for a branch or tag."""
        if _FULL_SHA.match(self.ref):
            return self.cache_dir / f"commit-{self.ref}.json"
        digest = hashlib.sha256(url_key(self._fetch_url()).encode()).hexdigest()[:10]
        stem = re.sub(r"[^A-Za-z0-9._-]", "_", repo_name_of(self.url)) or "superproject"
        return self.cache_dir / f"{stem}-{digest}@{self.ref.replace('/', '_')}.json"

    def cached(self) -> PinTable | None:
        """The cached table, or None when there is none; a corrupt file is logged and
        treated as absent (the next fetch replaces it)."""
        path = self.cache_file()
        if not path.is_file():
            return None
        try:
            table = PinTable.from_json(json.loads(path.read_text(encoding="utf-8")))
            if _FULL_SHA.match(self.ref) and table.commit != self.ref:
                raise ValueError(f"it is the table of commit {table.commit}")
            return table
        except (OSError, ValueError) as exc:
            log.warning("ignoring the unreadable pin table %s: %s", path, exc)
            return None

    def table(self, *, fetch: bool = True, refresh: bool = False) -> PinTable:
        """The pin table: from the cache, else (if ``fetch``) fetched and cached.
        ``refresh`` fetches even when a table is cached."""
        if not refresh:
            table = self.cached()
            if table is not None:
                return table
        if not fetch:
            raise PinsUnavailable(
                f"the pins of {self.url} at {self.ref} are not cached "
                f"({self.cache_file()}) and fetching is disabled"
            )
        return self.fetch()

    def fetch(self) -> PinTable:
        """Read the pins from the superproject (network or local path) and cache them."""
        git = shutil.which("git")
        if git is None:
            raise PinsUnavailable("git is not installed, so the superproject cannot be read")
        cache = self.cache_dir
        cache.mkdir(parents=True, exist_ok=True)
        where = f"{self.url} at {self.ref}"
        tmp = Path(tempfile.mkdtemp(prefix=".fetch-", dir=cache))
        try:
            repo = tmp / "superproject.git"
            _git(git, ["init", "--quiet", "--bare", str(repo)], tmp, where)
            for key, value in (
                ("remote.origin.url", self._fetch_url()),
                ("remote.origin.promisor", "true"),
                ("remote.origin.partialclonefilter", "blob:none"),
            ):
                _git(git, ["config", key, value], repo, where)
            fetch = ["fetch", "--quiet", "--no-tags", "--depth", "1", "--filter=blob:none"]
            try:
                _git(git, [*fetch, "origin", self.ref], repo, where)
            except PinsUnavailable as exc:
                raise PinsUnavailable(
                    f"{exc} (offline? point ${ENV_URL} at a local clone of ML-Bench, or run "
                    "`mle-gym prepare MLBench/<task>-v0` once online)"
                ) from None
            commit = _git(git, ["rev-parse", "--verify", "FETCH_HEAD^{commit}"], repo, where)
            table = self._read(git, repo, commit.strip(), where)
            self._store(table)
            log.info("read %d pins from %s (%s)", len(table.pins), where, table.commit)
            return table
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    # -- internals ------------------------------------------------------------------------

    def _fetch_url(self) -> str:
        """The URL, or a local path made absolute (``host:path`` is scp-like, remote)."""
        if "://" in self.url or re.match(r"^[^/]+:", self.url):
            return self.url
        return str(Path(self.url).expanduser().resolve())

    def _read(self, git: str, repo: Path, commit: str, where: str) -> PinTable:
        listing = _git(git, ["ls-tree", "-r", "-z", commit, "--", self.prefix or "."], repo, where)
        gitlinks: dict[str, str] = {}
        for entry in listing.split("\0"):
            if not entry:
                continue
            meta, _, path = entry.partition("\t")
            mode, _kind, sha = meta.split()
            if mode == _GITLINK:
                gitlinks[path] = sha
        if not gitlinks:
            raise PinsUnavailable(
                f"{where} ({commit[:12]}) has no submodule commits (gitlinks) under "
                f"{self.prefix or 'its root'}"
            )
        blob = f"{commit}:.gitmodules"
        try:
            raw = _git(
                git, ["config", "--blob", blob, "-z", "--get-regexp", r"^submodule\."], repo, where
            )
        except PinsUnavailable as exc:
            raise PinsUnavailable(
                f"{where} ({commit[:12]}) has no readable .gitmodules: {exc}"
            ) from None
        modules: dict[str, dict[str, str]] = {}
        for item in raw.split("\0"):
            key, _, value = item.partition("\n")
            if not key.startswith("submodule.") or "." not in key[len("submodule.") :]:
                continue
            name, _, attr = key[len("submodule.") :].rpartition(".")
            modules.setdefault(name, {})[attr] = value
        pins = []
        for name, attrs in modules.items():
            path = attrs.get("path", "").strip("/")
            url = attrs.get("url", "")
            if not path or not url or not path.startswith(self.prefix):
                continue
            pins.append(SubmodulePin(name, path, self._absolute(url), gitlinks.get(path)))
        described = {p.path for p in pins}
        return PinTable(
            superproject=self.url,
            ref=self.ref,
            commit=commit,
            pins=tuple(sorted(pins, key=lambda p: p.path)),
            orphans=tuple(sorted(set(gitlinks) - described)),
            fetched_at=datetime.now(UTC).isoformat(timespec="seconds"),
        )

    def _absolute(self, url: str) -> str:
        """A submodule URL; ``./x`` and ``../x`` are relative to the superproject's."""
        if not url.startswith(("./", "../")):
            return url
        base = self._fetch_url().rstrip("/")
        scheme, sep, rest = base.partition("://")
        if not sep:
            scheme, rest = "", base
        joined = posixpath.normpath(posixpath.join(rest, url))
        if sep:  # keep the host: normpath may not climb above it
            return f"{scheme}://{joined}"
        return joined

    def _store(self, table: PinTable) -> None:
        target = self.cache_file()
        fd, tmp = tempfile.mkstemp(prefix=".pins-", suffix=".json", dir=target.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(table.to_json(), fh, indent=1)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


def run_git(
    git: str,
    args: list[str],
    cwd: Path | None,
    *,
    timeout_s: float,
    error: type[Exception],
    where: str = "",
) -> str:
    """The stdout of ``git args`` run in ``cwd``, never prompting for credentials (a
    private or missing repository fails instead of waiting). Raises ``error`` with a
    message naming the git command (and ``where``, if given) when it runs longer than
    ``timeout_s`` or fails; a failure's message ends with git's own error line."""
    what = f"`git {args[0]}`" + (f" of {where}" if where else "")
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "true"}
    try:
        proc = subprocess.run(
            [git, *args],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=timeout_s,
            env=env,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise error(f"{what} timed out") from None
    if proc.returncode != 0:
        lines = [ln for ln in (proc.stderr or proc.stdout).strip().splitlines() if ln.strip()]
        # git ends with advice ("...and the repository exists."): keep its error line
        errors = [ln for ln in lines if ln.startswith(("fatal:", "error:"))] or lines
        detail = errors[0] if errors else f"exit {proc.returncode}"
        raise error(f"{what} failed: {detail}")
    return proc.stdout


def _git(git: str, args: list[str], cwd: Path, where: str) -> str:
    return run_git(git, args, cwd, timeout_s=FETCH_TIMEOUT_S, error=PinsUnavailable, where=where)


def url_key(url: str) -> str:
    """A repository URL compared loosely: ignoring case, surrounding blanks, a trailing
    slash and a ``.git`` suffix."""
    return str(url).strip().rstrip("/").removesuffix(".git").lower()


def __getattr__(name: str) -> tuple[str, ...]:
    """``KNOWN_REPOSITORIES``: :func:`known_repositories`, computed when read (the former
    constant, now the URLs the task folders declare)."""
    if name == "KNOWN_REPOSITORIES":
        return known_repositories()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
