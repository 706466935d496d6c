"""Nothing the agent starts outlives its step (see security/cases_sweep.py).

A writer is ``python3 writer.py <tag>``: it appends a line to ``<tag>.log`` in the
workspace every 0.1 s and forks nothing. After the attack's step the host checks that
each log stops growing and that no process with the tag's command line is left.
"""

from __future__ import annotations

import time

import pytest

from security.harness import Ctx, body, host_processes_matching
from security.suite import attack, category_test

pytestmark = pytest.mark.slow

WRITER = (
    "import ctypes, signal, sys, time\n"
    "for s in (signal.SIGHUP, signal.SIGTERM, signal.SIGINT):\n"
    "    signal.signal(s, signal.SIG_IGN)\n"
    "if sys.argv[2:] == ['hide']:  # non-dumpable: /proc/<pid> becomes root's\n"
    "    ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)\n"
    "while True:\n"
    "    with open(sys.argv[1] + '.log', 'a') as f:\n"
    "        f.write('x\\n')\n"
    "    time.sleep(0.1)\n"
)


def _tag(ctx: Ctx, name: str) -> str:
    return f"sweep{ctx.host.sleeper_tag}{name}"


def _writer(ctx: Ctx, name: str) -> str:
    """A shell command starting writer ``name`` (foreground: append ``&`` to detach)."""
    return f"python3 writer.py {_tag(ctx, name)}"


def _install(ctx: Ctx) -> None:
    assert (
        "Wrote" in ctx.agent.write_file("writer.py", WRITER)
        or (ctx.agent.workspace / "writer.py").is_file()
    )


def _size(ctx: Ctx, name: str) -> int:
    try:
        return (ctx.agent.workspace / f"{_tag(ctx, name)}.log").stat().st_size
    except FileNotFoundError:
        return -1


def _verdict(ctx: Ctx, *names: str) -> str:
    """Check from the host that every writer is gone; the evidence lines saying so."""
    for name in names:
        assert _size(ctx, name) > 0, f"writer {name} never ran: the attack did not start"
    time.sleep(1.0)
    before = {n: _size(ctx, n) for n in names}
    time.sleep(0.8)
    growing = [n for n in names if _size(ctx, n) != before[n]]
    assert not growing, f"writers {growing} outlived their step"
    left = [p for n in names for p in host_processes_matching(f"writer.py {_tag(ctx, n)}")]
    assert not left, f"writer processes {left} outlived their step"
    return f"writer stopped after the step: yes\nwriter processes left on the host: {len(left)}"


@attack("sweep-kill-wrapper")
def _kill_wrapper(ctx: Ctx) -> str:
    _install(ctx)
    obs = ctx.agent.execute(
        "kill -9 $PPID; kill -STOP $PPID; "
        f"{_writer(ctx, 'w')} & sleep 0.8; "
        "s=$(cut -d' ' -f3 /proc/$PPID/stat); "
        '[ "$s" = S ] || [ "$s" = R ] && echo "the parent survived: yes"'
    )
    assert "the parent survived: yes" in obs, obs
    return obs + "\n" + _verdict(ctx, "w")


@attack("sweep-double-fork")
def _double_fork(ctx: Ctx) -> str:
    _install(ctx)
    obs = ctx.agent.execute(f"sh -c '{_writer(ctx, 'd')} &' & wait; sleep 0.8; echo double-forked")
    assert "double-forked" in body(obs), obs
    return obs + "\n" + _verdict(ctx, "d")


@attack("sweep-setsid-nohup")
def _setsid(ctx: Ctx) -> str:
    _install(ctx)
    obs = ctx.agent.execute(
        f"trap '' HUP TERM; setsid nohup {_writer(ctx, 's')} hide >/dev/null 2>&1 & "
        "sleep 0.8; echo detached"
    )
    assert "detached" in body(obs), obs
    return obs + "\n" + _verdict(ctx, "s")


@attack("sweep-interpreter-child")
def _interpreter_child(ctx: Ctx) -> str:
    _install(ctx)
    popen, forked = _tag(ctx, "p"), _tag(ctx, "f")
    obs = ctx.agent.python(
        "import os, subprocess, time\n"
        "kept = 'state'\n"
        f"child = subprocess.Popen(['python3', 'writer.py', {popen!r}], start_new_session=True)\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        f"        os.execvp('python3', ['python3', 'writer.py', {forked!r}, 'hide'])\n"
        "    os._exit(0)\n"
        "os.wait()\n"
        "time.sleep(0.8)\n"
        "print('children started')"
    )
    assert "children started" in obs, obs
    verdict = _verdict(ctx, "p", "f")
    after = ctx.agent.python(
        "print('child return code:', child.wait())\nprint('kept:', repr(kept))"
    )
    return obs + "\n" + after + "\n" + verdict


@attack("sweep-kill-sweeper")
def _kill_sweeper(ctx: Ctx) -> str:
    _install(ctx)
    obs = ctx.agent.execute(
        f"{_writer(ctx, 'k1')} & w=$!; sleep 0.5; "
        "kill -STOP -1; kill -CONT $w; me=$(id -u); n=0; "
        "for d in /proc/[0-9]*; do p=${d#/proc/}; "
        '[ "$(stat -c %u "$d" 2>/dev/null)" = "$me" ] && continue; '
        'kill -STOP "$p" 2>/dev/null && n=$((n+1)); kill -KILL "$p" 2>/dev/null && n=$((n+1)); '
        "done; "
        'echo "signals delivered to other users\' processes: $n"; '
        f"kill -9 -1; {_writer(ctx, 'k2')} & sleep 0.8; echo second writer started"
    )
    assert "second writer started" in obs, obs
    return obs + "\n" + _verdict(ctx, "k2")


test_attack = category_test("sweep")
