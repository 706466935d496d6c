"""ML-Bench's task folders: the bundled repositories and the declared repository URLs.

Both are read from the ML-Bench tasks of the task index (:func:`mle_gym.task_folders.
task_index` and :func:`~mle_gym.task_folders.candidates`: every task folder of the task
roots, the built-in ``task_assets`` first, then each folder of ``$MLE_GYM_TASKS_PATH``)
whose family is ``mlbench``, with the specs the catalog has
(:func:`mle_gym.task_folders.resolve`): a task stands where the catalog puts it, the first
of its folders, in task-root order, that the family accepts. Nothing else names a
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

The index and the specs are cached per set of task roots (code that edits or adds a
folder in a root already read calls :func:`mle_gym.tasks.clear_caches`); the folders
themselves (``repository/``, its README, ``examples/``) are looked at again at each call.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from mle_gym import task_folders
from mle_gym.errors import SetupError
from mle_gym.families import default_family
from mle_gym.families.mlbench.task import MLBenchTask, is_git_url
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


def mlbench_tasks() -> list[tuple[str, MLBenchTask | None, tuple[TaskEntry, ...]]]:
    """Every ML-Bench task of the index, in index order: (key, the spec the catalog serves
    it from — None when the family rejects every folder of it —, its ML-Bench folders in
    task-root order). A folder counts when its ``family:`` (or its benchmark's default)
    is ``mlbench``; specs come from :func:`mle_gym.task_folders.resolve`, as the catalog's."""
    out: list[tuple[str, MLBenchTask | None, tuple[TaskEntry, ...]]] = []
    for key in task_folders.task_index():
        entries = tuple(
            e
            for e in task_folders.candidates(key)
            if (e.family or default_family(e.benchmark)) == FAMILY
        )
        if entries:
            spec, _ = task_folders.resolve(key)
            out.append((key, spec if isinstance(spec, MLBenchTask) else None, entries))
    return out


def _is_bundled(folder: Path) -> bool:
    """Whether ``folder`` is laid out as a bundled repository (``repository/`` or
    ``examples/`` in it)."""
    return (folder / REPOSITORY_DIR).is_dir() or (folder / EXAMPLES_DIR).is_dir()


def _error_of(folder: Path) -> str:
    found = task_folders.spec_of(folder)
    return str(found) if isinstance(found, TaskError) else "it is not an ML-Bench task"


def discover_bundled() -> BundledFolders:
    """The bundled repositories of every task root (see the module docstring); never
    raises for a folder: a bad one is reported in the result, for its name only."""
    repositories: dict[str, BundledRepository] = {}
    broken: dict[str, MLBenchDataError] = {}
    notes: list[str] = []
    taken: dict[str, Path] = {}  # name -> the folder that stands for it
    for _key, spec, entries in mlbench_tasks():
        head = spec.folder if spec is not None else entries[0].folder
        name = entries[0].id
        for other in entries:
            if other.folder == head or not _is_bundled(other.folder):
                continue
            if isinstance(task_folders.spec_of(other.folder), TaskError):
                notes.append(f"{other.folder} is left out: {_error_of(other.folder)}")
            else:
                notes.append(_twice(name, head, other.folder))
        if name in taken:  # the same id in another benchmark: the first one stands
            if _is_bundled(head):
                notes.append(_twice(name, taken[name], head))
            continue
        taken[name] = head
        if spec is None:
            if _is_bundled(head):
                broken[name] = MLBenchDataError(
                    f"bundled ML-Bench repository {name!r} cannot be used: {_error_of(head)}"
                )
            continue
        problem = _layout_problem(head)
        if problem is not None:
            broken[name] = problem
        elif (head / REPOSITORY_DIR).is_dir():
            repositories[name] = BundledRepository(name, head)
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
    for _key, spec, _entries in mlbench_tasks():
        url = spec.repository if spec is not None else None
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
