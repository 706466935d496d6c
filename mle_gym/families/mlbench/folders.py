"""ML-Bench's task folders: the bundled repositories and the declared repository URLs.

Both are read from the ML-Bench tasks of the task index (:func:`mle_gym.task_folders.
task_index` and :func:`~mle_gym.task_folders.candidates`: every task folder of the task
roots, the built-in ``task_assets`` first, then each folder of ``$MLE_GYM_TASKS_PATH``)
whose family is ``mlbench``, each task.yaml parsed by the family's own parser
(:func:`.task.parse_task`). A task stands where the catalog (:mod:`mle_gym.tasks`) puts
it: the first of its folders, in task-root order, that the index lists and the family
accepts — the index's own entry whenever that one is valid. Nothing else names a
repository:

* **bundled repositories** (:func:`discover_bundled`): the folder of the task ``<name>``
  is a bundled repository when it has a ``repository/`` sub-folder, whole::

      <root>/mlbench/<name>/
          task.yaml, description.md   the task: an env over this repository's examples
          repository/                 the repository's files (README.md required)
          examples/<split>.jsonl      its examples, each with github: mle-gym://<name>

  ``mle-gym://<name>`` (:mod:`.repos`) is its ``repository/`` folder, and the
  ``bundled`` source (:mod:`.loader`) serves the examples of every such folder. A
  problem is the problem of one repository, never of the others: a folder whose
  ``repository/`` has no README.md, that has ``examples/`` but no ``repository/``, or
  whose task.yaml the family rejects is a **broken** repository (:attr:`BundledFolders.
  broken`: its own env and ``mle-gym://<name>`` fail with that error, the ``offline``
  env leaves it out with a warning), and another folder of the same name (in a later
  task root) is a **duplicate**, ignored and reported (:attr:`BundledFolders.notes`).
  A folder the index leaves out (task.yaml unreadable, no ``id``...) is no task and no
  repository; ``mle-gym list`` says why;
* **declared repositories** (:func:`declared_repositories`): the git URLs the ML-Bench
  tasks declare (:attr:`.task.MLBenchTask.repository`, ``mlbench: {repository: <url>}``
  in task.yaml) — the repositories ML-Bench's default superproject is consulted for
  (:mod:`.pins`).

The index is cached per set of task roots (code that adds a folder to a root already
read calls :func:`mle_gym.tasks.clear_caches`); the parsed task.yaml files are cached
while the file is unchanged, and the folders themselves (``repository/``, its README,
``examples/``) are looked at again at each call.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from pathlib import Path

from mle_gym import task_folders
from mle_gym.errors import SetupError
from mle_gym.families import default_family
from mle_gym.families.mlbench.task import MLBenchTask, is_git_url, parse_task
from mle_gym.task_folders import TaskEntry
from mle_gym.task_spec import TaskError

__all__ = [
    "BUNDLED_SCHEME",
    "EXAMPLES_DIR",
    "FAMILY",
    "README",
    "REPOSITORY_DIR",
    "BundledFolders",
    "BundledRepository",
    "MLBenchDataError",
    "MLBenchFolder",
    "bundled_repositories",
    "declared_repositories",
    "discover_bundled",
    "is_git_url",
    "mlbench_tasks",
]

BUNDLED_SCHEME = "mle-gym://"
REPOSITORY_DIR = "repository"
EXAMPLES_DIR = "examples"
README = "README.md"
#: the family whose task folders are read here
FAMILY = "mlbench"


class MLBenchDataError(SetupError):
    """Examples cannot be loaded; the message says what is missing and how to get it."""


@dataclass(frozen=True)
class BundledRepository:
    """One bundled repository: the task folder ``<root>/mlbench/<name>/`` that holds it."""

    name: str
    folder: Path

    @property
    def path(self) -> Path:
        """The repository's files: ``<folder>/repository``."""
        return self.folder / REPOSITORY_DIR

    @property
    def examples_dir(self) -> Path:
        """Its examples: ``<folder>/examples`` (``<split>.jsonl`` files; may be absent)."""
        return self.folder / EXAMPLES_DIR

    @property
    def url(self) -> str:
        """What its examples name as ``github``: ``mle-gym://<name>``."""
        return f"{BUNDLED_SCHEME}{self.name}"


@dataclass(frozen=True)
class MLBenchFolder:
    """One folder of an ML-Bench task, as the index lists it: ``task`` is its task.yaml
    parsed by the family, or None when the family rejects it (``error`` says why)."""

    entry: TaskEntry
    task: MLBenchTask | None
    error: str | None = None

    @property
    def folder(self) -> Path:
        return self.entry.folder

    @property
    def bundled(self) -> bool:
        """Whether the folder is laid out as a bundled repository (``repository/`` or
        ``examples/`` in it)."""
        return (self.folder / REPOSITORY_DIR).is_dir() or (self.folder / EXAMPLES_DIR).is_dir()


@dataclass(frozen=True)
class BundledFolders:
    """What :func:`discover_bundled` found: the usable bundled repositories by name (in
    index order), the broken ones by name (each with the error its env and
    ``mle-gym://<name>`` raise) and the notes on folders left aside (duplicates,
    folders the family rejects while a later folder of the same task is valid). A name
    is in one of ``repositories`` and ``broken`` at most."""

    repositories: dict[str, BundledRepository]
    broken: dict[str, MLBenchDataError]
    notes: tuple[str, ...] = ()

    def lookup(self, name: str) -> BundledRepository | None:
        """The usable repository ``name``; its :class:`MLBenchDataError` if it is broken;
        None if there is no bundled repository of that name."""
        if name in self.broken:
            raise self.broken[name]
        return self.repositories.get(name)

    def problems(self) -> list[str]:
        """Every problem found, one line each (broken repositories, then the notes)."""
        return [str(err) for err in self.broken.values()] + list(self.notes)


