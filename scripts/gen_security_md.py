"""Render SECURITY.md from the security suite's case registry and the code's own limits.

    python scripts/gen_security_md.py           # rewrite SECURITY.md
    python scripts/gen_security_md.py --check   # exit 1 if SECURITY.md is out of date

The attack tables come from ``tests/security/cases.py`` (the registry the tests are
parametrized from) and the limits from the dataclasses and constants that enforce
them, so the document cannot drift from what is tested and enforced:
``tests/security/test_registry.py`` fails when the committed file differs from
:func:`render`. The prose (threat model, out of scope) lives here.
"""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OUTPUT = REPO / "SECURITY.md"


def _registry():
    """The case registry module (tests/security/cases.py)."""
    tests = str(REPO / "tests")
    if tests not in sys.path:
        sys.path.insert(0, tests)
    from security import cases

    return cases


# -- limits ------------------------------------------------------------------------------

#: What each task limit means (a field of mle_gym.tasks.Limits without an entry here is
#: an error: the document must explain every limit).
LIMIT_DOCS = {
    "max_steps": "step budget of an episode (truncation)",
    "time_budget_s": "wall-clock budget of an episode, in seconds (truncation)",
    "exec_timeout_s": "wall-clock limit of one `execute` command or `python` cell, in seconds "
    "(the whole process tree is killed)",
    "memory_mb": "memory + swap of the episode's sandbox, in MB (OOM kill, reported)",
    "pids": "processes and threads of the episode at once",
    "cpus": "CPU cores' worth of time per wall second (CFS quota)",
    "cpu_time_s": "CPU seconds of each process a command starts (RLIMIT_CPU; SIGXCPU, reported)",
    "disk_mb": "size of the workspace volume, in MB (ENOSPC, reported as 'workspace is full')",
}


def _fmt(value: object) -> str:
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int) and value >= 2**20 and value % 2**20 == 0:
        return f"{value // 2**20:,} MiB"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _limits_section() -> list[str]:
    from mle_gym.env import MLEEnv
    from mle_gym.grading import csvread
    from mle_gym.sandbox import kernel, repl_server
    from mle_gym.sandbox.base import SandboxLimits
    from mle_gym.tasks import Limits, SubmissionSpec, get_task
    from mle_gym.tools.builtin import ToolContext

    task_limits = Limits()
    undocumented = [f.name for f in dataclasses.fields(Limits) if f.name not in LIMIT_DOCS]
    if undocumented:
        raise SystemExit(f"document these limits in LIMIT_DOCS: {undocumented}")
    spaceship = get_task("spaceship-titanic").limits
    lines = [
        "## Limits and their defaults",
        "",
        "Per-task limits come from `task.yaml` (`limits:`; the defaults below apply where a "
        "task sets none) and can be overridden by the `gym.make` keyword of the same name.",
        "",
        "| limit (`gym.make` kwarg) | default | spaceship-titanic | meaning |",
        "|---|---|---|---|",
    ]
    for f in dataclasses.fields(Limits):
        default = getattr(task_limits, f.name)
        lines.append(
            f"| `{f.name}` | {_fmt(default)} | {_fmt(getattr(spaceship, f.name))} | "
            f"{LIMIT_DOCS[f.name]} |"
        )
    sandbox = SandboxLimits()
    tool_fields = {f.name: f.default for f in dataclasses.fields(ToolContext)}
    sub_max_mb = {f.name: f.default for f in dataclasses.fields(SubmissionSpec)}["max_mb"]
    obs_chars = inspect.signature(MLEEnv.__init__).parameters["max_observation_chars"].default
    fixed = [
        ("output of one `execute` command", _fmt(sandbox.max_output_bytes), "killed past it"),
        (
            "output of one `python` cell",
            _fmt(repl_server.OUTPUT_LIMIT),
            "excess dropped, cell interrupted",
        ),
        ("private `/tmp` (in memory, counts as memory)", f"{sandbox.tmp_mb:,} MB", "ENOSPC"),
        ("private `/dev/shm`", "256 MB", "ENOSPC"),
        (
            "observation length (`max_observation_chars`)",
            f"{obs_chars:,} characters",
            "head and tail kept, marker in between",
        ),
        ("bytes `read_file` reads", _fmt(tool_fields["max_read_bytes"]), "rest not read"),
        ("content of one `write_file`", _fmt(tool_fields["max_write_bytes"]), "refused"),
        ("entries one `list_files` shows", _fmt(tool_fields["max_list_entries"]), "cut"),
        (
            "submission file (`submission.max_mb` in task.yaml)",
            f"{sub_max_mb:,} MB",
            "invalid",
        ),
        ("columns of a submission CSV", f"{csvread.MAX_COLUMNS:,}", "invalid, before parsing"),
        (
            "rows of a submission CSV",
            "2 x test ids + 1,000",
            "invalid, before parsing",
        ),
        (
            "grace after a `python` cell's timeout",
            f"{kernel.GRACE_S:g} s",
            "interpreter killed, next call starts a fresh one",
        ),
    ]
    lines += [
        "",
        "Fixed limits (not per task):",
        "",
        "| what | limit | past it |",
        "|---|---|---|",
        *[f"| {what} | {limit} | {effect} |" for what, limit, effect in fixed],
    ]
    return lines


