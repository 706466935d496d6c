"""Data of MLAgentBench tasks: ``real`` (downloaded and prepared on demand), ``replica``
(an offline generator with the real schema) or ``none`` (self-contained tasks).

A task's ``prepare.py`` may define:

* ``download(raw_dir)``: fetch the raw files (network; raises with what is missing);
* ``prepare(raw_dir, public_dir, private_dir)``: turn raw files into the agent's
  data (public, mounted read-only at /workspace/data) and the hidden answers
  (private, only the evaluator reads them);
* ``replica(public_dir, private_dir, seed)``: an offline variant.

Prepared variants live in the shared cache (:mod:`mle_gym.data.store`): atomic,
idempotent and checksummed, like MLE-bench data.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

from mle_gym.data import store
from mle_gym.data.store import DataNotPrepared, PreparedData
from mle_gym.families.mlagentbench import download
from mle_gym.families.mlagentbench.task import MLABConfig
from mle_gym.task_spec import TaskSpec

log = logging.getLogger(__name__)

DATA_CHOICES = ("auto", "real", "replica")


def _source_phrase(cfg: MLABConfig) -> str:
    via = cfg.real_source.get("via", "the web")
    what = cfg.real_source.get("what", "its data")
    return f"{what} (from {via})"


def missing_message(task: TaskSpec, cfg: MLABConfig) -> str:
    """Why no data is available, and how to get it."""
    name = task.env_id.rsplit("-v", 1)[0]
    return (
        f"{task.env_id} needs {_source_phrase(cfg)}, which is not prepared: run "
        f"`mle-gym prepare {name}` (downloads it; needs network access"
        + (" and Kaggle credentials with the rules accepted" if _is_kaggle(cfg) else "")
        + f"), or download it yourself and run `mle-gym prepare {name} --from PATH`"
    )


def _is_kaggle(cfg: MLABConfig) -> bool:
    return str(cfg.real_source.get("via", "")).lower() == "kaggle"


def check_choice(task: TaskSpec, cfg: MLABConfig, choice: str) -> None:
    """Fail fast at construction if ``choice`` cannot be served."""
    if choice not in DATA_CHOICES:
        raise ValueError(f"data must be one of {DATA_CHOICES}, got {choice!r}")
    if cfg.self_contained:
        if choice not in ("auto",):
            from mle_gym.hints import Hinted, Setting

            raise ValueError(
                Hinted(f"{task.env_id} is self-contained (no data); use ", Setting("data", "auto"))
            )
        return
    if choice == "replica" and not cfg.has_replica:
        raise ValueError(f"task {task.key} has no offline replica")
    if choice == "real" and not cfg.real_source:
        raise ValueError(f"task {task.key} has no real data source")
    if choice == "real" and store.lookup(task, "real") is None:
        raise DataNotPrepared(missing_message(task, cfg))
    if choice == "auto" and not cfg.has_replica and store.lookup(task, "real") is None:
        raise DataNotPrepared(missing_message(task, cfg))


def resolve(task: TaskSpec, cfg: MLABConfig, choice: str, replica_seed: int) -> PreparedData | None:
    """The data of an episode: real if prepared (``auto``), else the replica; None for
    self-contained tasks."""
    if cfg.self_contained:
        return None
    if choice in ("auto", "real"):
        found = store.lookup(task, "real")
        if found is not None:
            return found
        if choice == "real" or not cfg.has_replica:
            raise DataNotPrepared(missing_message(task, cfg))
    return store.lookup(task, "replica", replica_seed) or prepare_replica(task, replica_seed)


def prepare_replica(task: TaskSpec, seed: int = 0, *, force: bool = False) -> PreparedData:
    """Generate (or reuse) the offline replica for ``seed``, seeded through the
    installation's secret replica key (see :func:`store.build_replica`)."""
    return store.build_replica(task, seed, store.prepare_function(task, "replica"), force=force)


def prepare_real(
    task: TaskSpec, cfg: MLABConfig, from_path: Path | None = None, *, force: bool = False
) -> PreparedData:
    """Download (or take ``from_path``) and prepare the real data."""
    if not cfg.real_source:
        raise DataNotPrepared(f"task {task.key} has no real data to prepare")
    prepare = store.prepare_function(task, "prepare")

    def builder(public: Path, private: Path) -> dict:
        started = time.time()
        if from_path is not None:
            raw, holder = download.stage_from(from_path)
            try:
                prepare(raw, public, private)
            except (DataNotPrepared, FileNotFoundError) as exc:
                raise store.MissingRawFiles(_wrong_files(task, cfg, from_path, exc)) from exc
            finally:
                if holder is not None:
                    holder.cleanup()
            origin = str(from_path)
        else:
            fetch = store.prepare_function(task, "download")
            import tempfile

            with tempfile.TemporaryDirectory(prefix="mle_gym-raw-", dir=public.parent) as tmp:
                raw = Path(tmp)
                try:
                    fetch(raw)
                except DataNotPrepared as exc:
                    if not cfg.has_replica:
                        raise
                    raise download.DownloadError(f"{exc}; or, offline, {_offline(task)}") from exc
                prepare(raw, public, private)
            origin = f"download via {cfg.real_source.get('via', 'web')}"
        return {"origin": origin, "prepare_seconds": round(time.time() - started, 3)}

    return store.build(task, "real", "real", builder, force=force)


def _offline(task: TaskSpec) -> str:
    """The offline alternative to a task's real data (for a task with a replica)."""
    return (
        f"use the task's offline replica (`--data replica`; `mle-gym prepare {task.env_id} "
        "--replica` builds it ahead)"
    )


def _wrong_files(task: TaskSpec, cfg: MLABConfig, from_path: Path, exc: Exception) -> str:
    """Why ``--from from_path`` could not be prepared: the task's complaint (``exc``: the
    file it looked for), the files ``from_path`` holds and what was expected."""
    from mle_gym.authoring.archives import describe_files, files_of
    from mle_gym.data.kaggle import competition_url

    path = from_path.expanduser().resolve()
    complaint = str(exc)
    name, _, rest = complaint.partition(": ")
    if rest and name.lower() in (task.key.lower(), task.env_id.lower().rsplit("-v", 1)[0]):
        complaint = rest  # the task's name, said once already
    competition = cfg.real_source.get("competition")
    if _is_kaggle(cfg) and competition:
        url = competition_url(str(competition), "data")
        expected = f"the data of the Kaggle competition {competition}, from {url}"
    else:
        expected = _source_phrase(cfg)
    return (
        f"--from {from_path} does not hold the files {task.env_id} needs: {complaint}; "
        f"it holds {describe_files(files_of(path))}. Expected: {expected}"
    )


def status(task: TaskSpec, cfg: MLABConfig) -> str:
    """A phrase for ``mle-gym list``."""
    if cfg.self_contained:
        return "self-contained (no data)"
    parts = []
    if cfg.real_source:
        if store.lookup(task, "real") is not None:
            parts.append("real prepared")
        else:
            parts.append(f"real needs preparation ({cfg.real_source.get('via', 'download')})")
    if cfg.has_replica:
        parts.append("replica available")
    return ", ".join(parts)
