"""Loading ML-Bench examples: from Hugging Face, from a local export, or the bundled set.

Sources (:func:`load_examples`):

* ``"hf"`` — the Hugging Face dataset ``super-dainiu/ml-bench`` through the
  ``datasets`` library (``pip install 'mle-gym[hf]'``; needs the network or the
  ``datasets`` cache);
* a path — a local export in the Hugging Face schema: one ``.jsonl``/``.json``/
  ``.parquet`` file, or a folder laid out like the dataset repository
  (``<split>.jsonl``, ``<split>.parquet``, ``data/<split>-*.parquet`` ...);
* ``"bundled"`` — the offline examples of every bundled repository
  (:func:`~mle_gym.families.mlbench.folders.discover_bundled`: the folder
  ``<task root>/mlbench/<name>/`` of an ML-Bench task that has a ``repository/``, in
  the built-in ``task_assets`` or ``$MLE_GYM_TASKS_PATH``), read from each one's
  ``examples/<split>.jsonl``; a repository without that file has no example of the
  split. Each row must name its own folder's repository (``github:
  mle-gym://<name>``); the examples come in id order. A repository with a problem —
  a broken folder, an unreadable or invalid examples file, an id an earlier repository
  (in index order) already uses — is a problem of that repository only: when it is one
  of the ``needed`` repositories, its error is raised; otherwise it is left out with a
  logged warning (once per process and problem) and the others are served. So
  ``MLBench/offline-v0`` serves every sound repository, and ``MLBench/<name>-v0``
  fails with its own repository's error.

Splits are ML-Bench's: ``full`` (260 examples), ``quarter`` (68), ``id_train`` and
``ood_train``. Every row is validated (:mod:`mle_gym.families.mlbench.schema`); ids must be
unique (across all bundled repositories for ``"bundled"``). Errors are
:class:`MLBenchDataError` (or :class:`ExampleError` for a bad row) with the file, line
and field at fault.
"""

from __future__ import annotations

import json
import logging
import re
import threading
from collections.abc import Collection, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from mle_gym._deprecation import removed_names
from mle_gym.families.mlbench.folders import (
    EXAMPLES_DIR,
    BundledRepository,
    MLBenchDataError,
    discover_bundled,
)
from mle_gym.families.mlbench.schema import ExampleError, MLBenchExample, parse_example
from mle_gym.families.mlbench.task import SPLITS

__all__ = [
    "HF_DATASET",
    "SPLITS",
    "ExampleError",
    "MLBenchDataError",
    "bundled_split_file",
    "check_split",
    "file_split",
    "load_examples",
    "write_jsonl",
]

log = logging.getLogger(__name__)

HF_DATASET = "super-dainiu/ml-bench"
SUFFIXES = (".jsonl", ".json", ".parquet")
SOURCE_ALIASES = {"hf": "hf", "huggingface": "hf", "hub": "hf", "bundled": "bundled"}


def check_split(split: str) -> str:
    """Validate a split name (ML-Bench's four)."""
    if split not in SPLITS:
        raise ValueError(f"unknown ML-Bench split {split!r}; choose one of {', '.join(SPLITS)}")
    return split


def load_examples(
    source: str | Path = "bundled", split: str = "full", *, needed: Collection[str] = ()
) -> list[MLBenchExample]:
    """The examples of ``split`` from ``source`` (see the module docstring): in file order,
    or in id order for ``"bundled"``. ``needed`` (``"bundled"`` only): the names of the
    bundled repositories the caller serves (ignoring case), whose problems are raised;
    the problems of the others leave them out with a warning."""
    check_split(split)
    key = SOURCE_ALIASES.get(str(source).lower()) if isinstance(source, str) else None
    if key == "bundled":
        return _bundled_examples(split, {name.lower() for name in needed})
    if key == "hf":
        rows: Iterable[tuple[str, Mapping[str, Any]]] = _hf_rows(split)
        origin = f"{HF_DATASET} (split {split})"
    else:
        path = Path(source).expanduser()
        if not path.exists():
            raise MLBenchDataError(
                f"ML-Bench examples not found at {path}: give an existing .jsonl/.json/.parquet "
                f"export or a folder of them, 'hf' for the Hugging Face dataset {HF_DATASET}, "
                "or 'bundled' for the offline examples"
            )
        rows = _path_rows(path, split)
        origin = str(path)
    examples: list[MLBenchExample] = []
    seen: dict[int, str] = {}
    for where, row in rows:
        _add(examples, seen, parse_example(row, where), where)
    if not examples:
        raise MLBenchDataError(f"no ML-Bench examples of split {split!r} in {origin}")
    return examples


