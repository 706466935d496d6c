"""Race: a thread of the `python` tool swaps folders and links to host paths while the host
grades, snapshots, re-runs and keeps the workspace (see security/cases_race.py)."""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from security.harness import Ctx, tree_digest
from security.suite import attack, category_test

pytestmark = pytest.mark.slow

#: Started in the `python` tool: exchanges each ``name`` with ``name.alt`` (a link to a
#: host path) with renameat2(RENAME_EXCHANGE) forever; ``.swaps`` holds the count so far.
RACER = """\
import ctypes, os, threading
libc = ctypes.CDLL(None, use_errno=True)
os.chdir({workdir!r})
PAIRS = {pairs!r}
for name, kind, target in PAIRS:
    if kind == "dir":
        os.makedirs(name, exist_ok=True)
        with open(os.path.join(name, "decoy.txt"), "w") as f:
            f.write("decoy\\n")
    elif not os.path.exists(name):
        with open(name, "w") as f:
            f.write("decoy\\n")
    if os.path.lexists(name + ".alt"):
        os.unlink(name + ".alt")
    os.symlink(target, name + ".alt")

def race():
    names = [(a.encode(), (a + ".alt").encode()) for a, _, _ in PAIRS]
    n = 0
    while True:
        for a, b in names:
            if libc.renameat2(-100, a, -100, b, 2) == 0:
                n += 1
        if n % 2048 < len(names):
            with open(".swaps.tmp", "w") as f:
                f.write(str(n))
            os.replace(".swaps.tmp", ".swaps")

threading.Thread(target=race, daemon=True).start()
print("racing")
"""

MIN_SWAPS = 2000


@contextlib.contextmanager
def host_sentinel() -> Iterator[tuple[Path, str]]:
    """A host folder outside every workspace with uniquely named files (path, tag)."""
    folder = Path(tempfile.mkdtemp(prefix="mle_gym-race-host-"))
    tag = f"HOST-SENTINEL-{folder.name}"
    (folder / "sub").mkdir()
    for rel in ("hostonly-a.txt", "sub/hostonly-b.txt"):
        (folder / rel).write_text(tag + "\n")
    try:
        yield folder, tag
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def host_state(extra: list[Path]) -> dict[str, object]:
    """What a host write through a followed link would change: the names in / and /etc,
    and every file (with its content) of the extra folders."""
    state: dict[str, object] = {"/": sorted(os.listdir("/")), "/etc": sorted(os.listdir("/etc"))}
    for folder in extra:
        state[str(folder)] = tree_digest(folder)
    return state


def changed(before: dict[str, object], after: dict[str, object]) -> int:
    return sum(before[k] != after.get(k) for k in before)


def start_racer(ctx: Ctx, targets: dict[str, tuple[str, str]], workdir: str = "/workspace") -> None:
    """Start the racing thread with ``{name: (kind, host target)}`` and wait until it has
    swapped MIN_SWAPS times."""
    pairs = [(name, kind, target) for name, (kind, target) in targets.items()]
    obs = ctx.agent.python(RACER.format(workdir=workdir, pairs=pairs))
    assert "racing" in obs, obs
    host_dir = ctx.agent.workspace / os.path.relpath(workdir, "/workspace")
    assert swaps(host_dir, MIN_SWAPS) >= MIN_SWAPS, "the racing thread does not run"


def swaps(folder: Path, at_least: int = 0, timeout_s: float = 30.0) -> int:
    """The racer's swap count (waiting up to ``timeout_s`` for ``at_least``)."""
    deadline = time.monotonic() + timeout_s
    n = 0
    while True:
        with contextlib.suppress(OSError, ValueError):
            fd = os.open(folder / ".swaps", os.O_RDONLY | os.O_NOFOLLOW)
            with os.fdopen(fd) as f:
                n = int(f.read() or 0)
        if n >= at_least or time.monotonic() > deadline:
            return n
        time.sleep(0.05)


def regular_files(root: Path) -> Iterator[tuple[Path, os.stat_result]]:
    """Every entry under ``root`` with its lstat (links never followed)."""
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            yield p, os.lstat(p)