# -- prose -------------------------------------------------------------------------------

THREAT_MODEL = """\
## Threat model

The adversary is the **agent**: a policy (typically an LLM under RL optimisation
pressure) whose only interface is `env.step(action)`: tool calls that run shell
commands and Python code of its choice, read, write and edit files, validate and
submit. It is assumed to be fully adaptive and to know this code base, the host's
layout and the paths of the data cache. It wins if it gets reward it did not earn,
learns anything from outside its episode, or damages the host or other episodes.

We defend, on both sandbox backends (`local`: bubblewrap; `docker`: one container
per episode), these invariants:

1. **The private answers are unreachable.** They live in the host's data cache
   (`$MLE_GYM_HOME/data/.../private`) and are never mounted into a sandbox; grading
   runs in the host process on a copy of the submission taken through the
   sandbox's own view of its files. The grader's code and the offline replica
   generators (which could regenerate answers from the seed) are not visible either.
2. **Nothing outside the episode is reachable**: no network (no route, no DNS, not
   even the host's 127.0.0.1 services), no host files but a read-only runtime, no
   host processes, signals or environment variables, no writes outside the
   workspace, read-only task data, no privileges.
3. **Resources are bounded** per episode (memory, processes, CPU, wall time, disk,
   output) and every limit that is hit is reported in the observation as what it
   is (`killed: out of memory`, `killed: wall-clock timeout`, `the workspace is
   full`, ...).
4. **Nothing persists** between episodes: no files, processes or interpreter state
   survive `reset`.
5. **The env never falls over**: `step()` never raises on agent input, hostile
   files and submissions get a specific error, and a normal step and a valid
   submission work right after any attack.

Trusted: the host, its kernel, the Docker engine, the task folders and prepared
data, and the code calling `gym.make`.
"""

HOW_TESTED = """\
## How this is tested

`tests/security/` attacks a real `MLEBench/spaceship-titanic-v0` episode (replica
data) through `env.step()` only, on both backends, with real bubblewrap, a real
Docker engine and real host targets started by the test: TCP servers on 127.0.0.1
and on every other address of the host, a UDP socket, a `sleep` process, and a fake
API key in the host's environment. Every case asserts that

* **(a)** the attack fails: checked on the host too (files unchanged or absent,
  servers that accepted nothing, processes that survived, no process or container
  left), and no observation of the episode reveals the answers (the whole answers
  file, or labels for 10+ test ids that are 95%+ right: a guess scores about 50%);
* **(b)** the observation says so: each phrase in the tables below appears in it;
* **(c)** the env keeps working: a normal command runs, and the sample submission
  is validated and graded with exactly the score the host computes from the
  answers.

The registry of cases (`tests/security/cases.py`) is what the tests are parametrized
from and what the tables below are generated from (`scripts/gen_security_md.py`); a
test fails if this file is not the generated text. Control tests run some attacks
on the `unsafe-local` backend and check that the suite's checks then fail, so they
can detect a real hole. Run the suite with

    .venv/bin/python -m pytest tests/security

(`MLE_GYM_TEST_BACKENDS=local` restricts it to one backend; CI runs both.)
"""

HOLES_FOUND = """\
## Holes this suite found (fixed)

* **Grader denial of service through the CSV parser.** A 0.85 MB submission whose
  header had 100,000 columns kept `step()` busy for about 300 s of host CPU (a
  quadratic duplicate-column check plus per-column parsing), and a 50 MB file with
  a stray quote and a blank line took 16 s and 2 GB of host memory in the
  pure-Python fallback. Headers wider than 10,000 fields and files with more than
  2 x ids + 1,000 rows are now refused before parsing; duplicate names are found
  in linear time (`submission-csv-wide-header`, `submission-csv-row-flood`).
* **`python` tool output flood.** A `print` loop filled the cell's capture file
  in the in-memory /tmp until the interpreter was OOM-killed, reported as a memory
  kill. A cell's output is now capped like a command's (64 MB; the excess is
  dropped) and the cell is interrupted with `output limit exceeded`
  (`resources-output-flood-python`).
* **Symlink race in the file tools.** A `python`-tool thread flipping a path
  between a regular file and a symlink made `read_file` fail with an internal
  `OSError` (from `readlink` after `lstat`). The answers were never exposed (every
  host step is opened with O_NOFOLLOW), but the error was not clear; it is now
  `changed while being read` (`files-symlink-race`).
"""

