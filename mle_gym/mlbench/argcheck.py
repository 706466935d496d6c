"""The argument check and the output-type check of ML-Bench, on the submitted text.

ML-Bench counts a solution only if every required argument value appears in it. Its
rule is a case-insensitive substring test on the raw text, so ``lr=0`` is "found" in
``--lr 0.01`` and a value written in a comment counts. Here, by default:

* comments are removed first (``#`` comments of shell and Python, found with real
  tokenizers where the text parses);
* a value must occur as a whole token — not glued to letters, digits, ``_``, ``.`` or
  ``-`` on either side (``0`` is not found in ``0.01``, ``resnet`` not in
  ``resnet50``) — case-insensitively, with runs of white space treated as one;
* a numeric value also matches any number of the same value (``0.001`` = ``1e-3``).

``compat="mlbench"`` applies ML-Bench's substring rule instead, for comparison.

The output-type check: a ``Bash Script`` solution must run a ``.py`` or ``.sh``
script; a ``Python Code`` solution must be valid Python (``compile``). In compat mode
it is ML-Bench's text test (``".sh "`` or ``".py "`` must occur in a Bash solution and
must not occur in a Python one).
"""

from __future__ import annotations

import io
import math
import re
import shlex
import tokenize
from dataclasses import dataclass, field
from typing import Any

from mle_gym.mlbench.schema import PYTHON

_EDGE = r"A-Za-z0-9_.\-"
_NUMBER = re.compile(r"(?<![A-Za-z0-9_.])[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?(?![A-Za-z0-9_])")
_SCRIPT_CALL = re.compile(r"[\w./-]+\.(?:py|sh)(?![\w.])")


@dataclass(frozen=True)
class ArgumentResult:
    """One required argument: its value and whether the submission contains it."""

    name: str
    value: str
    found: bool

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "value": self.value, "found": self.found}


@dataclass(frozen=True)
class ArgumentCheck:
    """The argument check of one submission."""

    arguments: tuple[ArgumentResult, ...]
    rule: str  # "token" or "mlbench-substring"
    type_ok: bool
    type_message: str
    missing_text: bool = False
    notes: tuple[str, ...] = field(default=())

    @property
    def passed(self) -> bool:
        """Every argument found (an example without arguments passes)."""
        return not self.missing_text and all(a.found for a in self.arguments)

    @property
    def fraction_found(self) -> float:
        """Share of the required values found (1.0 when nothing is required)."""
        if self.missing_text:
            return 0.0
        if not self.arguments:
            return 1.0
        return sum(a.found for a in self.arguments) / len(self.arguments)

    @property
    def missing(self) -> list[str]:
        return [a.name for a in self.arguments if not a.found]

    def to_dict(self) -> dict[str, Any]:
        return {
            "passed": self.passed,
            "rule": self.rule,
            "fraction_found": round(self.fraction_found, 6),
            "missing": self.missing,
            "arguments": [a.to_dict() for a in self.arguments],
            "type_ok": self.type_ok,
            "type_message": self.type_message,
        }


def strip_comments(text: str, kind: str) -> str:
    """``text`` without ``#`` comments (Python tokens or shell words; quotes respected).

    Text that does not tokenize (a syntax error) is returned with only whole-line
    comments removed, so a broken submission is still checked.
    """
    if kind == PYTHON:
        return _strip_python_comments(text)
    return "\n".join(_strip_shell_comment(line) for line in text.splitlines())


def _strip_python_comments(text: str) -> str:
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return "\n".join(ln for ln in text.splitlines() if not ln.lstrip().startswith("#"))
    lines = text.splitlines(keepends=True)
    for tok in reversed(tokens):
        if tok.type == tokenize.COMMENT:
            row, col = tok.start
            line = lines[row - 1]
            lines[row - 1] = line[:col] + line[tok.end[1] :]
    return "".join(lines)


def _strip_shell_comment(line: str) -> str:
    """Remove a shell comment: ``#`` at the start of a word, outside quotes."""
    quote: str | None = None
    prev = " "
    i = 0
    while i < len(line):
        ch = line[i]
        if quote:
            if ch == "\\" and quote == '"':
                i += 2
                prev = "x"
                continue
            if ch == quote:
                quote = None
        elif ch == "\\":
            i += 2
            prev = "x"
            continue
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (prev.isspace() or prev in ";&|()"):
            return line[:i].rstrip()
        prev = ch
        i += 1
    return line


def _as_number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def value_found(value: str, text: str) -> bool:
    """Whether ``value`` occurs in ``text`` as a whole token (see the module docstring)."""
    needle = re.sub(r"\s+", " ", value.strip()).lower()
    if not needle:
        return True
    haystack = re.sub(r"\s+", " ", text).lower()
    pattern = re.compile(rf"(?<![{_EDGE}]){re.escape(needle)}(?![{_EDGE}])")
    if pattern.search(haystack):
        return True
    wanted = _as_number(needle)
    if wanted is None:
        return False
    for m in _NUMBER.finditer(haystack):
        got = _as_number(m.group(0))
        if got is not None and math.isclose(got, wanted, rel_tol=1e-12, abs_tol=0.0):
            return True
    return False


def type_check(text: str, kind: str, compat: bool = False) -> tuple[bool, str]:
    """The output-type check (module docstring): ``(ok, message)``."""
    if compat:
        calls = ".sh " in text or ".py " in text
        if kind == PYTHON:
            return (not calls, "ok" if not calls else "Python code must not call a script")
        return (calls, "ok" if calls else "no '.sh ' or '.py ' in the command")
    if kind == PYTHON:
        try:
            compile(text, "run.py", "exec")
        except (SyntaxError, ValueError) as exc:
            return False, f"run.py is not valid Python: {exc}"
        return True, "ok"
    code = strip_comments(text, kind)
    if _SCRIPT_CALL.search(code):
        return True, "ok"
    try:
        shlex.split(code, comments=True)
    except ValueError as exc:
        return False, f"run.sh does not parse as shell words: {exc}"
    return False, "run.sh runs no .py or .sh script of the repository"


def check_arguments(
    text: str | None, arguments: dict[str, str], kind: str, *, compat: str | None = None
) -> ArgumentCheck:
    """Check a submission's text against the required argument values.

    ``text`` is the submitted ``run.sh``/``run.py`` (None when it does not exist);
    ``compat="mlbench"`` applies ML-Bench's original rules.
    """
    mlbench = compat == "mlbench"
    rule = "mlbench-substring" if mlbench else "token"
    if text is None:
        return ArgumentCheck(
            tuple(ArgumentResult(k, v, False) for k, v in arguments.items()),
            rule,
            type_ok=False,
            type_message="no submission file",
            missing_text=True,
        )
    if mlbench:
        low = text.lower()
        results = tuple(ArgumentResult(k, v, v.lower() in low) for k, v in arguments.items())
    else:
        code = strip_comments(text, kind)
        results = tuple(ArgumentResult(k, v, value_found(v, code)) for k, v in arguments.items())
    type_ok, message = type_check(text, kind, mlbench)
    return ArgumentCheck(results, rule, type_ok, message)
