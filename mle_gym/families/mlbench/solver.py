"""Write an ML-Bench solution from a repository README: the scripted agent's method.

The bundled repositories document every script in a README section whose heading
names it (``## Training — `examples/classification/train.py```), with its options
(`` `--dataset` ``...) and usage lines (``bash compare_models.sh <dataset> <folds>``),
and their Python API in ``python`` code blocks. :func:`compose_solution` reads those
conventions: for a shell example it picks the documented script whose options (or
positional placeholders) cover every required argument — preferring one inside the
task folder — and writes ``python <script> --name value ...`` (or ``bash <script>
value ...``); for a Python example it takes the code block whose call uses most of
the argument names and sets them as keyword arguments.

This is a README reader, not an oracle: it never sees the reference solution.
"""

from __future__ import annotations

import ast
import posixpath
import re
import shlex
from dataclasses import dataclass

from mle_gym.families.mlbench.schema import PYTHON

_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
_SCRIPT = re.compile(r"`([\w./-]+\.(?:py|sh))`")
_OPTION = re.compile(r"`(--[\w-]+)`")
_PLACEHOLDER = re.compile(r"<([\w-]+)>")
_PY_BLOCK = re.compile(r"```python\n(.*?)```", re.S)


@dataclass(frozen=True)
class ScriptDoc:
    """One documented script: its path, options and positional placeholders."""

    path: str
    options: frozenset[str]
    positionals: tuple[str, ...]


def _sections(readme: str) -> list[tuple[str, str]]:
    sections: list[tuple[str, str]] = []
    head, body = "", list[str]()
    for line in readme.splitlines():
        m = _HEADING.match(line)
        if m:
            sections.append((head, "\n".join(body)))
            head, body = m.group(2), []
        else:
            body.append(line)
    sections.append((head, "\n".join(body)))
    return sections


def documented_scripts(readme: str) -> list[ScriptDoc]:
    """Scripts named in README headings, with the options their sections document."""
    docs = []
    for head, body in _sections(readme):
        m = _SCRIPT.search(head)
        if not m:
            continue
        path = m.group(1)
        base = posixpath.basename(path)
        positionals: tuple[str, ...] = ()
        for line in body.splitlines():
            if base in line and "<" in line:
                required = line.split("[", 1)[0]
                positionals = tuple(_PLACEHOLDER.findall(required))
                break
        docs.append(ScriptDoc(path, frozenset(_OPTION.findall(body)), positionals))
    return docs


def _relative(script: str, task_path: str) -> str:
    return posixpath.relpath(script, task_path) if task_path != "." else script


def compose_command(readme: str, task_path: str, arguments: dict[str, str]) -> str | None:
    """A shell command running the documented script that takes every argument, or None."""
    best: tuple[int, ScriptDoc] | None = None
    for doc in documented_scripts(readme):
        if not all(f"--{k}" in doc.options or k in doc.positionals for k in arguments):
            continue
        if any(p not in arguments for p in doc.positionals):
            continue  # a required positional the instruction does not give
        rel = _relative(doc.path, task_path)
        rank = 0 if not rel.startswith("..") else 1
        if best is None or rank < best[0]:
            best = (rank, doc)
    if best is None:
        return None
    doc = best[1]
    rel = _relative(doc.path, task_path)
    runner = "python" if doc.path.endswith(".py") else "bash"
    words = [runner, rel]
    words += [shlex.quote(arguments[p]) for p in doc.positionals]
    for key, value in arguments.items():
        if key not in doc.positionals:
            words += [f"--{key}", shlex.quote(value)]
    return " ".join(words)


def _literal(value: str) -> ast.expr:
    if re.fullmatch(r"[-+]?\d+", value):
        return ast.Constant(int(value))
    if re.fullmatch(r"[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?", value):
        return ast.Constant(float(value) if not value.isdigit() else int(value))
    if value in ("True", "False", "None"):
        return ast.Constant({"True": True, "False": False, "None": None}[value])
    return ast.Constant(value)


def compose_python(readme: str, arguments: dict[str, str]) -> str | None:
    """Python code from the README's code block that best fits the arguments, or None."""
    best: tuple[int, ast.Module, ast.Call] | None = None
    for block in _PY_BLOCK.findall(readme):
        try:
            tree = ast.parse(block)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and node.keywords:
                names = {kw.arg for kw in node.keywords}
                hits = sum(k in names for k in arguments)
                if hits and (best is None or hits > best[0]):
                    best = (hits, tree, node)
    if best is None:
        return None
    _, tree, call = best
    given = {kw.arg: kw for kw in call.keywords}
    for key, value in arguments.items():
        if key in given:
            given[key].value = _literal(value)
        else:
            call.keywords.append(ast.keyword(arg=key, value=_literal(value)))
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


def compose_solution(
    readme: str, task_path: str, kind: str, arguments: dict[str, str]
) -> str | None:
    """The text of run.sh / run.py for an example, from its repository's README."""
    if kind == PYTHON:
        return compose_python(readme, arguments)
    command = compose_command(readme, task_path, arguments)
    return None if command is None else command + "\n"