OUT_OF_SCOPE = """\
## Not defended / out of scope

Be aware of what this does **not** protect against:

* **Kernel and engine exploits.** Both backends share the host kernel; there is no
  VM boundary. A kernel (or Docker engine, or bubblewrap) vulnerability can break
  every guarantee above. In the `local` backend the agent can create unprivileged
  user namespaces (the kernel allows it on the tested machine): they grant nothing
  over the sandbox's mounts, network or processes (`privilege-user-namespace`), but
  they expose more kernel code than the `docker` backend, whose default seccomp
  profile refuses them. Use the `docker` backend, or a VM per worker, when that
  matters.
* **Side channels and host information.** Timing, CPU load, cache behaviour,
  `/proc/meminfo`, `/proc/loadavg`, the kernel version and CPU model are visible.
  In the `local` backend `/proc/1/cmdline` shows the bubblewrap command line,
  which names host paths (the workspace's and the public data's); the private
  folder is next to the public one but is not mounted, so knowing its path does
  not help (`answers-host-path` uses exactly that path).
* **The `unsafe-local` backend** has no isolation at all: the agent can read the
  answers, use the network and leave processes behind. It is for debugging only.
* **Host capacity.** Limits are per episode; N episodes in parallel may use N times
  the limits. Grading runs in the host process: a submission within the size limit
  (200 MB by default) can still cost the grader several seconds and a few GB of
  memory (a single 190 MB field: about 9 s and 2.4 GB).
* **Within an episode, by design**: `/tmp` and the `python` interpreter (its
  variables, threads and child processes) persist between steps of the same
  episode; the agent can use up its own budgets and limits.
* **GPUs** are not exposed to sandboxes and GPU isolation is not addressed.
* **Other configurations are not covered by this suite**: running mle_gym as a
  non-root user (no per-episode uid or workspace quota; address-space rlimits
  instead of memory cgroups), cgroup v2 hosts without delegation (rlimits), a
  remote Docker engine, and images other than the one `mle-gym sandbox build`
  makes. The suite attacks one MLE-bench task; other tasks and families use the
  same sandboxes, file tools and grading library.
* **Task-level leakage.** Some competitions' public data leaks their labels
  (marked `leakage:` in `task.yaml` and left out of evaluation sets); that is a
  property of the data, not of the sandbox.
"""


# -- cases -------------------------------------------------------------------------------


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _phrases(phrases: tuple[str, ...]) -> str:
    shown = [p.replace("\t", "\\t").replace("`", "'") for p in phrases]
    return "<br>".join(f"`{_cell(p)}`" for p in shown)


def _cases_section(reg) -> list[str]:
    lines = [
        "## Attacks and results",
        "",
        f"{len(reg.CASES)} cases, each run on both backends ({2 * len(reg.CASES)} tests). "
        "The last two columns are the phrases the observation must contain on each "
        "backend: every attack below fails on both.",
        "",
        "The env under attack uses these limits (`gym.make` keywords): "
        + ", ".join(f"`{k}={v!r}`" for k, v in reg.ENV_KWARGS.items())
        + "; a case may override one (shown in its row).",
        "",
    ]
    for key, title in reg.CATEGORIES.items():
        cases = reg.cases_in(key)
        lines += [
            f"### {title}",
            "",
            "| case | attack | defence | local | docker |",
            "|---|---|---|---|---|",
        ]
        for c in cases:
            attack = c.attack
            if c.env:
                attack += " (with " + ", ".join(f"`{k}={v!r}`" for k, v in c.env.items()) + ")"
            lines.append(
                f"| `{c.id}` | {_cell(attack)} | {_cell(c.defence)} | "
                f"{_phrases(c.expect['local'])} | {_phrases(c.expect['docker'])} |"
            )
        lines.append("")
    return lines


def render() -> str:
    """The full text of SECURITY.md."""
    reg = _registry()
    parts = [
        "# Security",
        "",
        "<!-- Generated by scripts/gen_security_md.py from tests/security/cases.py and the "
        "code's limits; do not edit by hand (tests/security/test_registry.py checks it). -->",
        "",
        "mle_gym is meant for training agents with reinforcement learning, where a policy "
        "will find any way to reward that is left open. This page says what an agent "
        "can and cannot do, and lists every attack the security suite makes, with what "
        "the agent sees on each sandbox backend.",
        "",
        THREAT_MODEL,
        HOW_TESTED,
        *_cases_section(reg),
        *_limits_section(),
        "",
        HOLES_FOUND,
        OUT_OF_SCOPE,
    ]
    return "\n".join(parts).rstrip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="fail if SECURITY.md is stale")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        current = OUTPUT.read_text() if OUTPUT.exists() else ""
        if current != text:
            print("SECURITY.md is out of date: run python scripts/gen_security_md.py")
            return 1
        print("SECURITY.md is up to date")
        return 0
    OUTPUT.write_text(text)
    print(f"wrote {OUTPUT.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
