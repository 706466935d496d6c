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
    from mle_gym import episode_runner, transcript
    from mle_gym.env import MLEEnv
    from mle_gym.evaluation import episode
    from mle_gym.families.mlagentbench import undo
    from mle_gym.families.mlebench import grade_report
    from mle_gym.grading import csvread
    from mle_gym.grading.submission import SubmissionSpec
    from mle_gym.sandbox import kernel, repl_server
    from mle_gym.sandbox.base import SandboxLimits
    from mle_gym.tasks import Limits, get_task
    from mle_gym.tools import parsing
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
        (
            "one action (text, JSON argument string or message content)",
            f"{parsing.MAX_ACTION_CHARS:,} characters",
            "refused unread, with an error observation",
        ),
        (
            "one reply frame of the `python` interpreter",
            _fmt(kernel.MAX_FRAME),
            "protocol error: interpreter killed, next call starts a fresh one",
        ),
        (
            "a `python` cell's traceback",
            f"{repl_server.TRACEBACK_LIMIT:,} characters",
            "cut",
        ),
        (
            "one observation as the env returns it (and `info['error']`)",
            "`max_observation_chars` + 4,000 characters",
            "head and tail kept, marker in between",
        ),
        ("a grade report's message", f"{grade_report.MAX_MESSAGE_CHARS:,} characters", "cut"),
        (
            "`render()` transcript (kept only with `render_mode='ansi'`)",
            f"{transcript.MAX_TRANSCRIPT_CHARS:,} characters",
            "oldest steps dropped, with a note",
        ),
        (
            "tool errors kept in `run_episode`'s result / `episode.json`",
            f"{episode_runner.MAX_ERRORS} / {episode.MAX_TOOL_ERRORS}",
            "only counted",
        ),
        (
            "MLAgentBench Undo Edit Script backups (host memory)",
            f"{_fmt(undo.MAX_TOTAL_BYTES)} per episode, "
            f"{undo.MAX_VERSIONS_PER_FILE} versions per file",
            "oldest dropped first, said in the observation",
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
   Under the default MLE-bench grading, `validate_submission` runs MLE-bench's
   grader on the answers, as MLE-bench's own validation does, and reports only
   "valid" or the grader's rejection (messages written never to quote answers;
   library errors by type only), never a score.
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
6. **Host code never follows a path the agent controls.** Before the host reads or
   writes a live workspace (grading's copy of the submission, `mle-gym eval`'s
   `final/` snapshot, MLAgentBench's rerun copy and refills, ML-Bench's grading
   tree, kept workspaces) every agent process of the episode is stopped
   (`Sandbox.frozen()`: the cgroup freezer, or `docker pause`; if freezing fails
   they are killed), and every path is opened component by component relative to
   directory file descriptors with no-follow semantics (`mle_gym/sandbox/hostfs.py`),
   so a link swapped in thousands of times a second by a thread the agent left
   running is never followed, and host writes never land outside the workspace.
7. **Nothing the agent starts outlives its step**, on both backends: a command that
   kills its own wrapper shell, double-forks or detaches is swept, and so is a child
   a `python` cell started. The sweep runs out of the agent's reach (as root or from
   the host, through the cgroup), never from a process of the agent's uid.
8. **No reward without the work.** Whatever a grader trusts (a file, a timing, an
   exit code, an execution) is something the agent cannot forge: see "What each
   family's grader trusts" below.
9. **`step()` answers in bounded time on any input**: actions are parsed in linear
   time with a size bound, every pipe to the `python` interpreter has a deadline, a
   stuck or hostile interpreter is killed and reported.
10. **No channel between episodes** through kernel objects that outlive a process
    (keyrings, SysV IPC, POSIX message queues, abstract sockets, `/dev/shm`).
11. **Host resources and the host's terminal are safe**: every per-episode host-side
    buffer has a cap (listed under limits), kept workspaces are inert copies
    (contents, not privileges), and agent text printed by the CLI, `render()` and
    reports has its control characters escaped and cannot pose as the CLI's own lines.

Trusted: the host, its kernel, the Docker engine, the task folders and prepared
data, and the code calling `gym.make`.
"""

GRADERS_INTRO = """\
## What each family's grader trusts

