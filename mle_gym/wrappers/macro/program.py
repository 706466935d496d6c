"""The in-sandbox solution program as the wrapper uses it: its text (read from the package
data file ``solution_program.py``), its version, the tool call that runs one fit with it and
the parsing of the result line it prints.

The wrapper writes the program into the workspace at :data:`SCRIPT_PATH` with the
``write_file`` tool and runs it with the ``python`` tool (imported once, so the data stays
loaded between fits) or the ``execute`` tool (``python macro/macro_solution.py '<json>'``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import shlex
from importlib import resources
from typing import Any

from mle_gym.wrappers.macro.moves import Move

#: Where the program lands in the workspace (relative to the workspace folder).
SCRIPT_PATH = "macro/macro_solution.py"
#: Folder (in the workspace) of each candidate's test predictions, ``<move>.csv``.
PREDS_DIR = "macro/preds"
#: Key of the JSON line the program prints: ``{"macro_result": {...}}``.
RESULT_KEY = "macro_result"
#: Package data file holding the program.
PROGRAM_RESOURCE = "solution_program.py"

SOLUTION_SCRIPT: str = (
    resources.files("mle_gym.wrappers.macro").joinpath(PROGRAM_RESOURCE).read_text(encoding="utf-8")
)
"""The program's source text, exactly as written into the workspace."""
SCRIPT_VERSION = hashlib.sha256(SOLUTION_SCRIPT.encode()).hexdigest()[:16]
"""A digest of :data:`SOLUTION_SCRIPT`; part of every fit-cache key."""


def preds_path(move: Move) -> str:
    """Workspace path of a fit move's test predictions."""
    return f"{PREDS_DIR}/{move.name}.csv"


def fit_spec(move: Move, metric: str, val_fraction: float, split_seed: int) -> dict[str, Any]:
    """The program's parameters for one fit move (see the program's docstring)."""
    return {
        "move": move.name,
        "features": move.features,
        "family": move.family,
        "setting": move.setting,
        "metric": metric,
        "val_fraction": val_fraction,
        "split_seed": split_seed,
        "out": preds_path(move),
    }


def fit_action(runner: str, spec: dict[str, Any], timeout: float | None) -> dict[str, Any]:
    """The wrapped env's tool call (``{"tool": ..., "args": ...}``) that runs one fit.

    ``runner`` is "python" (import the program in the persistent interpreter and call
    ``main``) or "execute" (run it as a script); ``timeout`` (seconds) is passed on when set.
    """
    text = json.dumps(spec, sort_keys=True)
    extra = {"timeout": timeout} if timeout else {}
    if runner == "python":
        code = (
            "import os as _os, sys as _sys\n"
            "_dir = _os.path.abspath('macro')\n"
            "if _dir not in _sys.path:\n"
            "    _sys.path.insert(0, _dir)\n"
            "import macro_solution\n"
            f"macro_solution.main({text!r})\n"
        )
        return {"tool": "python", "args": {"code": code, **extra}}
    command = f"python {SCRIPT_PATH} {shlex.quote(text)}"
    return {"tool": "execute", "args": {"command": command, **extra}}


def result_line(text: str) -> dict[str, Any] | None:
    """The program's result in a tool observation (the last JSON result line), or None."""
    for line in reversed(text.splitlines()):
        line = line.strip()
        if line.startswith("{") and RESULT_KEY in line:
            with contextlib.suppress(ValueError):
                value = json.loads(line).get(RESULT_KEY)
                if isinstance(value, dict):
                    return value
    return None
