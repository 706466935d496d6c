"""Where mle_gym keeps things on the host.

* ``home()``: the cache root, ``$MLE_GYM_HOME`` or ``~/.cache/mle_gym``. Prepared
  data lives under ``home()/data`` and episode workspaces under
  ``home()/workspaces`` unless told otherwise.
* ``task_assets_dirs()``: the folders searched for task definitions: the
  ``task_assets`` shipped with the package (inside the wheel) or next to the
  source tree (editable install), then every folder listed in
  ``$MLE_GYM_TASKS_PATH`` (``os.pathsep`` separated).
"""

from __future__ import annotations

import os
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


def home() -> Path:
    """The cache root (created on first use by whoever writes into it)."""
    env = os.environ.get("MLE_GYM_HOME")
    if env:
        return Path(env).expanduser().resolve()
    return (Path.home() / ".cache" / "mle_gym").resolve()


def data_root() -> Path:
    """Root of prepared task data: ``<home>/data``."""
    return home() / "data"


def workspaces_root() -> Path:
    """Default parent of episode workspaces: ``<home>/workspaces``."""
    return home() / "workspaces"


def builtin_task_assets() -> Path:
    """The task_assets folder of this installation.

    In a wheel it is ``mle_gym/task_assets``; in a source checkout (editable
    install) it is ``<repo>/task_assets``.
    """
    inside = _PACKAGE_DIR / "task_assets"
    if inside.is_dir():
        return inside
    return _PACKAGE_DIR.parent / "task_assets"


def task_assets_dirs() -> list[Path]:
    """All folders holding task definitions, built-in first."""
    dirs = [builtin_task_assets()]
    extra = os.environ.get("MLE_GYM_TASKS_PATH", "")
    for part in extra.split(os.pathsep):
        if part.strip():
            dirs.append(Path(part).expanduser().resolve())
    return dirs
