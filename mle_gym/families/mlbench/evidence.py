"""Execution evidence: did the repository's own entry point run with the instructed values?

An exit status and files in the task folder are things a submission can fake
(``touch model.pkl; exit 0``), and a command line in the text can be commented out or
never reached. The graded run is therefore traced (:mod:`mle_gym.sandbox.traced`) and
the trace must show it:

* :func:`entry_point` reads the example's reference solution (``output``) for the
  script it runs — ``python train.py ...`` -> ``<task folder>/train.py``, ``bash
  run_all.sh`` -> ``<task folder>/run_all.sh``, ``python -m pkg.mod`` -> the module —
  choosing the command of the reference that carries most of the required values;
* :func:`check_trace` looks in the trace for an ``execve`` that runs that entry point
  and passes when one such exec

  - is a real interpreter (python / a POSIX shell, by the kernel's executable path;
    not a program in a writable place such as the workspace or ``/tmp``) running the
    entry point as its script (``python [opts] train.py``, ``bash x.sh``, a shebang),
    or ``python -m`` of the module;
  - has no start-up hook in its environment (``LD_PRELOAD``, ``PYTHONSTARTUP``,
    ``BASH_ENV``, exported shell functions...) that would run other code first;
  - ended by itself with exit status 0 (or was still running when the run's time ran
    out) — an entry point killed by the submission does not count.

Examples of type ``Python Code`` have no entry point in this sense (the submission
*is* the code); their runs are traced too, but only the exit status is checked.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from dataclasses import dataclass
from typing import Any

from mle_gym.families.mlbench.argcheck import strip_comments, value_found
from mle_gym.families.mlbench.schema import BASH, MLBenchExample
from mle_gym.sandbox.traced import ExecRecord, Trace

PYTHON_EXE = re.compile(r"^python(\d+(\.\d+)*)?$")
SHELL_EXE = frozenset({"bash", "sh", "dash", "zsh", "ksh", "mksh"})
#: places a submission can write: a program there is not an interpreter of the system
WRITABLE_PREFIXES = ("/tmp/", "/var/tmp/", "/dev/shm/", "/run/", "/proc/")
#: environment variables that make an interpreter run other code before the entry point
HOOK_VARS = frozenset(
    {
        "LD_PRELOAD",
        "LD_AUDIT",
        "LD_LIBRARY_PATH",
        "PYTHONSTARTUP",
        "PYTHONHOME",
        "PYTHONINSPECT",
        "PYTHONEXECUTABLE",
        "BASH_ENV",
        "ENV",
        "SHELLOPTS",
        "BASHOPTS",
        "PS4",
        "GCONV_PATH",
    }
)
_PY_OPT_WITH_ARG = "WXQ"
_SHELL_OPT_WITH_ARG = frozenset({"-o", "+o", "-O", "+O", "--rcfile", "--init-file"})


@dataclass(frozen=True)
class EntryPoint:
    """What the graded run must execute: a script (repository-relative path) or a module."""

    kind: str  # "script" or "module"
    target: str

    def describe(self) -> str:
        return f"python -m {self.target}" if self.kind == "module" else self.target


@dataclass(frozen=True)
class Evidence:
    """The trace check's verdict."""

    ok: bool
    reason: str
    entry: EntryPoint | None
    record: ExecRecord | None = None
    candidates: int = 0
    found: dict[str, bool] | None = None  # required value -> in the argv of that run

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "reason": self.reason,
            "entry_point": self.entry.describe() if self.entry else None,
            "exec": self.record.to_dict() if self.record else None,
            "candidates": self.candidates,
            "values_in_argv": self.found,
        }


# -- the entry point of an example ---------------------------------------------------------


def _simple_commands(text: str) -> list[list[str]]:
    """The words of each simple command of a shell text (operators split commands)."""
    out: list[list[str]] = []
    for line in text.splitlines():
        lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|()")
        lexer.whitespace_split = True
        lexer.commenters = "#"
        words: list[str] = []
        try:
            for tok in lexer:
                if tok and set(tok) <= set(";&|()"):
                    if words:
                        out.append(words)
                    words = []
                else:
                    words.append(tok)
        except ValueError:
            continue
        if words:
            out.append(words)
    return out


def _strip_assignments(words: list[str]) -> list[str]:
    i = 0
    while i < len(words) and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[i]):
        i += 1
    return words[i:]


def _python_target(args: list[str]) -> tuple[str, str] | None:
    """``("script"|"module", target)`` of python's arguments (after the program)."""
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            return ("script", args[i + 1]) if i + 1 < len(args) else None
        if a == "-" or not a.startswith("-"):
            return ("script", a) if a != "-" else None
        if a.startswith("--"):  # --help, --version...
            i += 1
            continue
        for j, ch in enumerate(a[1:], start=1):
            if ch == "c":
                return None  # code on the command line: no script
            if ch == "m":
                rest = a[j + 1 :]
                if rest:
                    return ("module", rest)
                return ("module", args[i + 1]) if i + 1 < len(args) else None
            if ch in _PY_OPT_WITH_ARG:
                if not a[j + 1 :]:
                    i += 1  # the option's argument is the next word
                break
        i += 1
    return None


def _shell_target(args: list[str]) -> str | None:
    """The script a shell runs (None for ``-c``, ``-s``, ``-i`` or stdin)."""
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            return args[i + 1] if i + 1 < len(args) else None
        if a in _SHELL_OPT_WITH_ARG:
            i += 2
            continue
        if a[:1] in "-+" and len(a) > 1:
            if a[:1] == "-" and not a.startswith("--") and any(c in a for c in "csi"):
                return None
            i += 1
            continue
        return a
    return None


