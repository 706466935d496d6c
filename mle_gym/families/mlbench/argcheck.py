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

When the run is traced (the default rules), :func:`on_argv` moves the check from the
text to the real argv of the repository's entry point as it ran
(:mod:`mle_gym.families.mlbench.evidence`): a command that is commented out, sits in a
heredoc, follows ``exit`` or is never reached has no argv, so its values are not found.

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
import subprocess
import sys
import tokenize
from collections import deque
from dataclasses import dataclass, field, replace
from typing import Any

from mle_gym.families.mlbench.schema import PYTHON

_EDGE = r"A-Za-z0-9_.\-"
# Linear on any text: possessive repetitions (``++``, ``*+``) never give back what they
# read. A number is its whole digit run, with the ".digits" part and an exponent kept only
# if no letter, digit or "_" follows (else the bare digit run, which "." may follow).
_END = r"(?![A-Za-z0-9_])"
_EXP = r"(?:[eE][-+]?+\d++)?+"
_NUMBER = re.compile(
    rf"(?<![A-Za-z0-9_.])[-+]?+(?:\d++(?:\.\d*+{_EXP}{_END}|{_EXP}{_END})|\.\d++{_EXP}{_END})"
)
# shlex builds a word one character at a time (quadratic in a word's length): it only
# explains a failed check, and only for texts up to this size
_SHLEX_MAX_CHARS = 20_000
# ".py"/".sh" after a path character (one is enough: a longer path adds nothing to a search)
_SCRIPT_CALL = re.compile(r"(?<=[\w./-])\.(?:py|sh)(?![\w.])")


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
            "notes": list(self.notes),
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
    if "#" not in text:  # nothing to strip; tokenize is slow on long texts
        return text
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


# One shell line up to its comment: separators, and words (plain characters, escapes,
# quoted strings; an unclosed quote runs to the end of the line) each followed by any "#"
# that belongs to the word. What is left starts with a comment's "#". Possessive: linear.
_SHELL_CODE = re.compile(
    r"""(?:[\s;&|()]|(?:[^\\'"#\s;&|()]++|\\.|\\\Z|'[^']*+(?:'|\Z)|"""
    r""""(?:[^"\\]++|\\.|\\\Z)*+(?:"|\Z))#*+)*+""",
    re.DOTALL,
)


def _strip_shell_comment(line: str) -> str:
    """Remove a shell comment: ``#`` at the start of a word, outside quotes."""
    if "#" not in line:
        return line
    end = _SHELL_CODE.match(line).end()  # type: ignore[union-attr]  # matches "" at least
    return line[:end].rstrip() if end < len(line) else line


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
        error = _compile_error(text)
        return (False, f"run.py is not valid Python: {error}") if error else (True, "ok")
    code = strip_comments(text, kind)
    if _SCRIPT_CALL.search(code):
        return True, "ok"
    if len(code) <= _SHLEX_MAX_CHARS:  # only refines the message; shlex is quadratic
        try:
            shlex.split(code, comments=True)
        except ValueError as exc:
            return False, f"run.sh does not parse as shell words: {exc}"
    return False, "run.sh runs no .py or .sh script of the repository"


# Python's compiler holds the GIL for seconds on a megabyte of hostile code (1+1+...+1):
# texts longer than this are compiled in a child process, so other envs keep stepping
_IN_PROCESS_COMPILE_CHARS = 64_000
_COMPILE_CHILD = (
    "import sys\n"
    "try:\n"
    "    compile(sys.stdin.buffer.read().decode('utf-8', 'surrogateescape'), 'run.py', 'exec')\n"
    "except (SyntaxError, ValueError) as exc:\n"
    "    print(exc)\n"
    "except (RecursionError, MemoryError):\n"
    "    print('it is nested too deeply to compile')\n"
)


def _compile_error(text: str) -> str | None:
    """Why ``text`` does not compile as Python (None if it does)."""
    if len(text) <= _IN_PROCESS_COMPILE_CHARS:
        try:
            compile(text, "run.py", "exec")
        except (SyntaxError, ValueError) as exc:
            return str(exc)
        except (RecursionError, MemoryError):  # e.g. 1+1+...+1, a million times
            return "it is nested too deeply to compile"
        return None
    try:
        proc = subprocess.run(
            [sys.executable, "-I", "-c", _COMPILE_CHILD],
            input=text.encode("utf-8", "surrogateescape"),
            capture_output=True,
            timeout=60,
        )
    except subprocess.TimeoutExpired:
        return "it took too long to compile"
    message = proc.stdout.decode("utf-8", "replace").strip()
    if proc.returncode != 0:
        return "the compiler failed on it"
    return message or None


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
        if kind != PYTHON:
            code = runnable_shell(code)
        results = tuple(ArgumentResult(k, v, value_found(v, code)) for k, v in arguments.items())
    type_ok, message = type_check(text, kind, mlbench)
    return ArgumentCheck(results, rule, type_ok, message)


def on_argv(check: ArgumentCheck, found: dict[str, bool] | None) -> ArgumentCheck:
    """``check`` with every value looked up in the argv of the traced run of the entry
    point instead of in the text (``found``: name -> found there; None when the entry
    point never ran properly: nothing is found). The text's result stays in ``notes``."""
    if check.missing_text:
        return check
    found = found or {}
    in_text = [a.name for a in check.arguments if a.found]
    results = tuple(
        ArgumentResult(a.name, a.value, bool(found.get(a.name))) for a in check.arguments
    )
    notes = (*check.notes, "found in the text: " + (", ".join(in_text) or "none"))
    return replace(check, arguments=results, rule=f"{check.rule}-in-traced-argv", notes=notes)


_HEREDOC = re.compile(r"(?<!<)<<(-?)[ \t]*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\2")
_TOP_EXIT = re.compile(r"^exit(?:[ \t]+[0-9]+)?[ \t]*;?[ \t]*$")
_INTERPRETER_WORD = re.compile(r"(?:^|[\s;&|(])(?:\S*/)?(?:python[0-9.]*|bash|sh|dash)(?=\s|$)")


def runnable_shell(code: str) -> str:
    """The lines of a shell text (comments already removed) that can run as commands.

    Dropped: the body of a heredoc fed to anything but an interpreter (``cat <<EOF``
    prints it; ``python - <<EOF`` runs it, so that body stays), and every line after a
    top-level ``exit`` (a line that is only ``exit`` or ``exit N``). One pass over the
    lines, no backtracking. Anything subtler (``if false``, a function never called) is
    left to the traced run, the real evidence (:mod:`mle_gym.families.mlbench.evidence`).
    """
    kept: list[str] = []
    pending: deque[tuple[str, bool, bool]] = deque()  # (delimiter, strip tabs, keep body)
    for line in code.splitlines():
        if pending:
            delimiter, tabs, keep = pending[0]
            if (line.lstrip("\t") if tabs else line) == delimiter:
                pending.popleft()
            elif keep:
                kept.append(line)
            continue
        if _TOP_EXIT.match(line):
            break
        kept.append(line)
        runs_body = _INTERPRETER_WORD.search(line) is not None
        for m in _HEREDOC.finditer(line):
            pending.append((m.group(3), m.group(1) == "-", runs_body))
    return "\n".join(kept)
