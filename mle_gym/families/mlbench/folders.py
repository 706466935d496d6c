"""ML-Bench's task folders on disk: the bundled repositories and the declared URLs.

Every task root (:func:`mle_gym.paths.task_assets_dirs`: the built-in ``task_assets``,
then each folder of ``$MLE_GYM_TASKS_PATH``) may hold ML-Bench task folders
``<root>/mlbench/<name>/``. This module reads two things from them, and nothing else
names a repository:

* **bundled repositories** (:func:`bundled_repositories`): a folder with a
  ``repository/`` sub-folder is one repository, whole::

      <root>/mlbench/<name>/
          task.yaml, description.md   the task: an env over this repository's examples
          repository/                 the repository's files (README.md required)
          examples/<split>.jsonl      its examples, each with github: mle-gym://<name>

  ``mle-gym://<name>`` (:mod:`.repos`) is its ``repository/`` folder, and the
  ``bundled`` source (:mod:`.loader`) serves the examples of every such folder;
* **declared repositories** (:func:`declared_repositories`): the git URLs task folders
  give as ``mlbench: {repository: <url>}`` — the repositories ML-Bench's default
  superproject is consulted for (:mod:`.pins`).

Nothing is cached: the folders are listed again at each call (a few small files), so a
folder added or removed, or a changed ``$MLE_GYM_TASKS_PATH``, is seen at once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from mle_gym import paths
from mle_gym.errors import SetupError

BUNDLED_SCHEME = "mle-gym://"
REPOSITORY_DIR = "repository"
EXAMPLES_DIR = "examples"
README = "README.md"

_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
#: a git URL: ``<scheme>://<host>/...``, ``file:///path`` or scp-like ``user@host:path``
_GIT_URL = re.compile(r"^(?:(?:https?|ssh|git)://[^\s/]+/\S+|file:///\S+|[\w.-]+@[\w.-]+:\S+)$")


def is_git_url(text: str) -> bool:
    """Whether ``text`` is a git URL as ``mlbench: {repository: ...}`` takes it:
    ``https://host/owner/name.git`` (or ``http``, ``ssh``, ``git``), ``file:///path`` or
    scp-like ``user@host:path``; no blanks, no leading ``-``."""
    return bool(_GIT_URL.match(text))


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


def mlbench_folders() -> list[Path]:
    """Every ``<root>/mlbench/<name>/`` folder, task roots in order, names sorted within a
    root; a root listed twice (the same folder after resolving links) counts once."""
    folders: list[Path] = []
    seen: set[Path] = set()
    for root in paths.task_assets_dirs():
        base = root / "mlbench"
        try:
            real = base.resolve()
        except OSError:
            continue
        if real in seen or not base.is_dir():
            continue
        seen.add(real)
        folders.extend(sorted(p for p in base.iterdir() if p.is_dir()))
    return folders


def bundled_repositories() -> dict[str, BundledRepository]:
    """The bundled repositories of every task root, by name (in discovery order).

    Raises :class:`MLBenchDataError` naming the folder at fault when a ``repository/``
    has no README.md (the repository documents its scripts there), a folder has
    ``examples/`` but no ``repository/``, or two roots hold a repository of the same name.
    """
    found: dict[str, BundledRepository] = {}
    for folder in mlbench_folders():
        repo_dir = folder / REPOSITORY_DIR
        if not repo_dir.is_dir():
            if (folder / EXAMPLES_DIR).is_dir():
                raise MLBenchDataError(
                    f"{folder} has an {EXAMPLES_DIR}/ folder but no {REPOSITORY_DIR}/ folder: "
                    f"a bundled ML-Bench repository keeps its files in {folder / REPOSITORY_DIR}"
                )
            continue
        if not (repo_dir / README).is_file():
            raise MLBenchDataError(
                f"{repo_dir} has no {README}: a bundled ML-Bench repository documents its "
                "scripts and their options in a README.md at its root"
            )
        repo = BundledRepository(folder.name, folder)
        if repo.name in found:
            raise MLBenchDataError(
                f"bundled ML-Bench repository {repo.name!r} is defined twice: "
                f"{found[repo.name].folder} and {folder} (rename or remove one)"
            )
        found[repo.name] = repo
    return found


def declared_repositories() -> tuple[str, ...]:
    """The git URLs the task folders declare (``mlbench: {repository: <url>}`` in
    task.yaml), in discovery order, each once.

    A task.yaml that cannot be read, or whose ``repository`` is not a git URL
    (:func:`is_git_url`), declares nothing here: its family reports the problem when the
    task is loaded."""
    urls: list[str] = []
    for folder in mlbench_folders():
        block = _mlbench_block(folder / "task.yaml")
        raw = block.get("repository") if block else None
        url = raw.strip() if isinstance(raw, str) else ""
        if is_git_url(url) and url not in urls:
            urls.append(url)
    return tuple(urls)


def _mlbench_block(where: Path) -> dict[str, object] | None:
    """The ``mlbench:`` mapping of a task.yaml, or None (absent, unreadable, malformed)."""
    try:
        raw = yaml.load(where.read_text(encoding="utf-8"), Loader=_YAML_LOADER)
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return None
    block = raw.get("mlbench") if isinstance(raw, dict) else None
    return block if isinstance(block, dict) else None
