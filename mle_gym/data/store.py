"""The prepared-data cache: one folder per (task, data source, variant).

Layout under ``$MLE_GYM_HOME/data``::

    <benchmark>/<task_id>/<variant>/public/     agent-visible (mounted read-only)
    <benchmark>/<task_id>/<variant>/private/    answers (mode 0700, never mounted)
    <benchmark>/<task_id>/<variant>/MANIFEST.json

``variant`` is ``kaggle`` or ``replica-seed<N>-key<ID>``, where ``ID`` names the
installation's secret replica key (:mod:`mle_gym.data.replica_key`): replicas
generated with another key are never served (they are other data), and a replica
whose manifest does not record the current key id is not used either. Preparation is

* atomic: files are built in a temporary sibling folder and renamed into place
  only when complete, so a crash never leaves a half-prepared variant;
* idempotent: a variant with a manifest is reused as is; concurrent preparers
  serialise on a lock file, and the loser reuses the winner's result;
* checksummed: the manifest records the sha256 and size of every file;
  :func:`verify` re-checks them.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mle_gym import paths
from mle_gym.data import replica_key
from mle_gym.errors import SetupError
from mle_gym.task_spec import TaskSpec

log = logging.getLogger(__name__)

MANIFEST = "MANIFEST.json"


class DataNotPrepared(SetupError):
    """The requested data variant is not in the cache and cannot be made automatically."""


class NotYetSupported(DataNotPrepared):
    """The task's real data cannot be prepared by this version of mle_gym."""


class MissingRawFiles(DataNotPrepared, FileNotFoundError):
    """The files given to prepare a task (``--from``: an archive or a folder) lack one its
    preparation reads; the message names it and what they hold instead."""


def prepare_function(task: TaskSpec, name: str) -> Callable[..., Any]:
    """The function ``name`` (``prepare``, ``replica``, ``download``...) of the task's
    ``prepare.py``; DataNotPrepared if the task has none."""
    module = task.module("prepare")
    fn = getattr(module, name, None) if module is not None else None
    if fn is None:
        raise DataNotPrepared(f"task {task.key} has no {name}() in prepare.py")
    return fn


@dataclass(frozen=True)
class PreparedData:
    """A prepared variant of a task's data."""

    task_key: str
    source: str  # "kaggle" | "replica" | "bundled"
    variant: str
    root: Path

    @property
    def public(self) -> Path:
        return self.root / "public"

    @property
    def private(self) -> Path:
        return self.root / "private"

    def manifest(self) -> dict:
        return json.loads((self.root / MANIFEST).read_text())


#: Manifest entry naming the replica key a replica was generated with.
KEY_ID_FIELD = "replica_key_id"


def variant_name(source: str, replica_seed: int = 0, key_id: str | None = None) -> str:
    """Folder name of a data variant: a replica's names its seed and the key id
    (``key_id``, by default the current key's)."""
    if source != "replica":
        return source
    return f"replica-seed{replica_seed}-key{key_id or replica_key.key_id()}"


def _manifest_matches(root: Path, require: Mapping[str, object] | None) -> bool:
    """Whether ``root`` holds a complete variant whose manifest has every ``require`` entry."""
    manifest = root / MANIFEST
    if not manifest.is_file():
        return False
    if not require:
        return True
    try:
        recorded = json.loads(manifest.read_text())
    except (OSError, ValueError):
        return False
    return isinstance(recorded, dict) and all(recorded.get(k) == v for k, v in require.items())


def variant_dir(task: TaskSpec, variant: str) -> Path:
    """Where a variant of ``task`` lives in the cache."""
    return paths.data_root() / task.benchmark.lower() / task.id / variant


def lookup(task: TaskSpec, source: str, replica_seed: int = 0) -> PreparedData | None:
    """The prepared variant if it is complete in the cache, else None (for a replica:
    one generated with the current replica key)."""
    require = None
    key_id = None
    if source == "replica":
        key_id = replica_key.key_id()
        require = {KEY_ID_FIELD: key_id}
    variant = variant_name(source, replica_seed, key_id)
    root = variant_dir(task, variant)
    if _manifest_matches(root, require):
        return PreparedData(task.key, source, variant, root)
    return None


def sha256_file(path: Path) -> str:
    """sha256 (hex) of a file's bytes."""
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def md5_file(path: Path) -> str:
    """md5 of a file (MLE-bench publishes md5 sums of its prepared files)."""
    with open(path, "rb") as f:
        return hashlib.file_digest(f, lambda: hashlib.md5(usedforsecurity=False)).hexdigest()


