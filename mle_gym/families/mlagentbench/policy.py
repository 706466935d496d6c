"""MLAgentBench's scripted reference policy: the task's reference solution, run as given.

One tool call per step: write each file of the task folder's ``solution/`` over the
workspace (``solution/train.py`` replaces the starter's ``train.py``...), run the
task's ``run`` command once, and submit what it produced. A task without a
``solution/`` folder gets the starter code run as it is — the baseline, so the
episode ends with an honest result rather than a stall.

The calls are those of the env's toolset, read from the first observation's ``## Tools``
line: mle_gym's (``write_file``, ``execute``, ``submit``) or, with
``toolset="mlagentbench"``, MLAgentBench's actions (Write File, Execute Script — or
Python REPL for a run command that is not ``python <script>`` —, Final Answer).
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

from mle_gym.families.mlagentbench.task import MLABConfig

#: the action of MLAgentBench's toolset that tells the two toolsets apart
MLAB_FINAL = "Final Answer"

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


def listed_tools(observation: str) -> list[str]:
    """The tool names of an MLAgentBench first observation (its ``## Tools`` line, as
    :func:`~mle_gym.families.mlagentbench.prompts.task_observation` writes it); [] when
    there is none."""
    lines = observation.splitlines()
    for i in range(len(lines) - 1, -1, -1):
        if lines[i].strip() == "## Tools":
            following = [ln for ln in lines[i + 1 :] if ln.strip()]
            return [n.strip() for n in following[0].split(",")] if following else []
    return []


def _mlab_run(command: str) -> dict[str, Any]:
    """``command`` as an MLAgentBench action: Execute Script for ``python <script>``,
    else Python REPL running it through the shell (failing when the command fails)."""
    try:
        words = shlex.split(command)
    except ValueError:
        words = []
    if len(words) == 2 and words[0] in ("python", "python3") and words[1].endswith(".py"):
        return {"tool": "Execute_Script", "args": {"script_name": words[1]}}
    code = f"import subprocess; subprocess.run({command!r}, shell=True, check=True)"
    return {"tool": "Python_REPL", "args": {"command": code}}


class SolutionPolicy:
    """write the solution's files -> run -> submit (see module docstring)."""

    def __init__(self, folder: Path, cfg: MLABConfig, observation: str = "") -> None:
        files = solution_files(folder)
        if MLAB_FINAL in listed_tools(observation):
            self._submit: dict[str, Any] = {
                "tool": "Final_Answer",
                "args": {"final_answer": "ran the task's reference solution"},
            }
            self._plan: list[dict[str, Any]] = [
                {"tool": "Write_File", "args": {"file_name": name, "content": text}}
                for name, text in files
            ]
            self._plan.append(_mlab_run(cfg.run))
        else:
            self._submit = {"tool": "submit", "args": {}}
            self._plan = [
                {"tool": "write_file", "args": {"path": name, "content": text}}
                for name, text in files
            ]
            self._plan.append({"tool": "execute", "args": {"command": cfg.run}})
        self._plan.append(self._submit)

    def act(self, observation: str, info: dict[str, Any]) -> dict[str, Any]:
        """The next tool call; the submit call once the plan is done."""
        return self._plan.pop(0) if self._plan else dict(self._submit)