A reward is only as good as the evidence the grader reads. For every family, this is
what decides the reward, and why agent code cannot forge it:
"""


#: (family, what the grader trusts, why the agent cannot forge it)
GRADER_ROWS: list[tuple[str, str, str]] = [
    (
        ("MLE-bench, Kaggle data"),
        ("the submission file in the workspace, read once, and the private answers"),
        (
            "The answers are never mounted into a sandbox. The submission is read with every "
            "agent process of the episode frozen, through directory fds with no-follow "
            "(`Sandbox.frozen()`, `hostfs`), so no link swapped in by a running thread "
            "redirects the read; grading runs on the host."
        ),
    ),
    (
        ("MLE-bench, offline replicas"),
        ("the same, with answers generated from a secret"),
        (
            "Each replica is generated from HMAC-SHA256(installation key, `<task>:<seed>`); "
            "the key (`$MLE_GYM_HOME/replica.key`, mode 0600, or `$MLE_GYM_REPLICA_KEY`) "
            "never enters a sandbox (its environment is built from scratch, the cache root is"
            " never mounted). Rerunning the public generator with the public seed gives other"
            " data and scores at chance (`reward-replica-regenerate`). The same key and seed "
            "give byte-identical data; cache folders and manifests carry the key id."
        ),
    ),
    (
        ("MLAgentBench"),
        (
            "the benchmark's own evaluation of the agent's final files, rerun in a fresh "
            "sandbox on a copy taken while the episode is frozen; for timing tasks, the "
            "timing guard's signed report"
        ),
        (
            "The rerun copy and the refills are made through directory fds with no-follow "
            "while every agent process is stopped. A timing run is measured by a guard that "
            "is a child subreaper: the clock stops only when the whole process tree of the "
            "run has exited, the evaluated outputs are hashed at that moment, and the report "
            "is signed with a per-run HMAC key the guard reads from its stdin before it "
            "starts anything (never inherited; the guard is non-dumpable). A missing or "
            "unsigned report, a stopped or killed guard, or an output whose hash changed "
            "after the clock stopped makes the run not count."
        ),
    ),
    (
        ("ML-Bench (default rules)"),
        (
            "an execution trace of the graded run, made in a fresh sandbox: the repository's "
            "entry point exec'd by a system interpreter, with the instructed values in its "
            "real argv, ending by itself with status 0"
        ),
        (
            "The graded command runs under a ptrace tracer started as root inside the grading"
            " sandbox (capabilities SYS_PTRACE, SETUID, SETGID, SETPCAP only), the command "
            "itself as the sandbox uid with no capabilities: it cannot signal, stop, trace or"
            " read the tracer, and its output goes to a pipe only the tracer holds, so it "
            "cannot forge the report. Every exec of every process is recorded with its argv, "
            "working directory, the kernel's path of the executable and its start-up "
            "environment. An interpreter in a writable place (workspace, `/tmp`), a start-up "
            "hook (`LD_PRELOAD`, `PYTHONSTARTUP`, `BASH_ENV`, exported shell functions...), "
            "an entry point killed or replaced, a command commented out, printed or never "
            'reached, or a missing or cut trace all fail. `compat="mlbench"` keeps ML-Bench\'s'
            " original, untraced rules (for reproducing published numbers), which such "
            "submissions pass."
        ),
    ),
]

GRADERS_OUTRO = """\
Grading always runs host-side (or in a fresh sandbox for reruns), never in the agent's
processes, and every host access to a workspace is made with the episode frozen.

Where the code is: each family is one package, `mle_gym/families/<family>/`, and its
grader is that package's `grading.py`, reached only through the family hook
`TaskFamily.grade`, which the env calls inside `MLEEnv.agent_stopped()` (MLE-bench:
`mlebench/grading.py` with `format_check.py`; MLAgentBench: `mlagentbench/grading.py` with
the hidden evaluators' runner `evaluation.py` and the timing guard `guard.py`; ML-Bench:
`mlbench/grading.py` with `evidence.py`, `execution.py` and the tracer
`mle_gym/sandbox/exectrace.py`). What a family shares — the sandboxes, the host file access
`mle_gym/sandbox/hostfs.py`, the CSV reader and validator `mle_gym/grading/` — is in the
core, which imports no family (an import contract checked in CI).
"""


def _graders_section() -> list[str]:
    lines = [GRADERS_INTRO, "| family | the grader trusts | why the agent cannot forge it |"]
    lines.append("|---|---|---|")
    lines += [f"| {a} | {b} | {c} |" for a, b, c in GRADER_ROWS]
    return [*lines, "", GRADERS_OUTRO]


HOW_TESTED = """\
## How this is tested

`tests/security/` attacks a real `MLEBench/spaceship-titanic-v0` episode (replica
data; reward cases attack the MLAgentBench and ML-Bench tasks they are about, on
offline data the tests generate) through `env.step()` only, on both backends,
with real bubblewrap, a real Docker engine and real host targets started by the
test: TCP servers on 127.0.0.1 and on every other address of the host, a UDP
socket, a `sleep` process, and a fake API key in the host's environment. Every case asserts that

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
* **Round two (an independent review through `env.step`).** Host code that walked
  a live workspace (grading, `final/` snapshots, MLAgentBench reruns, ML-Bench's
  grading tree, kept workspaces) could be redirected by links swapped in by a running
  thread; a docker command could kill its wrapper shell and survive its step;
  replica answers could be regenerated from the public code and seed; timing tasks
  stopped the clock when the main process exited; an ML-Bench `exit 0` plus touched
  files passed; `<tool_call>` followed by 10,000 spaces took minutes to parse; the
  kernel keyring carried data between episodes; Undo backups held hundreds of MB of
  host memory; agent text reached the terminal raw. Each class now has its cases
  below (categories race, sweep, reward, hang, channel, kept, hostmem, terminal).
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
  In the `local` backend `/proc/self/mountinfo` names the host paths of the
  workspace and the public data (the mounts' sources); the private
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
* **What a traced ML-Bench run cannot tell.** Python files the submission adds and
  the entry point imports (an `argparse.py` next to the script, a module earlier on
  `sys.path`) run inside the entry point's own process, and another process of the
  agent could write into its memory through `/proc/<pid>/mem`: the trace shows the
  right exec either way. `Python Code` examples are traced, but only their exit status
  is read.
* **Covert signalling between live episodes** through what they share read-only
  (`flock` or inotify on files of the runtime or the task data, CPU and memory
  timing). Nothing of it outlives the processes holding it.
* **Replica secrecy rests on the key.** The generators use PCG64 seeded from the
  key, not a cryptographic generator; recovering its state from the public rows is
  far beyond an episode. The test suite's key is public (`tests/conftest.py`) and
  must never generate data agents are graded on. A non-root host has no cgroup, so
  there `sweep_leftovers()` cannot kill what a `python` cell started (commands are
  still swept by their PID 1).
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
        *_graders_section(),
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