def mlbench_tasks() -> list[tuple[str, tuple[MLBenchFolder, ...]]]:
    """Every ML-Bench task of the index (key, its folders in task-root order), in index
    order. A folder counts when its ``family:`` (or its benchmark's default) is
    ``mlbench``; each one's task.yaml is parsed by the family (cached while unchanged)."""
    out: list[tuple[str, tuple[MLBenchFolder, ...]]] = []
    for key in task_folders.task_index():
        found = tuple(
            _folder(entry)
            for entry in task_folders.candidates(key)
            if (entry.family or default_family(entry.benchmark)) == FAMILY
        )
        if found:
            out.append((key, found))
    return out


def _chosen(folders: tuple[MLBenchFolder, ...]) -> MLBenchFolder | None:
    """The folder the catalog serves the task from: the first one the family accepts."""
    return next((f for f in folders if f.task is not None), None)


def discover_bundled() -> BundledFolders:
    """The bundled repositories of every task root (see the module docstring); never
    raises for a folder: a bad one is reported in the result, for its name only."""
    repositories: dict[str, BundledRepository] = {}
    broken: dict[str, MLBenchDataError] = {}
    notes: list[str] = []
    taken: dict[str, Path] = {}  # name -> the folder that stands for it
    for _key, folders in mlbench_tasks():
        chosen = _chosen(folders)
        head = chosen or folders[0]
        name = head.entry.id
        for other in folders:
            if other is head or not other.bundled:
                continue
            if other.task is None:
                notes.append(f"{other.folder} is left out: {other.error}")
            else:
                notes.append(_twice(name, head.folder, other.folder))
        if name in taken:  # the same id in another benchmark: the first one stands
            if head.bundled:
                notes.append(_twice(name, taken[name], head.folder))
            continue
        taken[name] = head.folder
        if chosen is None:
            if head.bundled:
                broken[name] = MLBenchDataError(
                    f"bundled ML-Bench repository {name!r} cannot be used: {head.error}"
                )
            continue
        problem = _layout_problem(chosen.folder)
        if problem is not None:
            broken[name] = problem
        elif (chosen.folder / REPOSITORY_DIR).is_dir():
            repositories[name] = BundledRepository(name, chosen.folder)
    return BundledFolders(repositories, broken, tuple(notes))


def bundled_repositories() -> dict[str, BundledRepository]:
    """The usable bundled repositories of every task root, by name (in index order);
    :func:`discover_bundled` also says which are broken and why."""
    return discover_bundled().repositories


def declared_repositories() -> tuple[str, ...]:
    """The git URLs the ML-Bench tasks declare (:attr:`MLBenchTask.repository`), in index
    order, each once. Only the folder each task is served from counts: a folder the index
    or the family rejects, and a second folder of a task, declare nothing (the catalog
    reports them)."""
    urls: list[str] = []
    for _key, folders in mlbench_tasks():
        chosen = _chosen(folders)
        url = chosen.task.repository if chosen is not None and chosen.task else None
        if url is not None and url not in urls:
            urls.append(url)
    return tuple(urls)


# -- internals ------------------------------------------------------------------------------


def _twice(name: str, first: Path, second: Path) -> str:
    return (
        f"bundled ML-Bench repository {name!r} is defined twice: {first} and {second} "
        f"(the first is used; rename or remove one)"
    )


def _layout_problem(folder: Path) -> MLBenchDataError | None:
    """Why the layout of the task folder ``folder`` is not that of a bundled repository
    (None when it is one, or holds neither ``repository/`` nor ``examples/``)."""
    repo_dir = folder / REPOSITORY_DIR
    if not repo_dir.is_dir():
        if (folder / EXAMPLES_DIR).is_dir():
            return MLBenchDataError(
                f"{folder} has an {EXAMPLES_DIR}/ folder but no {REPOSITORY_DIR}/ folder: "
                f"a bundled ML-Bench repository keeps its files in {repo_dir}"
            )
        return None
    if not (repo_dir / README).is_file():
        return MLBenchDataError(
            f"{repo_dir} has no {README}: a bundled ML-Bench repository documents its "
            "scripts and their options in a README.md at its root"
        )
    return None


def _folder(entry: TaskEntry) -> MLBenchFolder:
    where = entry.folder / "task.yaml"
    try:
        st = os.stat(where)
    except OSError as exc:
        return MLBenchFolder(entry, None, f"{where}: cannot be read: {exc}")
    parsed = _parse(entry.folder, (st.st_mtime_ns, st.st_size, st.st_ino))
    if isinstance(parsed, TaskError):
        return MLBenchFolder(entry, None, str(parsed))
    return MLBenchFolder(entry, parsed)


@functools.lru_cache(maxsize=1024)
def _parse(folder: Path, stamp: tuple[int, int, int]) -> MLBenchTask | TaskError:
    """``folder``'s task.yaml parsed by the family, or why it cannot be (``stamp``: the
    file's mtime, size and inode, so an edited file is read again)."""
    try:
        return parse_task(folder, task_folders.read_task_yaml(folder), FAMILY)
    except TaskError as exc:
        return exc
    except Exception as exc:  # as the catalog does: a parser failure is the folder's
        return TaskError(
            f"{folder / 'task.yaml'}: the {FAMILY} family could not read it "
            f"({type(exc).__name__}: {exc})"
        )