def _file_table(root: Path) -> dict[str, dict[str, object]]:
    table = {}
    for sub in ("public", "private"):
        for p in sorted((root / sub).rglob("*")):
            if p.is_file():
                table[str(p.relative_to(root))] = {
                    "sha256": sha256_file(p),
                    "bytes": p.stat().st_size,
                }
    return table


def _fix_permissions(root: Path) -> None:
    """Public readable by the sandbox uid; private readable by the owner only."""
    for dirpath, dirnames, filenames in os.walk(root / "public"):
        os.chmod(dirpath, 0o755)
        for name in filenames:
            os.chmod(os.path.join(dirpath, name), 0o644)
        for name in dirnames:
            os.chmod(os.path.join(dirpath, name), 0o755)
    os.chmod(root / "private", 0o700)
    os.chmod(root, 0o755)


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold an exclusive ``flock`` on the lock file ``path`` (created, with its folder,
    if missing) for the duration of the block; waits for another holder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def build(
    task: TaskSpec,
    source: str,
    variant: str,
    builder: Callable[[Path, Path], dict],
    *,
    force: bool = False,
    require: Mapping[str, object] | None = None,
) -> PreparedData:
    """Build a variant atomically with ``builder(public_dir, private_dir) -> extra manifest``.

    Reuses a complete variant unless ``force`` or its manifest lacks one of the
    ``require`` entries (then it is rebuilt). The builder's returned dict is
    stored in the manifest (e.g. the replica seed, checksum verification).
    """
    final = variant_dir(task, variant)
    with locked(final.parent / f".{variant}.lock"):
        if not force and _manifest_matches(final, require):
            return PreparedData(task.key, source, variant, final)
        tmp = Path(tempfile.mkdtemp(prefix=f".{variant}.tmp-", dir=final.parent))
        try:
            (tmp / "public").mkdir()
            (tmp / "private").mkdir(mode=0o700)
            started = time.time()
            extra = builder(tmp / "public", tmp / "private") or {}
            manifest = {
                "task": task.key,
                "source": source,
                "variant": variant,
                "prepared_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                "seconds": round(time.time() - started, 3),
                "files": _file_table(tmp),
                **extra,
            }
            (tmp / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True))
            _fix_permissions(tmp)
            if final.exists():
                trash = final.with_name(f".{variant}.old-{os.getpid()}")
                final.rename(trash)
                shutil.rmtree(trash, ignore_errors=True)
            tmp.rename(final)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    log.info("prepared %s (%s) in %s", task.key, variant, final)
    return PreparedData(task.key, source, variant, final)


def build_replica(
    task: TaskSpec,
    seed: int,
    generate: Callable[[Path, Path, int], None],
    *,
    force: bool = False,
) -> PreparedData:
    """Generate (or reuse) replica ``seed`` of ``task`` with the current replica key.

    ``generate(public_dir, private_dir, generator_seed)`` is the task's
    ``replica`` function; it receives the seed derived from the secret key
    (:func:`mle_gym.data.replica_key.derive_seed`), never ``seed`` itself. The
    manifest records ``replica_seed`` and the key id (not the derived seed), and
    a variant whose manifest names another key is regenerated.
    """
    key = replica_key.load_key()
    key_id = replica_key.key_id(key)
    generator_seed = replica_key.derive_seed(task.key, seed, key)

    def builder(public: Path, private: Path) -> dict:
        generate(public, private, generator_seed)
        return {"replica_seed": seed, KEY_ID_FIELD: key_id}

    return build(
        task,
        "replica",
        variant_name("replica", seed, key_id),
        builder,
        force=force,
        require={KEY_ID_FIELD: key_id},
    )


def verify(data: PreparedData) -> list[str]:
    """Re-hash every file; return a list of problems (empty if the variant is intact)."""
    problems = []
    recorded = data.manifest().get("files", {})
    actual = _file_table(data.root)
    for rel, meta in recorded.items():
        if rel not in actual:
            problems.append(f"missing: {rel}")
        elif actual[rel]["sha256"] != meta["sha256"]:
            problems.append(f"modified: {rel}")
    problems.extend(f"unexpected: {rel}" for rel in actual.keys() - recorded.keys())
    return problems
