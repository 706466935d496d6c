"""Choosing and preparing a task's data source: ``kaggle``, ``replica`` (and ``bundled``).

* ``resolve(task, "auto")`` uses prepared Kaggle data when present, else the
  offline replica (generated on first use and cached), logging a warning so the
  user knows leaderboard medals are not claimed on it.
* ``prepare_kaggle`` downloads through the Kaggle API or takes a zip, runs the
  task's ``prepare(raw, public, private)``, and compares the result with
  MLE-bench's published md5 sums (``data.kaggle.prepared_md5`` in task.yaml).
* ``prepare_replica`` runs the task's ``replica(public, private, seed)`` with a
  seed derived from ``seed`` and the installation's secret replica key
  (:mod:`mle_gym.data.replica_key`), so the public seed alone does not
  determine the answers.
"""

from __future__ import annotations

import logging
import tempfile
from pathlib import Path

from mle_gym.data import kaggle, store
from mle_gym.data.store import DataNotPrepared, MissingRawFiles, NotYetSupported, PreparedData

__all__ = ["DataNotPrepared", "NotYetSupported"]
from mle_gym.families.mlebench.task import MLEBenchTask

log = logging.getLogger(__name__)

DATA_CHOICES = ("auto", "kaggle", "replica", "bundled")


_warned: set[str] = set()


def prepare_replica(task: MLEBenchTask, seed: int = 0, *, force: bool = False) -> PreparedData:
    """Generate (or reuse) the offline replica for ``seed``, seeded through the
    installation's secret replica key (see :func:`store.build_replica`)."""
    if "replica" not in task.data:
        raise DataNotPrepared(f"task {task.key} has no offline replica")
    return store.build_replica(task, seed, store.prepare_function(task, "replica"), force=force)


def _compare_with_mlebench(task: MLEBenchTask, root_public: Path, root_private: Path) -> dict:
    expected = (task.data.get("kaggle") or {}).get("prepared_md5") or {}
    if not expected:
        return {"mlebench_checksums": "not published"}
    mismatched = []
    for rel, md5 in expected.items():
        base = root_public if rel.startswith("public/") else root_private
        path = base / rel.split("/", 1)[1]
        if not path.is_file() or store.md5_file(path) != md5:
            mismatched.append(rel)
    if mismatched:
        log.warning(
            "prepared files differ from MLE-bench's (%s): the Kaggle zip may have changed since "
            "MLE-bench was built; scores may not be comparable to the paper's",
            ", ".join(mismatched),
        )
        return {"mlebench_checksums": "mismatch", "mlebench_mismatched": mismatched}
    return {"mlebench_checksums": "match"}


def prepare_kaggle(
    task: MLEBenchTask, zip_path: Path | None = None, *, force: bool = False
) -> PreparedData:
    """Prepare real Kaggle data from ``zip_path`` or by downloading it."""
    cfg = task.data.get("kaggle")
    if cfg is None:
        raise DataNotPrepared(f"task {task.key} has no Kaggle source")
    if not task.kaggle_supported:
        raise NotYetSupported(
            f"preparing the Kaggle data of '{task.id}' is not yet supported by mle_gym "
            f"(the task is registered with its figures and grader; see `mle-gym list`)"
        )
    prepare = store.prepare_function(task, "prepare")
    competition = str(cfg.get("competition", task.id))

    def builder(public: Path, private: Path) -> dict:
        with tempfile.TemporaryDirectory(prefix="mle_gym-raw-") as tmp:
            src = zip_path
            if src is None:
                src = kaggle.download_competition(
                    competition,
                    Path(tmp),
                    prepare_command=f"`mle-gym prepare {task.id} --from PATH.zip`",
                    offline=_offline_hint(task),
                )
            if src.is_dir():
                raise DataNotPrepared(
                    f"--from {src} is a folder; give the competition's zip, as downloaded "
                    f"from {kaggle.competition_url(competition, 'data')}"
                )
            zip_md5 = store.md5_file(src)
            raw = Path(tmp) / "raw"
            raw.mkdir()
            kaggle.extract_zip(src, raw)
            try:
                prepare(raw, public, private)
            except FileNotFoundError as exc:
                if exc.filename and not Path(str(exc.filename)).is_relative_to(raw):
                    raise  # not a file of the archive
                raise MissingRawFiles(_wrong_files(task, src, raw, exc, competition)) from exc
            expected = cfg.get("zip_md5")
            if expected and zip_md5 != expected:
                log.warning("zip md5 %s differs from MLE-bench's %s", zip_md5, expected)
        return {
            "zip": str(zip_path) if zip_path else f"kaggle:{competition}",
            "zip_md5": zip_md5,
            **_compare_with_mlebench(task, public, private),
        }

    return store.build(task, "kaggle", "kaggle", builder, force=force)


