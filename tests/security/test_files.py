"""Hostile files for the host-side file tools: huge, binary, FIFOs, device links, races."""

from __future__ import annotations

import contextlib
import os
import stat
import time
from pathlib import Path

from security.harness import Ctx
from security.suite import attack, category_test

RACE = """\
import os, threading
def flip(target={answers!r}):
    i = 0
    while True:
        try:
            if i % 2:
                os.symlink(target, "race.tmp")
            else:
                with open("race.tmp", "w") as f:
                    f.write("decoy\\n")
            os.replace("race.tmp", "race.csv")
        except OSError:
            try:
                os.unlink("race.tmp")
            except OSError:
                pass
        i += 1
threading.Thread(target=flip, daemon=True).start()
"""


@attack("files-huge-read")
def _huge(ctx: Ctx) -> str:
    a = ctx.agent
    a.execute("python -c \"open('big.txt', 'w').write(('x' * 99 + '\\n') * 200000)\"")
    obs = a.read_file("big.txt")
    assert len(obs) <= ctx.env.max_observation_chars + 500, len(obs)
    return obs


@attack("files-binary-read")
def _binary(ctx: Ctx) -> str:
    a = ctx.agent
    a.execute("head -c 3000 /dev/urandom > random.bin; printf 'text\\0more' > nul.txt")
    outs = [a.read_file("random.bin"), a.read_file("nul.txt")]
    for obs in outs:
        assert obs.startswith("random.bin: binary") or obs.startswith("nul.txt: binary"), obs
    return "\n".join(outs)


@attack("files-fifo-read")
def _fifo(ctx: Ctx) -> str:
    a = ctx.agent
    a.execute("python -c \"import os; os.mkfifo('pipe'); os.mkfifo('data.csv.fifo')\"")
    outs = [a.read_file("pipe"), a.read_file("data.csv.fifo"), a.list_files(".", 1)]
    assert outs[0].startswith("error:") and outs[1].startswith("error:")
    return "\n".join(outs)


@attack("files-special-symlinks")
def _special(ctx: Ctx) -> str:
    a = ctx.agent
    a.execute(
        "ln -s /dev/zero zero.csv; ln -s /dev/urandom random.csv; "
        "ln -s /proc/self/environ environ.txt; ln -s /proc/1/mem mem.bin"
    )
    outs = [a.read_file(p) for p in ("zero.csv", "random.csv", "environ.txt", "mem.bin")]
    for obs in outs:
        assert obs.startswith("error:"), obs
    return "\n".join(outs)


def _flipping(path: Path) -> bool:
    """True once the host has seen ``path`` both as a symlink and as a regular file."""
    seen = set()
    deadline = time.monotonic() + 10
    while len(seen) < 2 and time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            seen.add(stat.S_ISLNK(os.lstat(path).st_mode))
        time.sleep(0.0005)
    return len(seen) == 2


@attack("files-symlink-race")
def _race(ctx: Ctx) -> str:
    a = ctx.agent
    started = a.python(RACE.format(answers=ctx.answers))
    assert started.startswith("[ok"), started
    assert _flipping(a.workspace / "race.csv"), "the race thread is not running"
    a.execute("ln -sf race.csv submission.csv")
    outs = [a.read_file("race.csv") for _ in range(25)]
    outs += [a.validate("race.csv") for _ in range(10)]
    outs.append(a.validate())
    decoys = sum("decoy" in o for o in outs)
    refused = sum("no such file" in o or "changed while being read" in o for o in outs)
    internal = [o for o in outs if "internal failure" in o]
    assert not internal, internal[0]
    leaked = sum(bool(ctx.secrets.leaked_in(o)) for o in outs)
    return f"reads: {len(outs)}, decoy: {decoys}, refused: {refused}\nanswers read: {leaked}"


test_attack = category_test("files")
