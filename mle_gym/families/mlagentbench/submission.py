"""Whether an MLAgentBench episode handed in what is graded: ``grade.submission_exists``.

What the hidden evaluator grades depends on the mode:

* by default, the files named by ``mlagentbench.outputs`` as the final code left them in
  /workspace (``submission.csv``, ``checkpoints/*``, ``*.py``...): the submission exists
  when *every* output pattern names at least one regular file there — a literal name is
  that file (followed through links inside the sandbox's view, as the copy for grading
  does), a glob at least one matching file (links left out, as there);
* with ``rerun=True``, the final code, run again in a fresh sandbox: the submission exists
  when every file the run command names (``train.py`` of ``python train.py``; any word
  ending in ``.py`` or ``.sh`` that is not an option) is a regular file in /workspace. A
  command naming no file (``python -m pkg``) runs the workspace as it is, which is there.

Existence says nothing of validity: a submission.csv with the wrong columns exists, and
``valid`` is False. Checked before anything else of the grade (a changed read-only file
does not hide that the file was made).
"""

from __future__ import annotations

import shlex

from mle_gym.tools.fs import FsError, SandboxFS

#: a word of the run command naming a script the command runs
SCRIPT_SUFFIXES = (".py", ".sh")


def _is_glob(pattern: str) -> bool:
    return any(c in pattern for c in "*?[")


def _is_file(fs: SandboxFS, path: str) -> bool:
    try:
        fs.read_bytes(path, 0)
    except FsError:
        return False
    return True


def outputs_present(fs: SandboxFS, root: str, patterns: tuple[str, ...]) -> bool:
    """True when every pattern (relative to ``root``) names at least one regular file."""
    from mle_gym.families.mlagentbench.evaluation import matching_files

    base = root.rstrip("/")
    for pattern in patterns:
        if _is_glob(pattern):
            try:
                if not matching_files(fs, root, (pattern,)):
                    return False
            except FsError:  # root cannot be listed: nothing is there to grade
                return False
        elif not _is_file(fs, f"{base}/{pattern}"):
            return False
    return True


def run_scripts(command: str) -> tuple[str, ...]:
    """The relative script paths ``command`` names (``python train.py`` -> ``train.py``);
    () for a command naming none or one shlex cannot split."""
    try:
        words = shlex.split(command)
    except ValueError:
        return ()
    return tuple(
        w
        for w in words
        if w.endswith(SCRIPT_SUFFIXES)
        and not w.startswith(("-", "/"))
        and "=" not in w
        and ".." not in w.split("/")
    )


def submission_exists(
    fs: SandboxFS, root: str, outputs: tuple[str, ...], run: str, rerun: bool
) -> bool:
    """Whether what the evaluator grades was handed in (see module docstring)."""
    if rerun:
        return outputs_present(fs, root, run_scripts(run))
    return outputs_present(fs, root, outputs)
