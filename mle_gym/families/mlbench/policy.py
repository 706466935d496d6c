"""The scripted reference policy for ML-Bench episodes.

It works from what the agent is shown, one tool call per step: it reads the task
folder, the required argument values and the submission file's name from the first
observation, reads the repository's README (``/workspace/README.md``), writes the
command or script :func:`~mle_gym.families.mlbench.solver.compose_solution` derives from it,
runs it once to check — after the example's setup, which the observation names and the
grading runs first (``mkdir -p results``...) — and submits. If the README documents
nothing that takes the arguments (or the observation hides them) it still writes a file
saying so and submits without running it, so the episode ends with an honest failure
rather than a stall or a tool call known to fail.
"""

from __future__ import annotations

import json
import re
from typing import Any

from mle_gym.families.mlbench.schema import BASH, PYTHON
from mle_gym.families.mlbench.solver import compose_solution

README = "/workspace/README.md"
_FIELD = re.compile(r"^- (Task folder|Submission file|Required argument values \(JSON\)): (.*)$")
_SETUP = "- Before your file runs, this setup runs there: `"


def read_observation(observation: str) -> dict[str, Any]:
    """The machine-readable lines of an ML-Bench first observation (``setup``: the
    example's setup commands, "" when it has none)."""
    out: dict[str, Any] = {
        "path": ".",
        "file": "run.sh",
        "kind": BASH,
        "arguments": None,
        "setup": read_setup(observation),
    }
    for line in observation.splitlines():
        m = _FIELD.match(line.strip())
        if not m:
            continue
        key, value = m.groups()
        if key == "Task folder":
            out["path"] = value.strip()
        elif key == "Submission file":
            name, _, kind = value.partition(" (")
            out["file"] = name.strip()
            out["kind"] = PYTHON if "python" in kind.lower() else BASH
        else:
            try:
                parsed = json.loads(value)
            except json.JSONDecodeError:
                parsed = None
            out["arguments"] = parsed if isinstance(parsed, dict) else None
    return out


def read_setup(observation: str) -> str:
    """The setup an ML-Bench first observation says runs before the submission (the text
    between the backticks of its "Before your file runs" line, which may span lines);
    "" when it names none."""
    start = observation.find(_SETUP)
    if start < 0:
        return ""
    body = observation[start + len(_SETUP) :]
    end = body.find("`\n")
    return (body[:end] if end >= 0 else body.rstrip().removesuffix("`")).strip()


class MLBenchScriptedPolicy:
    """read README -> write the solution -> run it -> submit (see module docstring)."""

    def __init__(self, observation: str) -> None:
        self.task = read_observation(observation)
        self.plan = ["read_readme", "write", "run", "submit"]
        self.solution: str | None = None
        self.last = ""

    def _compose(self, readme: str) -> str | None:
        """The solution the README documents, or None."""
        args = self.task["arguments"]
        if args is None:
            return None
        return compose_solution(readme, self.task["path"], self.task["kind"], args)

    def _no_solution(self) -> str:
        reason = "no documented script takes these arguments"
        if self.task["kind"] == PYTHON:
            return f"raise SystemExit({reason!r})\n"
        return f"echo {reason!r} >&2\nexit 1\n"

    def act(self, observation: str, info: dict[str, Any]) -> dict[str, Any]:
        if self.last == "read_readme":
            readme = observation if info.get("ok", True) else ""
            self.solution = self._compose(_strip_header(readme))
            if self.solution is None:  # nothing to check: the file says why it cannot work
                self.plan = [p for p in self.plan if p != "run"]
        step = self.plan.pop(0) if self.plan else "submit"
        self.last = step
        if step == "read_readme":
            return {"tool": "read_file", "args": {"path": README}}
        if step == "write":
            content = self.solution if self.solution is not None else self._no_solution()
            return {"tool": "write_file", "args": {"path": self.task["file"], "content": content}}
        if step == "run":
            runner = "python" if self.task["kind"] == PYTHON else "bash"
            command = f"{runner} {self.task['file']}"
            setup = self.task["setup"]
            return {
                "tool": "execute",
                "args": {"command": f"{setup}\n{command}" if setup else command},
            }
        return {"tool": "submit", "args": {}}


def _strip_header(text: str) -> str:
    """The file's text from a ``read_file`` observation (without its ``[path: lines ...]``)."""
    first, _, rest = text.partition("\n")
    return rest if first.startswith("[") and "lines" in first else text
