"""MLAgentBench's scripted reference policy: the task's reference solution, run as given.

One tool call per step: write each file of the task folder's ``solution/`` over the
workspace (``solution/train.py`` replaces the starter's ``train.py``...), run the
task's ``run`` command once, and submit what it produced. A task without a
``solution/`` folder gets the starter code run as it is — the baseline, so the
episode ends with an honest result rather than a stall.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mle_gym.families.mlagentbench.task import MLABConfig

#: solution files larger than this are not written through a tool call
MAX_SOLUTION_FILE_BYTES = 1 << 20


def solution_files(folder: Path) -> list[tuple[str, str]]:
    """``(relative path, text)`` of every file in ``folder/solution`` (``__pycache__``
    aside), in path order. ValueError for a file too large to write through a tool call
    (over :data:`MAX_SOLUTION_FILE_BYTES`) or not text: the reference solution would not be
    the one the task ships."""
    root = folder / "solution"
    if not root.is_dir():
        return []
    out = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        if "__pycache__" in path.parts:
            continue
        if path.stat().st_size > MAX_SOLUTION_FILE_BYTES:
            raise ValueError(
                f"{path}: the reference solution's files are written through write_file, "
                f"which takes at most {MAX_SOLUTION_FILE_BYTES} bytes"
            )
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise ValueError(f"{path}: a reference solution file must be UTF-8 text") from None
        out.append((path.relative_to(root).as_posix(), text))
    return out


class SolutionPolicy:
    """write the solution's files -> run -> submit (see module docstring)."""

    def __init__(self, folder: Path, cfg: MLABConfig) -> None:
        self._plan: list[dict[str, Any]] = [
            {"tool": "write_file", "args": {"path": name, "content": text}}
            for name, text in solution_files(folder)
        ]
        self._plan += [
            {"tool": "execute", "args": {"command": cfg.run}},
            {"tool": "submit", "args": {}},
        ]

    def act(self, observation: str, info: dict[str, Any]) -> dict[str, Any]:
        """The next tool call; ``submit`` once the plan is done."""
        return self._plan.pop(0) if self._plan else {"tool": "submit", "args": {}}