def _offline_hint(task: MLEBenchTask) -> str | None:
    """The offline alternative to Kaggle's data, for messages (None: the task has none)."""
    if "replica" not in task.data:
        return None
    return (
        f"use the task's offline replica (`--data replica`; `mle-gym prepare {task.id} "
        "--replica` builds it ahead)"
    )


def _wrong_files(
    task: MLEBenchTask, src: Path, raw: Path, exc: FileNotFoundError, competition: str
) -> str:
    """Why the files extracted from ``src`` into ``raw`` are not the competition's: the
    file the task's preparation looked for (``exc``) and the files the archive holds."""
    from mle_gym.authoring.archives import describe_files, files_of

    found = files_of(raw)
    if exc.filename:
        missing = str(Path(str(exc.filename)).relative_to(raw))
        nested = [f for f in found if f.endswith("/" + missing)]
        hint = (
            f" (it holds {nested[0]}: the files must be at the top of the archive, as in the "
            "zip Kaggle gives)"
            if nested
            else ""
        )
        why = f"{task.id}'s preparation needs {missing}, which it lacks{hint}"
    else:
        why = f"{task.id}'s preparation stopped: {exc}"
    return (
        f"{src.name} does not hold the files of the Kaggle competition {competition}: {why}; "
        f"it holds {describe_files(found)}. Download the competition's data from "
        f"{kaggle.competition_url(competition, 'data')} and give that zip to --from"
    )


def missing_data_message(task: MLEBenchTask) -> str:
    """What to do when a task has no usable data (for errors at gym.make and reset)."""
    if not task.kaggle_supported:
        return (
            f"{task.env_id} has no prepared data and no offline replica, and preparing its "
            f"Kaggle data is not yet supported by mle_gym"
        )
    competition = (task.data.get("kaggle") or {}).get("competition", task.id)
    return (
        f"{task.env_id} has no prepared data and no offline replica: run "
        f"`mle-gym prepare {task.id}` (Kaggle API credentials, and the rules accepted at "
        f"https://www.kaggle.com/competitions/{competition}/rules), or download the "
        f"competition zip and run `mle-gym prepare {task.id} --from PATH.zip`"
    )


def available(task: MLEBenchTask, data: str = "auto") -> bool:
    """Whether :func:`resolve` can provide data for ``data`` without user action."""
    if data in ("kaggle", "bundled"):
        return store.lookup(task, data) is not None
    if data == "replica":
        return "replica" in task.data
    return (
        store.lookup(task, "kaggle") is not None
        or store.lookup(task, "bundled") is not None
        or "replica" in task.data
    )


def resolve(task: MLEBenchTask, data: str = "auto", replica_seed: int = 0) -> PreparedData:
    """The prepared data an episode uses (see module docstring)."""
    if data not in DATA_CHOICES:
        raise ValueError(f"data must be one of {DATA_CHOICES}, got {data!r}")
    if data in ("kaggle", "bundled"):
        found = store.lookup(task, data)
        if found is None:
            from mle_gym.hints import Hinted, Setting

            raise DataNotPrepared(
                Hinted(
                    f"{data} data for {task.key} is not prepared; run `mle-gym prepare "
                    f"{task.id}` (Kaggle credentials, or --from PATH.zip), or use ",
                    Setting("data", "replica"),
                )
            )
        return found
    if data == "auto":
        for source in ("kaggle", "bundled"):
            found = store.lookup(task, source)
            if found is not None:
                return found
        if "replica" not in task.data:
            raise DataNotPrepared(missing_data_message(task))
        if task.key not in _warned:
            _warned.add(task.key)
            log.warning(
                "%s: Kaggle data not prepared; using the offline replica (seed %d). Leaderboard "
                "medals and percentiles are not claimed on replica data.",
                task.key,
                replica_seed,
            )
    return store.lookup(task, "replica", replica_seed) or prepare_replica(task, replica_seed)