def _program_target(words: list[str]) -> tuple[str, str] | None:
    """What a command line runs: ``("script"|"module", target)`` or None."""
    words = _strip_assignments(words)
    if not words:
        return None
    name = posixpath.basename(words[0])
    if PYTHON_EXE.match(name):
        return _python_target(words[1:])
    if name in SHELL_EXE:
        script = _shell_target(words[1:])
        return ("script", script) if script else None
    for w in words:  # ./run.sh, torchrun train.py, accelerate launch x.py...
        if w.endswith((".py", ".sh")) and not w.startswith("-"):
            return ("script", w)
    return None


def entry_point(example: MLBenchExample) -> EntryPoint | None:
    """The script (or module) the example's reference solution runs, or None."""
    if example.type != BASH:
        return None
    best: tuple[int, int, EntryPoint] | None = None
    folder = example.path
    code = strip_comments(example.output, BASH)
    for n, words in enumerate(_simple_commands(code)):
        plain = _strip_assignments(words)
        if plain[:1] == ["cd"] and len(plain) == 2:
            folder = posixpath.normpath(posixpath.join(folder, plain[1]))
            continue
        target = _program_target(words)
        if target is None:
            continue
        kind, name = target
        if kind == "script":
            name = posixpath.normpath(posixpath.join(folder, name))
        text = " ".join(words)
        hits = sum(value_found(v, text) for v in example.arguments.values())
        if best is None or hits > best[0]:
            best = (hits, -n, EntryPoint(kind, name))
    return best[2] if best else None


# -- the trace -------------------------------------------------------------------------------


def _runs_entry(record: ExecRecord, entry: EntryPoint, root: str) -> list[str] | None:
    """The arguments after the entry point if ``record`` runs it, else None."""
    exe = posixpath.basename(record.exe or "")
    args = list(record.argv[1:])
    if PYTHON_EXE.match(exe):
        target = _python_target(args)
    elif exe in SHELL_EXE:
        script = _shell_target(args)
        target = ("script", script) if script else None
    else:
        return None
    if target is None or target[0] != entry.kind:
        return None
    kind, name = target
    if kind == "module":
        return args[args.index(name) + 1 :] if name == entry.target and name in args else None
    cwd = record.cwd or "/"
    path = posixpath.normpath(posixpath.join(cwd, name))
    want = posixpath.normpath(posixpath.join(root, entry.target))
    if path != want:
        return None
    return args[args.index(name) + 1 :]


def _writable(exe: str | None, root: str) -> bool:
    if not exe:
        return True
    return exe.startswith((root.rstrip("/") + "/", *WRITABLE_PREFIXES))


def _hooks(record: ExecRecord) -> list[str]:
    found = [k for k in record.env if k in HOOK_VARS or k.startswith("BASH_FUNC_")]
    warnings = record.env.get("PYTHONWARNINGS", "")
    if any("." in part.split(":")[2] for part in warnings.split(",") if part.count(":") >= 2):
        found.append("PYTHONWARNINGS")  # a warning category names a module to import
    return sorted(found)


def check_trace(
    trace: Trace, example: MLBenchExample, entry: EntryPoint, root: str = "/workspace"
) -> Evidence:
    """Whether ``trace`` shows ``entry`` run and finished (module docstring). ``found``
    says which required values the argv of that run carries (the finished run with the
    most of them; with no finished run, the best of the others, for the report)."""
    reasons: list[str] = []
    finished: tuple[int, ExecRecord, dict[str, bool]] | None = None
    unfinished: tuple[int, ExecRecord, dict[str, bool]] | None = None
    candidates = 0
    for rec in trace.records:
        args = _runs_entry(rec, entry, root)
        if args is None:
            continue
        candidates += 1
        if _writable(rec.exe, root):
            reasons.append(f"{rec.exe} is not an interpreter of the system")
            continue
        hooks = _hooks(rec)
        if hooks:
            reasons.append("start-up hooks in its environment: " + ", ".join(hooks))
            continue
        text = " ".join(args + [f"{k}={v}" for k, v in rec.env.items()])
        found = {k: value_found(v, text) for k, v in example.arguments.items()}
        hit = (sum(found.values()), rec, found)
        code, sig, replaced = trace.exits.get(rec.seq, (None, None, False))
        if replaced:
            reasons.append("its process executed another program instead of finishing")
        elif not (code == 0 or (trace.timed_out and code is None)):
            if code is None and sig is None:
                reasons.append("it was still running when the command ended")
            else:
                how = f"exit status {code}" if code is not None else f"signal {sig}"
                reasons.append(f"it ended with {how}")
        else:
            if finished is None or hit[0] > finished[0]:
                finished = hit
            continue
        if unfinished is None or hit[0] > unfinished[0]:
            unfinished = hit
    if finished is not None:
        _, rec, found = finished
        return Evidence(True, "the entry point ran and finished", entry, rec, candidates, found)
    if not candidates:
        return Evidence(False, f"the run never executed the entry point {entry.describe()}", entry)
    return Evidence(
        False,
        f"no proper run of the entry point {entry.describe()}: "
        + "; ".join(dict.fromkeys(reasons)),
        entry,
        unfinished[1] if unfinished else None,
        candidates,
        unfinished[2] if unfinished else None,
    )
