"""Old names kept for one release: importing or reading one warns and names the new place.

A module that moved leaves a shim at its old path that calls :func:`alias_module`;
a renamed attribute is served by the module's ``__getattr__`` through
:func:`renamed_attribute`. Both emit :class:`DeprecationWarning` attributed to the
caller's line.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Mapping
from types import ModuleType
from typing import Any

REMOVAL = "the old name will be removed in the next release"


def alias_module(old: str, new: str) -> ModuleType:
    """Make module ``old`` an alias of module ``new`` (the same object in ``sys.modules``),
    warning once, at the first import of ``old``. Call it from the shim at the old path."""
    warnings.warn(
        f"{old} is deprecated: it moved to {new}; {REMOVAL}", DeprecationWarning, stacklevel=3
    )
    module = importlib.import_module(new)
    sys.modules[old] = module
    return module


def renamed_attribute(
    module: str, name: str, renamed: Mapping[str, str], namespace: Mapping[str, Any]
) -> Any:
    """For a module ``__getattr__``: the object now called ``renamed[name]`` (from
    ``namespace``, the module's globals), with a warning; AttributeError for other names."""
    if name in renamed:
        new = renamed[name]
        warnings.warn(
            f"{module}.{name} is deprecated: it was renamed {module}.{new}; {REMOVAL}",
            DeprecationWarning,
            stacklevel=3,
        )
        return namespace[new]
    raise AttributeError(f"module {module!r} has no attribute {name!r}")