def holds_host_content(path: Path, st: os.stat_result, tokens: list[str]) -> bool:
    if not stat.S_ISREG(st.st_mode) or st.st_size > 4 * 2**20:
        return False
    data = path.read_bytes()
    return path.name.startswith("hostonly-") or any(t.encode() in data for t in tokens)


# -- attacks -------------------------------------------------------------------------------


@attack("race-grade")
def _grade(ctx: Ctx) -> str:
    a = ctx.agent
    answers = Path(ctx.answers)
    with host_sentinel() as (sentinel, _tag):
        before = host_state([sentinel, answers.parent])
        a.execute("cp data/sample_submission.csv submission.csv")
        start_racer(
            ctx,
            {
                "submission.csv": ("file", str(answers)),
                "answers": ("dir", str(answers.parent)),
                "root": ("dir", "/"),
                "etc": ("dir", "/etc"),
                "host": ("dir", str(sentinel)),
            },
        )
        n = swaps(a.workspace)
        step = a.submit()
        grade = step.info["grade"]
        perfect = grade.get("score") == 1.0 or bool(ctx.secrets.leaked_in(step.obs))
        assert not perfect, grade
        assert grade["valid"] is False or grade["score"] == ctx.secrets.sample_score, grade
        after = host_state([sentinel, answers.parent])
    return (
        f"{step.obs}\nswaps before grading: {n}\nanswers graded: {int(perfect)}\n"
        f"host files changed: {changed(before, after)}"
    )


@attack("race-snapshot")
def _snapshot(ctx: Ctx) -> str:
    from mle_gym.evaluation.snapshot import snapshot_env

    a = ctx.agent
    answers = Path(ctx.answers)
    tokens = [ctx.secrets.answer_lines[0], Path("/etc/passwd").read_text().splitlines()[0]]
    with host_sentinel() as (sentinel, tag), tempfile.TemporaryDirectory() as tmp:
        before = host_state([sentinel, answers.parent])
        start_racer(
            ctx,
            {
                "answers": ("dir", str(answers.parent)),
                "answers.csv": ("file", str(answers)),
                "etc": ("dir", "/etc"),
                "passwd": ("file", "/etc/passwd"),
                "host": ("dir", str(sentinel)),
            },
        )
        leaked = links = 0
        for i in range(50):
            dest = Path(tmp) / f"final{i}"
            snap = snapshot_env(ctx.agent.env, dest)
            assert snap is not None and snap.copied, snap
            for path, st in regular_files(dest):
                links += stat.S_ISLNK(st.st_mode)
                leaked += holds_host_content(path, st, [*tokens, tag])
        n = swaps(a.workspace)
        after = host_state([sentinel, answers.parent])
    assert leaked == 0 and links == 0
    return (
        f"swaps: {n}\nhost content copied: {leaked}\nlinks copied: {links}\n"
        f"host files changed: {changed(before, after)}"
    )


