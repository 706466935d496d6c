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


# -- the light install -------------------------------------------------------------------------

LIGHT_INSTALL = ".venv/bin/pip install -e . && .venv/bin/mle-gym run --env {env} --agent scripted"
FIRST_ENV = "MLEBench/spaceship-titanic-v0"
#: distributions imported when present but not needed (each importer falls back without
#: them; a light venv without them runs the first episode, checked by hand)
OPTIONAL_IMPORTS = {
    "rich": "scikit-learn's optional progress display (sklearn.utils._optional_dependencies)",
    "charset-normalizer": "numpy.f2py's optional encoding detection",
    "setuptools": "its _distutils_hack .pth file, loaded at interpreter start-up",
}
#: what the first episode's agent code imports inside the sandbox (the reference solution)
SANDBOX_CODE = REPO / "task_assets" / "mlebench" / "spaceship-titanic" / "solution.py"

_RUN_AND_LIST_MODULES = """
import json, sys
from mle_gym.cli import main
status = main(["run", "--env", sys.argv[1], "--agent", "scripted", "--quiet", "--no-trajectory"])
with open(sys.argv[2], "w") as out:
    json.dump(sorted(sys.modules), out)
sys.exit(status)
"""


def _core_distributions() -> set[str]:
    """The distributions ``pip install -e .`` installs: pyproject's ``dependencies`` and,
    transitively, theirs (without extras), as normalised names."""
    import importlib.metadata as md
    import tomllib

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    todo = [Requirement(r) for r in project["dependencies"]]
    seen: set[str] = set()
    while todo:
        req = todo.pop()
        name = canonicalize_name(req.name)
        if name in seen or (req.marker is not None and not req.marker.evaluate({"extra": ""})):
            continue
        seen.add(name)
        try:
            todo.extend(Requirement(r) for r in md.requires(req.name) or [])
        except md.PackageNotFoundError:  # an optional platform dependency not installed here
            continue
    return seen


def _imported_distributions(modules: set[str]) -> set[str]:
    """The installed distributions (normalised names) that provide the top-level
    ``modules``; the standard library and mle_gym itself are left out."""
    import importlib.metadata as md

    from packaging.utils import canonicalize_name

    providers = md.packages_distributions()
    found: set[str] = set()
    for module in modules - set(sys.stdlib_module_names) - {"mle_gym"}:
        found.update(canonicalize_name(d) for d in providers.get(module, []))
    return found - {"mle-gym"}


def _top_level_imports(path: Path) -> set[str]:
    import ast

    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names


def test_the_readme_gives_the_light_install_line_beside_the_full_one() -> None:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert LIGHT_INSTALL.format(env=FIRST_ENV) in text
    assert '.venv/bin/pip install torch==2.13.0 && .venv/bin/pip install -e ".[all]"' in text
    assert '.venv/bin/python -m pytest -m "not slow"' in text


@pytest.mark.slow
def test_the_first_episode_needs_only_the_core_dependencies(tmp_path: Path) -> None:
    """What the light install line runs imports, on the host and in the sandbox, only what
    pyproject's core ``dependencies`` install: no extra (docker, torch, openai...)."""
    listing = tmp_path / "modules.json"
    done = subprocess.run(
        [sys.executable, "-c", _RUN_AND_LIST_MODULES, FIRST_ENV, str(listing)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    import json

    host = {name.split(".")[0] for name in json.loads(listing.read_text())}
    used = _imported_distributions(host | _top_level_imports(SANDBOX_CODE)) - set(OPTIONAL_IMPORTS)
    core = _core_distributions()
    assert {"pandas", "scikit-learn", "gymnasium"} <= used  # the listing is real
    assert used <= core, f"the first episode imports beyond the core install: {used - core}"
