"""The Python examples of README.md and docs/mlbench.md run as they are written.

Every ```python block is one example. Each runs as a script in a subprocess of this
interpreter (the venv's python), in a fresh temporary folder, with the session's
``$MLE_GYM_HOME`` (tests/conftest.py: offline replicas, the test replica key), and must
exit with status 0. A block that cannot run offline says so with an HTML comment on the
line before it, giving the reason: ``<!-- example: not run (needs an LLM endpoint) -->``;
it is still compiled, so its syntax is checked. Test ids are ``<file>#<section>-<n>``
(the heading's anchor and the block's number in that section), stable under edits
elsewhere in the file.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
#: the markdown files whose Python examples must run
DOCUMENTS = ("README.md", "docs/mlbench.md")
#: how many examples may be marked "not run" (keep them few)
MAX_NOT_RUN = 3

_FENCE = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)
_MARKER = re.compile(r"<!--\s*example:(.*?)-->", re.S)
_NOT_RUN = re.compile(r"^\s*not run \((.*\S.*)\)\s*$", re.S)
_HEADING = re.compile(r"^#{1,6} +(.+?) *$", re.M)


@dataclass(frozen=True)
class Example:
    """One ```python block: where it is, its code, and its marker's text (if any)."""

    document: str
    line: int
    anchor: str
    code: str
    marker: str | None

    @property
    def not_run_reason(self) -> str | None:
        """The reason of a ``not run (...)`` marker, else None."""
        found = _NOT_RUN.match(self.marker or "")
        return found.group(1) if found else None

    def __str__(self) -> str:
        return f"{self.document}:{self.line}"


def _anchor(heading: str) -> str:
    """GitHub's anchor of a heading (lower case, punctuation dropped, spaces as dashes)."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def examples(document: str) -> list[Example]:
    """The ```python blocks of ``document`` (a path relative to the repository)."""
    text = (REPO / document).read_text(encoding="utf-8")
    found: list[Example] = []
    counts: dict[str, int] = {}
    for block in _FENCE.finditer(text):
        before = text[: block.start()]
        headings = _HEADING.findall(before)
        section = _anchor(headings[-1]) if headings else "top"
        counts[section] = counts.get(section, 0) + 1
        # a marker counts only on the line(s) right before the fence
        marker = _MARKER.search(before.rstrip("\n").rsplit("\n", 1)[-1])
        found.append(
            Example(
                document=document,
                line=before.count("\n") + 1,
                anchor=f"{section}-{counts[section]}",
                code=block.group(1),
                marker=marker.group(1).strip() if marker else None,
            )
        )
    return found


ALL = [example for document in DOCUMENTS for example in examples(document)]
RUNNABLE = [example for example in ALL if example.marker is None]


def test_the_documents_have_examples_and_every_marker_gives_a_reason() -> None:
    assert len(ALL) >= 8 and RUNNABLE
    for example in ALL:
        if example.marker is not None:
            assert example.not_run_reason, (
                f"{example}: the marker must read 'example: not run (<reason>)', "
                f"got {example.marker!r}"
            )
    not_run = [str(e) for e in ALL if e.marker is not None]
    assert len(not_run) <= MAX_NOT_RUN, f"too many examples not run: {not_run}"


def test_every_marker_is_right_before_a_python_block() -> None:
    for document in DOCUMENTS:
        text = (REPO / document).read_text(encoding="utf-8")
        for marker in _MARKER.finditer(text):
            after = text[marker.end() :].lstrip(" \t")
            line = text[: marker.start()].count("\n") + 1
            assert after.startswith("\n```python"), (
                f"{document}:{line}: an example marker must be on the line before a ```python block"
            )


@pytest.mark.parametrize("example", ALL, ids=lambda e: f"{e.document}#{e.anchor}")
def test_every_example_compiles(example: Example) -> None:
    compile(example.code, str(example), "exec")  # a SyntaxError names the line


@pytest.mark.slow
@pytest.mark.parametrize("example", RUNNABLE, ids=lambda e: f"{e.document}#{e.anchor}")
def test_example_runs(example: Example, tmp_path: Path) -> None:
    script = tmp_path / "example.py"
    script.write_text(example.code, encoding="utf-8")
    env = dict(os.environ)  # $MLE_GYM_HOME and the replica key of the test session
    assert env.get("MLE_GYM_HOME"), "tests/conftest.py sets the session's MLE_GYM_HOME"
    done = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, (
        f"{example} exited with status {done.returncode}\n--- stdout\n{done.stdout[-4000:]}"
        f"\n--- stderr\n{done.stderr[-4000:]}"
    )