@attack("race-kept-workspace")
def _kept(ctx: Ctx) -> str:
    a = ctx.agent
    answers = Path(ctx.answers)
    owner = ctx.env.sandbox.file_owner
    tokens = [ctx.secrets.answer_lines[0], Path("/etc/passwd").read_text().splitlines()[0]]
    with host_sentinel() as (sentinel, tag):
        before = host_state([sentinel, answers.parent])
        a.execute(
            "echo x > suid && chmod 4755 suid; echo y > sgid && chmod 2755 sgid; "
            "mkdir -p sticky && chmod 1777 sticky; mkfifo pipe; "
            "python -c \"import socket; s=socket.socket(socket.AF_UNIX); s.bind('sock')\"; "
            "ls -l suid sgid pipe sock; ls -ld sticky"
        )
        start_racer(
            ctx,
            {
                "answers": ("dir", str(answers.parent)),
                "root": ("dir", "/"),
                "etc": ("dir", "/etc"),
                "passwd": ("file", "/etc/passwd"),
                "host": ("dir", str(sentinel)),
            },
        )
        kept = a.workspace
        a.reset()  # ends the episode: the workspace is kept (keep_workspace=True)
        assert kept.is_dir() and (kept.parent / ".keep").exists()
        try:
            entries = list(regular_files(kept))
            names = {p.name for p, _ in entries}
            assert {"suid", "sgid", "sticky", "decoy.txt"} <= names, sorted(names)
            host = sum(holds_host_content(p, st, [*tokens, tag]) for p, st in entries)
            bits = stat.S_ISUID | stat.S_ISGID | stat.S_ISVTX
            privileged = sum(bool(st.st_mode & bits) for _, st in entries)
            special = sum(
                not (stat.S_ISREG(m) or stat.S_ISDIR(m) or stat.S_ISLNK(m))
                for m in (st.st_mode for _, st in entries)
            )
            foreign = sum((st.st_uid, st.st_gid) != owner for _, st in entries if owner is not None)
            after = host_state([sentinel, answers.parent])
        finally:
            shutil.rmtree(kept.parent, ignore_errors=True)
    assert host == privileged == special == foreign == 0
    return (
        f"entries kept: {len(entries)}\nhost content kept: {host}\n"
        f"setuid/setgid/sticky kept: {privileged}\nspecial files kept: {special}\n"
        f"not owned by the sandbox uid: {foreign}\nhost files changed: {changed(before, after)}"
    )


def _submit_and_grade(ctx: Ctx) -> dict:
    step = ctx.agent.submit()
    assert step.terminated, step.obs
    return step.info["grade"]


@attack("race-mlbench-grading-tree")
def _mlbench(ctx: Ctx) -> str:
    a = ctx.agent
    a.env.reset(options={"example_id": 1})  # the tabkit example the solution below solves
    workdir = ctx.env.family.workdir(ctx.env._episode)
    with host_sentinel() as (sentinel, _tag):
        before = host_state([sentinel])
        # a valid solution, whose run first fails if any host file reached the grading tree
        a.write_file(
            "run.sh",
            "if find /workspace -name 'hostonly-*' 2>/dev/null | grep -q .; then\n"
            "  echo HOST-FILES-SEEN; exit 3\nfi\n"
            "python train.py --dataset wine --model random_forest --n-estimators 50\n",
        )
        start_racer(
            ctx,
            {
                "root": ("dir", "/"),
                "etc": ("dir", "/etc"),
                "host": ("dir", str(sentinel)),
                "hostfile.txt": ("file", str(sentinel / "hostonly-a.txt")),
            },
            workdir=workdir,
        )
        grade = _submit_and_grade(ctx)
        after = host_state([sentinel])
    tail = str(grade.get("execution", {}).get("output_tail", ""))
    seen = int("HOST-FILES-SEEN" in tail)
    assert seen == 0 and grade["passed"] is True, grade
    return (
        f"grading run saw host files: {seen}\npassed: {grade['passed']}\n"
        f"host files changed: {changed(before, after)}"
    )


RERUN_CHECK = """\
import os as _os, sys as _sys
if any(n.startswith("hostonly-") for _, _, fs in _os.walk(".") for n in fs):
    print("HOST-FILES-SEEN")
    _sys.exit(3)
"""


@attack("race-mlab-rerun")
def _mlab(ctx: Ctx) -> str:
    a = ctx.agent
    train = a.workspace / "train.py"
    with host_sentinel() as (sentinel, _tag):
        before = host_state([sentinel])
        a.write_file("train.py", RERUN_CHECK + train.read_text())
        start_racer(
            ctx,
            {
                "root": ("dir", "/"),
                "etc": ("dir", "/etc"),
                "host": ("dir", str(sentinel)),
                "hostfile.txt": ("file", str(sentinel / "hostonly-a.txt")),
            },
        )
        grade = _submit_and_grade(ctx)
        after = host_state([sentinel])
    seen = int("failed" in str(grade.get("message", "")))
    assert grade["valid"] is True and seen == 0, grade
    return (
        f"rerun saw host files: {seen}\nvalid: {grade['valid']}\n"
        f"host files changed: {changed(before, after)}"
    )


test_attack = category_test("race")