def _add(
    examples: list[MLBenchExample], seen: dict[int, str], example: MLBenchExample, where: str
) -> None:
    """Append ``example`` (read at ``where``); ExampleError naming both places if its id
    was seen before."""
    if example.id in seen:
        raise ExampleError(f"{where}: id {example.id} is used twice (first at {seen[example.id]})")
    seen[example.id] = where
    examples.append(example)


# -- the bundled repositories ---------------------------------------------------------------


def bundled_split_file(repo: BundledRepository, split: str) -> Path | None:
    """``repo``'s ``examples/<split>.jsonl``, or None when it has none. MLBenchDataError
    for a file in ``examples/`` that is not ``<split>.jsonl`` of one of :data:`SPLITS`
    (a misnamed file would otherwise be ignored without a word)."""
    folder = repo.examples_dir
    if not folder.is_dir():
        return None
    expected = {f"{s}.jsonl" for s in SPLITS}
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith("."):
            continue
        if entry.name not in expected or not entry.is_file():
            raise MLBenchDataError(
                f"{entry}: not an examples file; the {EXAMPLES_DIR}/ folder of a bundled "
                f"repository holds one <split>.jsonl file per split "
                f"({', '.join(sorted(expected))})"
            )
    path = folder / f"{split}.jsonl"
    return path if path.is_file() else None


def _bundled_examples(split: str, needed: set[str]) -> list[MLBenchExample]:
    """The examples of ``split`` of every sound bundled repository, in id order (a
    problem of a ``needed`` one is raised, the others' leave them out)."""
    found = discover_bundled()
    for name, error in found.broken.items():
        if name.lower() in needed:
            raise error
        _warn_once(f"bundled ML-Bench repository {name!r} left out: {error}")
    for note in found.notes:
        _warn_once(note)
    if not found.repositories:
        why = "; ".join(found.problems())
        raise MLBenchDataError(
            "no bundled ML-Bench repository found: one is a folder <task root>/mlbench/<name>/ "
            "holding task.yaml, repository/ and examples/, in task_assets or a folder of "
            "$MLE_GYM_TASKS_PATH" + (f" (left out: {why})" if why else "")
        )
    examples: list[MLBenchExample] = []
    seen: dict[int, str] = {}
    for repo in found.repositories.values():
        try:
            own = _repository_examples(repo, split, seen)
        except (MLBenchDataError, ExampleError) as exc:
            if repo.name.lower() in needed:
                raise
            _warn_once(f"bundled ML-Bench repository {repo.name!r} left out: {exc}")
            continue
        for where, example in own:
            seen[example.id] = where
            examples.append(example)
    if not examples:
        names = ", ".join(found.repositories)
        raise MLBenchDataError(
            f"no ML-Bench examples of split {split!r} in the bundled repositories ({names}): "
            f"none has an {EXAMPLES_DIR}/{split}.jsonl"
        )
    return sorted(examples, key=lambda e: e.id)


def _repository_examples(
    repo: BundledRepository, split: str, seen: Mapping[int, str]
) -> list[tuple[str, MLBenchExample]]:
    """The examples of ``split`` of ``repo`` with where each was read; ExampleError for a
    bad row, a row naming another repository or an id used twice (in the file, or by an
    earlier repository: ``seen``), MLBenchDataError for a bad file."""
    path = bundled_split_file(repo, split)
    if path is None:
        return []
    own: list[tuple[str, MLBenchExample]] = []
    mine: dict[int, str] = {}
    for where, row in _read_json(path):
        example = parse_example(row, where)
        if example.github != repo.url:
            raise ExampleError(
                f"{where}: field 'github' is {example.github!r}, but the examples of "
                f"{repo.folder} run in its own repository: write {repo.url!r}"
            )
        first = seen.get(example.id) or mine.get(example.id)
        if first is not None:
            raise ExampleError(f"{where}: id {example.id} is used twice (first at {first})")
        mine[example.id] = where
        own.append((where, example))
    return own


_WARNED: set[str] = set()
_WARNED_LOCK = threading.Lock()


def _warn_once(message: str) -> None:
    """Log ``message`` as a warning, the first time only (envs are made many times)."""
    with _WARNED_LOCK:
        if message in _WARNED:
            return
        _WARNED.add(message)
    log.warning("%s", message)


