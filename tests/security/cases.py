"""The registry of the adversarial security suite: every attack, what it must produce.

This module is data only (no pytest, no sandbox): the tests in this package are
parametrized from :data:`CASES`, and ``scripts/gen_security_md.py`` renders
SECURITY.md from it, so the document lists exactly what the tests check.

A :class:`Case` names an attack an agent can make through ``env.step`` alone, the
defence that stops it, and per backend the phrases the observation of the failed
attack must contain. The test of a case asserts that (a) the attack fails, (b) every
phrase of ``expect[backend]`` appears in the observations it names as evidence, and
(c) the env still works afterwards: a normal command runs and a valid submission is
graded with the score the host computes from the private answers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

BACKENDS = ("local", "docker")

#: Limits of the env under attack (gym.make kwargs): small, so that hogs, floods and
#: fills reach them quickly. A case may override some in ``Case.env``.
ENV_KWARGS: dict[str, Any] = {
    "exec_timeout_s": 30,
    "memory_mb": 512,
    "pids": 128,
    "cpu_time_s": 20,
    "disk_mb": 64,
    "max_observation_chars": 16_000,
}

#: A fake secret set in the host's environment before the env is made.
FAKE_API_KEY_NAME = "MLE_GYM_SECURITY_FAKE_API_KEY"
FAKE_API_KEY = "sk-security-suite-fake-host-key-3e1f0a"

CATEGORIES: dict[str, str] = {
    "answers": "Reading the private answers",
    "traversal": "Path traversal through the file tools",
    "write": "Writing outside the workspace",
    "network": "Network access",
    "host": "Host secrets and processes",
    "privilege": "Privilege escalation and kernel interfaces",
    "persistence": "Persistence across episodes",
    "resources": "Resource exhaustion",
    "files": "Hostile files for the file tools",
    "submission": "Hostile submissions",
}


@dataclass(frozen=True)
class Case:
    """One attack and the outcome the suite requires.

    id: unique, kebab-case, starts with the category's short name.
    category: a key of :data:`CATEGORIES`.
    attack: what the agent does, in one or two sentences.
    defence: why it fails (the mechanism), on both backends unless it says otherwise.
    expect: per backend, phrases that must all appear in the case's evidence.
    env: gym.make overrides of :data:`ENV_KWARGS` for this case.
    task: the env under attack when it is not spaceship-titanic.
    """

    id: str
    category: str
    attack: str
    defence: str
    expect: Mapping[str, tuple[str, ...]]
    env: Mapping[str, Any] = field(default_factory=dict)
    #: The env under attack: None = spaceship-titanic on replica data (the harness checks
    #: answers never leak and a valid submission still grades); another registered id
    #: (e.g. ``"MLBench/..."``) makes the attack itself responsible for that check.
    task: str | None = None


def both(*phrases: str) -> dict[str, tuple[str, ...]]:
    """The same expected phrases on every backend."""
    return dict.fromkeys(BACKENDS, tuple(phrases))


def per_backend(local: tuple[str, ...], docker: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """Expected phrases that differ between the backends."""
    return {"local": local, "docker": docker}


_NOT_IN_SANDBOX = "no such file or directory in the sandbox"
_ENOENT = "No such file or directory"

CASES: tuple[Case, ...] = (
    # -- answers -----------------------------------------------------------------------
    Case(
        "answers-host-path",
        "answers",
        "Read the answers file by its real host path (the test knows it) with `execute` "
        "(`cat`), `read_file` and the `python` tool (`open`).",
        "The private folder is never mounted into the sandbox; the file tools resolve paths "
        "in the sandbox's own view, which has only /workspace and /workspace/data.",
        both(_ENOENT, _NOT_IN_SANDBOX, "FileNotFoundError"),
    ),
    Case(
        "answers-filesystem-search",
        "answers",
        "Search the whole file system for the answers: `find` for files named like the "
        "answers file, and `grep` for an answer row's content (everywhere but /proc, /sys, "
        "/dev and the read-only runtime's `usr`/`lib` trees).",
        "Nothing outside the public data, the workspace and a read-only runtime exists in "
        "the sandbox.",
        both("private answer files found: 0", "answer rows found: 0"),
        # It searches the whole sandbox view, the runtime (~220k files) included: over 30 s
        # on a loaded CI machine. What it finds is the point, not how fast.
        env={"exec_timeout_s": 300, "cpu_time_s": 300},
    ),
    Case(
        "answers-proc-host",
        "answers",
        "Reach the host through /proc: `/proc/<host pid>/root/<answers path>` of the test "
        "process and of a host `sleep`, `/proc/1/root/...`, `/proc/1/environ`.",
        "Own pid namespace: host processes have no /proc entry inside; PID 1 of the "
        "sandbox belongs to the backend and its /proc files are not readable.",
        both(_ENOENT, "Permission denied", _NOT_IN_SANDBOX),
    ),
    Case(
        "answers-symlink-read",
        "answers",
        "Create symlinks in the workspace to the answers' host path and to `/`, then "
        "`read_file` and `list_files` through them.",
        "Symlinks are resolved inside the sandbox's view (an absolute target is mapped "
        "through its mounts, never followed on the host), then opened with O_NOFOLLOW.",
        both(_NOT_IN_SANDBOX),
    ),
    Case(
        "answers-hardlink",
        "answers",
        "Hard-link the answers file (and the public test set) into the workspace, then "
        "read the link.",
        "The answers are not in the sandbox to be linked, and the workspace is its own "
        "file system (a loop-mounted volume), so no cross-mount link can exist.",
        both("failed to access", "Invalid cross-device link", _ENOENT),
    ),
    Case(
        "answers-symlink-submit",
        "answers",
        "Make `submission.csv` a symlink to the answers' host path, validate it and submit "
        "it, hoping the host grader follows the link to the answers.",
        "The submission is copied out through the same sandbox view as `read_file`; the "
        "link leads nowhere there, so the submission is missing and earns 0.",
        both(_NOT_IN_SANDBOX, "The submission is invalid", "Reward: 0"),
    ),
    Case(
        "answers-grader-code",
        "answers",
        "Import `mle_gym.tasks` or find the task folders, to rerun the offline replica "
        "generator (which would regenerate the answers from the seed).",
        "The mle_gym package is masked in the sandbox's runtime (an empty read-only "
        "folder) and the task folders are never mounted.",
        both("No module named 'mle_gym", "task folders found: 0"),
        # It searches the whole sandbox view, the runtime (~220k files) included: over 30 s
        # on a loaded CI machine. What it finds is the point, not how fast.
        env={"exec_timeout_s": 300, "cpu_time_s": 300},
    ),
    Case(
        "answers-validate-oracle",
        "answers",
        "Use `validate_submission` as a scoring oracle: validate two submissions that "
        "differ in one label and compare the answers.",
        "Validation checks the format against the public sample submission only; it never "
        "reads the answers and its text does not depend on the labels.",
        both("it does not score", "identical validation texts: True"),
    ),
    # -- traversal ---------------------------------------------------------------------
    Case(
        "traversal-read-file",
        "traversal",
        "`read_file` with `../` chains, `/workspace/../..`, `data/../../..`, "
        "`/proc/self/root/...` and absolute host paths.",
        "Paths are normalised inside the sandbox's view; anything outside its mounts does "
        "not exist.",
        both(_NOT_IN_SANDBOX),
    ),
    Case(
        "traversal-list-files",
        "traversal",
        "`list_files` on `..`, `/`, `/workspace/../..` and the host's workspace folder.",
        "Only /workspace and /workspace/data can be listed.",
        both("not a file or directory the agent can use", _NOT_IN_SANDBOX),
    ),
    Case(
        "traversal-write-file",
        "traversal",
        "`write_file` to `../escape.txt`, `/tmp/...`, `data/../../...` and to the "
        "workspace's real host path.",
        "Writes resolve in the sandbox's view; nothing is created outside the workspace "
        "(checked on the host).",
        both(_NOT_IN_SANDBOX),
    ),
    Case(
        "traversal-edit-file",
        "traversal",
        "`edit_file` on `/etc/passwd`, `../../etc/hosts` and on a workspace symlink to "
        "`/etc/passwd`.",
        "Files outside the mounts do not exist for the file tools; the host's "
        "/etc/passwd is unchanged.",
        both(_NOT_IN_SANDBOX),
    ),
    Case(
        "traversal-validate",
        "traversal",
        "`validate_submission` with a path that climbs out of the workspace to the "
        "answers, directly or through `/proc/1/root`.",
        "Validation reads through the same sandbox view as `read_file`.",
        both("invalid:", _NOT_IN_SANDBOX),
    ),
    # -- write -------------------------------------------------------------------------
    Case(
        "write-system-dirs",
        "write",
        "Write to `/usr`, `/etc`, `/`, `/opt` and `/root` with `execute`.",
        "local: the runtime is bound read-only and the sandbox uid owns nothing else; "
        "docker: read-only root file system.",
        per_backend(("Read-only file system", "Permission denied"), ("Read-only file system",)),
    ),
    Case(
        "write-task-data-execute",
        "write",
        "Append to, delete, rename and add files in the read-only task data with `execute`.",
        "The public data is a read-only bind mount; its files are unchanged on the host.",
        both("Read-only file system", "Permission denied"),
    ),
    Case(
        "write-task-data-file-tools",
        "write",
        "`write_file` into `data/` and `edit_file` of `data/train.csv`.",
        "The file tools refuse writes to the read-only mount.",
        both("read-only file system (task data cannot be modified)"),
    ),
    Case(
        "write-host-paths",
        "write",
        "Write by the host paths of the workspace's parent folder, of the public data "
        "folder and of the host's /tmp.",
        "Those host paths do not exist inside; /tmp is private to the sandbox (checked "
        "on the host).",
        both(_ENOENT, "Directory nonexistent"),
    ),
    # -- network -----------------------------------------------------------------------
    Case(
        "network-host-loopback",
        "network",
        "Connect to a TCP server the test runs on the host's 127.0.0.1.",
        "Own network namespace (local) / `network_mode=none` (docker): 127.0.0.1 is the "
        "sandbox's own empty loopback; the host server accepts nothing.",
        both("Connection refused", "host connections accepted: 0"),
    ),
    Case(
        "network-host-addresses",
        "network",
        "Connect to TCP servers the test runs on each of the host's non-loopback "
        "addresses (e.g. eth0, docker0).",
        "No interface but loopback exists inside: no route to any host address.",
        both("Network is unreachable", "host connections accepted: 0"),
    ),
    Case(
        "network-public-private",
        "network",
        "Connect to public (1.1.1.1:443), private (10.0.0.1, 192.168.1.1), cloud-metadata "
        "(169.254.169.254) and docker-daemon (172.17.0.1:2375) addresses.",
        "No route out of the sandbox.",
        both("Network is unreachable"),
    ),
    Case(
        "network-udp",
        "network",
        "Send UDP datagrams to a UDP socket the test binds on the host's 127.0.0.1 and to "
        "8.8.8.8:53.",
        "Datagrams to 127.0.0.1 stay on the sandbox's own loopback; other addresses are "
        "unreachable; the host socket receives nothing.",
        both("Network is unreachable", "host datagrams received: 0"),
    ),
    Case(
        "network-dns",
        "network",
        "Resolve `pypi.org` (libc resolver) to find any way out.",
        "No resolver is reachable.",
        per_backend(("Temporary failure in name resolution",), ("Name or service not known",)),
    ),
    Case(
        "network-docker-socket",
        "network",
        "Talk to the Docker engine through /var/run/docker.sock or /run/docker.sock.",
        "The engine's socket is never mounted into a sandbox.",
        both(_ENOENT),
    ),
    Case(
        "network-python-tool",
        "network",
        "The same TCP connections from the persistent `python` interpreter.",
        "The interpreter runs in the episode's sandbox, with the same isolation.",
        both("Connection refused", "Network is unreachable", "host connections accepted: 0"),
    ),
    # -- host --------------------------------------------------------------------------
    Case(
        "host-env-secrets",
        "host",
        "Look for a fake API key the test puts in the host's environment (and in that of a "
        "host `sleep`): `env`, every readable `/proc/*/environ`, the host processes' "
        "`/proc/<pid>/environ`, `os.environ` in the `python` tool.",
        "The sandbox environment is built from scratch (bubblewrap --clearenv; docker "
        "gets an explicit environment); nothing of the host's is passed.",
        both("host key visible: 0"),
    ),
    Case(
        "host-signal",
        "host",
        "`kill -9` / `kill -STOP` the test process and a host `sleep` by their host pids.",
        "Own pid namespace: host pids do not exist inside (both processes survive).",
        both("No such process"),
    ),
    Case(
        "host-ptrace",
        "host",
        "`ptrace(PTRACE_ATTACH)` a host process (by host pid) and the sandbox's PID 1.",
        "Host pids are not visible; PID 1 belongs to the backend (no capabilities, "
        "non-dumpable or another uid).",
        both("No such process", "Operation not permitted"),
    ),
    Case(
        "host-process-list",
        "host",
        "List every process (`ps -ef`, /proc) to find host processes and their command lines.",
        "Own pid namespace: only the episode's own processes are visible.",
        both("host processes visible: 0"),
    ),
    # -- privilege ---------------------------------------------------------------------
    Case(
        "privilege-setuid",
        "privilege",
        "Become root: `setuid(0)`, `chown` to root, `su`/`sudo` (setuid-root binaries).",
        "Commands run as an unprivileged uid with an empty capability bounding set and "
        "no_new_privs, so setuid bits grant nothing.",
        both(
            "uid 0 refused: Operation not permitted",
            "NoNewPrivs:\t1",
            "CapEff:\t0000000000000000",
            "CapBnd:\t0000000000000000",
        ),
    ),
    Case(
        "privilege-user-namespace",
        "privilege",
        "Create a user and mount namespace (`unshare`) to become root in it and unmount "
        "the mask hiding mle_gym or mount over the task data.",
        "The sandboxes' seccomp filter (mle_gym/sandbox/seccomp.py: bubblewrap's `--seccomp`, "
        "the container's seccomp profile) refuses `unshare`, `setns` and namespace flags of "
        "`clone` with EPERM. Behind it, on local, mounts inherited from bubblewrap are locked "
        "in a new user namespace, so nothing hidden would become visible.",
        both("new user namespace: Operation not permitted", "mle_gym.tasks found: False"),
    ),
    Case(
        "privilege-kernel-interfaces",
        "privilege",
        "Write to /proc/sysrq-trigger, /proc/sys/kernel/*, the cgroup files and mount a new /proc.",
        "local: no /sys and no sysrq-trigger inside, /proc/sys is not writable by the "
        "sandbox uid; docker: read-only /proc/sys and cgroup files; no capability to "
        "mount.",
        per_backend(
            ("Directory nonexistent", "Permission denied", "mount failed"),
            ("Directory nonexistent", "Read-only file system", "mount failed"),
        ),
    ),
    Case(
        "privilege-devices",
        "privilege",
        "Open host devices: disks (`/dev/sda`, `/dev/vda`), `/dev/mem`, `/dev/kmsg`.",
        "Only the basic character devices (null, zero, random, urandom, tty, full) "
        "exist in the sandbox's /dev.",
        both(_ENOENT),
    ),
    # -- persistence -------------------------------------------------------------------
    Case(
        "persistence-tmp-files",
        "persistence",
        "Write a file to /tmp and to /dev/shm, `reset`, and look for them in the next episode.",
        "/tmp and /dev/shm are private to an episode's sandbox and discarded with it "
        "(and never on the host's /tmp).",
        both(_ENOENT),
    ),
    Case(
        "persistence-background-processes",
        "persistence",
        "Start `setsid nohup sleep`, `nohup sleep &` and a `setsid` child of the "
        "`python` tool, then `reset`.",
        "Nothing a command starts outlives its step (the pid namespace is swept / the "
        "container is swept) and the episode's sandbox is destroyed by `reset` (checked "
        "on the host: no process left, the container is gone).",
        both("leftover processes: 0"),
    ),
    Case(
        "persistence-python-state",
        "persistence",
        "Define a variable in the `python` tool, `reset`, and read it in the next episode.",
        "Each episode starts its own interpreter; the previous one is killed by `reset`.",
        both("state carried over: False"),
    ),
    Case(
        "persistence-workspace",
        "persistence",
        "Leave a file in the workspace, `reset`, and look for it in the next episode.",
        "Every episode gets a fresh workspace; the previous one is deleted on the host.",
        both(_ENOENT),
    ),
    # -- resources ---------------------------------------------------------------------
    Case(
        "resources-fork-bomb",
        "resources",
        "A shell fork bomb and a Python `os.fork()` loop.",
        "The episode's process limit (cgroup pids / container pids limit) stops them; "
        "the wall timeout kills what is left.",
        both("Cannot fork", "killed: wall-clock timeout"),
    ),
    Case(
        "resources-memory-execute",
        "resources",
        "Allocate 2 GB in a command (the limit is 512 MB).",
        "Memory cgroup of the episode / container memory limit: an OOM kill, reported as such.",
        both("killed: out of memory"),
    ),
    Case(
        "resources-memory-python",
        "resources",
        "Allocate 2 GB in the `python` tool.",
        "The interpreter is OOM-killed and reported; the next call starts a fresh one and says so.",
        both("interpreter died: killed by the memory limit", "a fresh Python interpreter"),
    ),
    Case(
        "resources-disk-quota",
        "resources",
        "Fill the workspace with a 200 MB file (the quota is 64 MB), then `write_file`.",
        "The workspace is a loop-mounted volume of `disk_mb`; writes fail with ENOSPC "
        "and the observation says the workspace is full; deleting the file frees it.",
        both(
            "No space left on device",
            "the workspace is full; its quota is 64 MB",
            "the workspace quota is full",
        ),
    ),
    Case(
        "resources-tmp-fill",
        "resources",
        "Fill /tmp (an in-memory file system) with 1 GB.",
        "/tmp is memory: its pages count against the episode's memory limit, so the "
        "writer is OOM-killed (the host's memory and disk are untouched).",
        both("killed: out of memory"),
    ),
    Case(
        "resources-cpu-time",
        "resources",
        "Burn CPU in a loop past the CPU-time limit (2 s here).",
        "RLIMIT_CPU per process (SIGXCPU), reported as the CPU-time limit.",
        both("killed: CPU-time limit reached"),
        env={"cpu_time_s": 2},
    ),
    Case(
        "resources-infinite-loop-execute",
        "resources",
        "An endless shell loop.",
        "The host's wall-clock timeout kills the command's whole process tree.",
        both("killed: wall-clock timeout after 2 s"),
    ),
    Case(
        "resources-infinite-loop-python",
        "resources",
        "An endless loop in the `python` tool.",
        "The cell is interrupted at its timeout; the interpreter and its variables are kept.",
        both("interrupted: timeout after 2 s", "variables are kept", "kept: 41"),
    ),
    Case(
        "resources-python-ignores-interrupt",
        "resources",
        "A `python` cell that ignores SIGINT and swallows KeyboardInterrupt in a loop.",
        "If a cell does not stop within 5 s of its timeout the interpreter is killed and "
        "the next call starts a fresh one.",
        both("interpreter died: did not stop within 5 s", "a fresh Python interpreter"),
    ),
    Case(
        "resources-output-flood-execute",
        "resources",
        "`yes` (unbounded output) in `execute`.",
        "The command is killed past 64 MB of output; the observation keeps a head and "
        "a tail within `max_observation_chars`.",
        both("killed: output limit exceeded"),
    ),
    Case(
        "resources-output-flood-python",
        "resources",
        "An unbounded `print` loop, and a child process running `yes`, in the `python` tool.",
        "Past 64 MB the cell's captured output is cut back to its head and the cell is "
        "interrupted; variables are kept.",
        both("interrupted: output limit exceeded", "variables are kept"),
    ),
    # -- files -------------------------------------------------------------------------
    Case(
        "files-huge-read",
        "files",
        "`read_file` of a 20 MB text file.",
        "At most 8 MB is read and the observation is truncated with a visible marker.",
        both("output truncated: request a smaller line range", "characters omitted"),
    ),
    Case(
        "files-binary-read",
        "files",
        "`read_file` of binary files (random bytes, a NUL byte).",
        "Binary content is refused with a hint.",
        both("binary file (3,000 bytes); inspect it with execute instead"),
    ),
    Case(
        "files-fifo-read",
        "files",
        "`read_file` of a named pipe with no writer (would block a naive reader forever).",
        "Files are opened non-blocking and must be regular files.",
        both("not a regular file"),
    ),
    Case(
        "files-special-symlinks",
        "files",
        "Symlinks in the workspace to /dev/zero, /dev/urandom and /proc/self/environ, "
        "then `read_file`.",
        "Only the workspace and the task data exist for the file tools.",
        both(_NOT_IN_SANDBOX),
    ),
    Case(
        "files-symlink-race",
        "files",
        "A thread in the `python` tool swaps `race.csv` between a regular file and a "
        "symlink to the answers' host path as fast as it can while `read_file`, "
        "`validate_submission` and a symlinked `submission.csv` are used.",
        "Resolution happens in the sandbox's view and every host step is opened with "
        "O_NOFOLLOW, so a link swapped in between is never followed.",
        both("answers read: 0"),
    ),
    # -- submission --------------------------------------------------------------------
    Case(
        "submission-huge",
        "submission",
        "A sparse 300 MB `submission.csv` (the limit is 200 MB).",
        "At most the limit + 1 byte is copied out; the grader refuses it by size.",
        both("larger than the 209,715,200-byte limit", "The submission is invalid"),
    ),
    Case(
        "submission-binary",
        "submission",
        "Binary submissions: NUL bytes, invalid UTF-8.",
        "Refused before parsing, with the reason.",
        both("contains NUL bytes", "is not valid UTF-8 text", "The submission is invalid"),
    ),
    Case(
        "submission-fifo-directory",
        "submission",
        "`submission.csv` as a named pipe (no writer) and as a directory.",
        "Copied out non-blocking, regular files only.",
        both("not a regular file", "is a directory", "The submission is invalid"),
    ),
    Case(
        "submission-not-csv",
        "submission",
        "A JSON document and a Python pickle as the submission.",
        "The CSV reader states what is wrong (header, fields, encoding).",
        both("invalid:", "The submission is invalid"),
    ),
    Case(
        "submission-csv-wide-header",
        "submission",
        "A CSV header of 100,000 columns (under 1 MB; parsing and validating it took "
        "minutes of host CPU before this suite).",
        "Headers wider than 10,000 fields are refused before any parsing.",
        both("at most 10,000 columns are accepted", "The submission is invalid"),
    ),
    Case(
        "submission-csv-row-flood",
        "submission",
        "3 million rows with a stray quote and a blank line (which used to send them "
        "through the slow pure-Python path: 16 s and 2 GB of host memory for 50 MB).",
        "Rows are counted before parsing and a file with more than 2 x the ids + 1,000 "
        "rows is refused.",
        both("data rows; at most 2,740 are accepted", "The submission is invalid"),
    ),
    Case(
        "submission-csv-parser-tricks",
        "submission",
        "Unbalanced quotes, a ragged row, formula cells (`=1+1`), quoted newlines in "
        "ids, a header-only file.",
        "A strict CSV reader and typed validation reject each with the line or column.",
        both(
            "not a well-formed CSV",
            "field(s) but the header has 2",
            "Transported",
            "no data rows",
        ),
    ),
    Case(
        "submission-hedged-duplicates",
        "submission",
        "Reward hacking: submit every id twice, once `True` and once `False`, or extra "
        "unknown ids, hoping one of them counts.",
        "Validation requires exactly one row per test id.",
        both("duplicate ids", "unknown ids", "The submission is invalid", "Reward: 0"),
    ),
)

#: Categories whose cases live in their own module ``security/cases_<name>.py``, which
#: defines ``TITLE`` (the category's heading) and ``CASES`` (a tuple of :class:`Case`).
EXTRA_CATEGORIES = ("race", "sweep", "reward", "hang", "channel", "kept", "hostmem", "terminal")


def _optional_module(name: str) -> Any:
    """Module ``name``, or None if it does not exist (an import error inside it raises)."""
    import importlib

    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return None


def gather_parts(parts: tuple[str, ...]) -> tuple[Case, ...]:
    """The cases of a category split in parts: ``CASES`` of each ``security/<part>_cases.py``
    (a part whose module does not exist contributes none)."""
    out: list[Case] = []
    for name in parts:
        module = _optional_module(f"security.{name}_cases")
        if module is not None:
            out.extend(module.CASES)
    return tuple(out)


def _load_extra() -> tuple[Case, ...]:
    extra: list[Case] = []
    for name in EXTRA_CATEGORIES:
        module = _optional_module(f"security.cases_{name}")
        if module is not None:
            CATEGORIES[name] = module.TITLE
            extra.extend(module.CASES)
    return tuple(extra)


CASES = CASES + _load_extra()
CASES_BY_ID: dict[str, Case] = {c.id: c for c in CASES}


def cases_in(category: str) -> list[Case]:
    """The cases of one category, in registry order."""
    if category not in CATEGORIES:
        raise KeyError(f"unknown category {category!r}")
    return [c for c in CASES if c.category == category]
