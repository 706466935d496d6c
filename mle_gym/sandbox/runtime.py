"""The read-only runtime visible inside a sandbox: system files and a Python environment.

Agent code needs an interpreter with numpy, pandas and scikit-learn. The local
backend exposes ``/usr`` and the Python environment mle_gym itself runs in
(``sys.prefix`` and, for a venv, its base installation), bound read-only at
their host paths so the environment works unchanged. The ``mle_gym`` package
itself is masked (an empty tmpfs over it): its task folders include the
offline-replica generators, which must not be reachable by the agent.

``$MLE_GYM_RUNTIME_PREFIX`` selects another Python environment (a venv path)
for the sandbox instead of the host's.
"""

from __future__ import annotations

import glob
import importlib.util
import os
import sys
from dataclasses import dataclass

SYSTEM_DIRS = ("/usr",)
TOP_LEVEL_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ETC_FILES = ("/etc/ld.so.cache", "/etc/localtime", "/etc/mime.types")
ETC_DIRS = ("/etc/alternatives",)


@dataclass(frozen=True)
class Runtime:
    """What to expose read-only, and the PATH to use inside."""

    ro_dirs: tuple[str, ...]
    masked: tuple[str, ...]
    path: str
    python: str


def _within(path: str, parents: tuple[str, ...]) -> bool:
    return any(path == p or path.startswith(p.rstrip("/") + "/") for p in parents)


def _package_dir() -> str | None:
    spec = importlib.util.find_spec("mle_gym")
    if spec is None or not spec.submodule_search_locations:
        return None
    return os.path.realpath(next(iter(spec.submodule_search_locations)))


def detect_runtime() -> Runtime:
    """The runtime for the local backend (see module docstring)."""
    override = os.environ.get("MLE_GYM_RUNTIME_PREFIX")
    if override:
        prefix = os.path.realpath(override)
        python = os.path.join(prefix, "bin", "python")
        base = os.path.dirname(os.path.dirname(os.path.realpath(python)))
    else:
        prefix = os.path.realpath(sys.prefix)
        base = os.path.realpath(sys.base_prefix)
        python = os.path.join(sys.prefix, "bin", "python")
    ro: list[str] = []
    for d in (prefix, base):
        if not _within(d, SYSTEM_DIRS) and not _within(d, tuple(ro)):
            ro.append(d)
    masked: list[str] = []
    pkg = _package_dir()
    if pkg and _within(pkg, (*SYSTEM_DIRS, *ro)):
        masked.append(pkg)
    # Any other copy inside the runtime (e.g. the task_assets an editable install
    # places in site-packages/mle_gym) is hidden too.
    for d in (prefix, base):
        for hit in sorted(glob.glob(os.path.join(d, "lib", "python3*", "*-packages", "mle_gym"))):
            real = os.path.realpath(hit)
            if real not in masked and os.path.isdir(real):
                masked.append(real)
    path = ":".join(
        dict.fromkeys([os.path.join(prefix, "bin"), "/usr/local/bin", "/usr/bin", "/bin"])
    )
    return Runtime(ro_dirs=tuple(ro), masked=tuple(masked), path=path, python=python)
