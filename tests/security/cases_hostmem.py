"""Host memory held per episode: every host-side buffer has a cap.

The cases live in one module per family (``security/hostmem_<part>.py``, each with a
``CASES`` tuple and the ``@attack`` implementations); this module gathers them.
"""

from __future__ import annotations

import importlib

TITLE = "Host memory per episode"

_PARTS = ("hostmem_mlab", "hostmem_env")


def _gather() -> tuple:
    out: list = []
    for name in _PARTS:
        try:
            module = importlib.import_module(f"security.{name}_cases")
        except ModuleNotFoundError as exc:
            if exc.name != f"security.{name}_cases":
                raise
            continue
        out.extend(module.CASES)
    return tuple(out)


CASES = _gather()