def write_jsonl(examples: Iterable[MLBenchExample | Mapping[str, Any]], path: Path) -> Path:
    """Write examples (or raw rows) as JSON lines in the Hugging Face schema."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as f:
        for ex in examples:
            row = ex.to_record() if isinstance(ex, MLBenchExample) else dict(ex)
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    return path


# -- Hugging Face ---------------------------------------------------------------------------


def _hf_rows(split: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
    try:
        import datasets
    except ImportError:
        raise MLBenchDataError(
            f"loading {HF_DATASET} needs the 'datasets' library: pip install 'mle-gym[hf]'; "
            "or pass a local export (a .jsonl/.parquet file or folder) as the source"
        ) from None
    try:
        ds = datasets.load_dataset(HF_DATASET, split=split)
    except Exception as exc:  # network, hub, cache errors all end here
        raise MLBenchDataError(
            f"cannot load {HF_DATASET} split {split!r} from the Hugging Face hub "
            f"({type(exc).__name__}: {exc}). Without network access, export the dataset "
            "elsewhere (e.g. load_dataset(...).to_json('full.jsonl')) and pass that file "
            "or its folder as the source"
        ) from exc
    for i, row in enumerate(ds):
        yield f"{HF_DATASET}[{split}] row {i}", row


# -- local files ----------------------------------------------------------------------------

_SPLIT_PREFIX = re.compile(r"^(?P<split>full|quarter|id_train|ood_train)(?:$|[-_.])")


def file_split(path: Path) -> str | None:
    """The split a file's name says it holds (``quarter.jsonl``, ``full-00000-of-00001``)."""
    m = _SPLIT_PREFIX.match(path.name)
    if m:
        return m.group("split")
    m = re.match(r"^ml[-_]?bench[-_](?P<split>full|quarter|id_train|ood_train)\b", path.name, re.I)
    return m.group("split") if m else None


def _split_files(folder: Path, split: str) -> list[Path]:
    """Files of ``split`` in a folder laid out like the dataset repository."""
    found: list[Path] = []
    candidates = [(folder, False), (folder / "data", False)]
    candidates += [(folder / split, True), (folder / "default" / split, True)]
    for sub, whole in candidates:
        if not sub.is_dir():
            continue
        for f in sorted(sub.iterdir()):
            if f.is_file() and f.suffix in SUFFIXES and (whole or file_split(f) == split):
                found.append(f)
        if found:
            return found
    return found


def _path_rows(path: Path, split: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
    if path.is_dir():
        files = _split_files(path, split)
        if not files:
            present = sorted(
                {s for f in path.rglob("*") if f.suffix in SUFFIXES and (s := file_split(f))}
            )
            hint = f"splits found there: {', '.join(present)}" if present else "no split files"
            raise MLBenchDataError(
                f"no file of split {split!r} in {path} (expected {split}.jsonl, {split}.parquet "
                f"or data/{split}-*.parquet; {hint})"
            )
        for f in files:
            yield from _file_rows(f, split, by_name=True)
        return
    if path.suffix not in SUFFIXES:
        raise MLBenchDataError(
            f"{path}: unsupported file type {path.suffix!r}; use .jsonl, .json or .parquet"
        )
    named = file_split(path)
    if named is not None and named != split:
        raise MLBenchDataError(f"{path} holds split {named!r}, but split {split!r} was asked for")
    yield from _file_rows(path, split, by_name=named is not None)


def _file_rows(path: Path, split: str, by_name: bool) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Rows of one file; a ``split`` column, if present, selects the rows of ``split``."""
    rows = _read_parquet(path) if path.suffix == ".parquet" else _read_json(path)
    for where, row in rows:
        if "split" in row and not by_name and row["split"] != split:
            continue
        yield where, row


def _read_json(path: Path) -> Iterator[tuple[str, Mapping[str, Any]]]:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise MLBenchDataError(f"{path}: not UTF-8 text ({exc})") from None
    stripped = text.lstrip()
    if path.suffix == ".json" and stripped.startswith("["):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise MLBenchDataError(f"{path}: not valid JSON: {exc}") from None
        for i, row in enumerate(data):
            yield f"{path} item {i}", row
        return
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise MLBenchDataError(f"{path} line {lineno}: not valid JSON: {exc}") from None
        yield f"{path} line {lineno}", row


def _read_parquet(path: Path) -> Iterator[tuple[str, Mapping[str, Any]]]:
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
    except Exception as exc:
        raise MLBenchDataError(f"{path}: not a readable parquet file ({exc})") from None
    for i, row in enumerate(table.to_pylist()):
        yield f"{path} row {i}", row


# the one folder of bundled repositories became a folder per repository, in any task root
__getattr__ = removed_names(
    __name__,
    {
        "bundled_dir": "bundled repositories are task folders now, <task root>/mlbench/<name>/ "
        "in any task root; see mle_gym.families.mlbench.folders.bundled_repositories()"
    },
)
