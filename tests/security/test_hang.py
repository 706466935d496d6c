"""Hangs: hostile actions and interpreters cannot make ``step()`` run past its budgets."""

from __future__ import annotations

import sys

import pytest

from security.harness import Ctx
from security.suite import attack, category_test

pytestmark = pytest.mark.slow

#: A step that only reads an action answers far faster than this even on a loaded
#: machine; the backtracking parser took minutes on these inputs.
AT_ONCE_S = 5.0

# Finds the interpreter's private protocol pipes (requests: read end; replies: write end).
FIND_PIPES = """
import fcntl, os, stat
def proto(mode):
    for fd in range(3, 256):
        try:
            if stat.S_ISFIFO(os.fstat(fd).st_mode) and fcntl.fcntl(fd, fcntl.F_GETFL) & 3 == mode:
                return fd
        except OSError:
            pass
    raise RuntimeError("no protocol pipe")
"""

FRESH = "print('fresh-ok')"


def _fresh_call_works(ctx: Ctx) -> str:
    obs = ctx.agent.python(FRESH)
    assert "fresh-ok" in obs and "a fresh Python interpreter was started" in obs, obs
    return obs


@attack("hang-tool-call-spaces")
def _tool_call_spaces(ctx: Ctx) -> str:
    a = ctx.agent
    out, slow = [], []
    for spaces in (10_000, 999_980):
        step = a.send("<tool_call>" + " " * spaces)
        assert not step.info["ok"], step.obs
        out.append(step.obs)
        if step.info["step_elapsed_s"] >= AT_ONCE_S:
            slow.append(step.info["step_elapsed_s"])
    out.append(f"answered at once: {not slow} {slow}")
    return "\n".join(out)


@attack("hang-huge-action")
def _huge_action(ctx: Ctx) -> str:
    a = ctx.agent
    out = [a.send("x" * 1_000_001).obs]
    out.append(a.send({"name": "write_file", "arguments": " " * 1_000_001}).obs)
    a.write_file("many.txt", "a" * 100_000)
    step = a.call("edit_file", path="many.txt", old="a", new="b" * 500_000, replace_all=True)
    assert not step.info["ok"], step.obs
    out.append(step.obs)
    assert (a.workspace / "many.txt").read_text() == "a" * 100_000
    return "\n".join(out)


@attack("hang-interpreter-sigstop")
def _sigstop(ctx: Ctx) -> str:
    a = ctx.agent
    assert "[ok" in a.python("kept = 41")
    died = a.python("import os, signal\nos.kill(os.getpid(), signal.SIGSTOP)", timeout=2)
    return died + "\n" + _fresh_call_works(ctx)


@attack("hang-interpreter-ignores-interrupt")
def _ignores_interrupt(ctx: Ctx) -> str:
    code = (
        "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n"
        "signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})\nwhile True:\n    pass"
    )
    died = ctx.agent.python(code, timeout=2)
    return died + "\n" + _fresh_call_works(ctx)


SHADOWED = ("json", "struct", "ast", "traceback", "signal", "sitecustomize", "usercustomize")


@attack("hang-interpreter-shadow-modules")
def _shadow_modules(ctx: Ctx) -> str:
    a = ctx.agent
    user_site = f".local/lib/python{sys.version_info[0]}.{sys.version_info[1]}/site-packages"
    for name in SHADOWED:
        trap = (
            f"open('/workspace/imported-{name}', 'w').close()\n"
            "import time\nwhile True:\n    time.sleep(1)\n"
        )
        assert a.write_file(f"{name}.py", trap).startswith("wrote")
        assert a.write_file(f"{user_site}/{name}.py", trap).startswith("wrote")
    pth = "import os; open('/workspace/imported-pth', 'w').close()\n"
    assert a.write_file(f"{user_site}/evil.pth", pth).startswith("wrote")
    assert a.write_file("mymodule.py", "VALUE = 'mine'\n").startswith("wrote")
    out = [a.python("import mymodule\nprint('mymodule:', mymodule.VALUE)")]
    out.append(a.python("import json\nprint(json.dumps({'still': 'stdlib'}))\n1 / 0"))
    out.append(a.python("import time\ntime.sleep(30)", timeout=1))
    imported = sorted(p.name for p in a.workspace.glob("imported-*"))
    assert imported == [], imported
    assert "ZeroDivisionError" in out[1] and '{"still": "stdlib"}' in out[1], out[1]
    out.append(f"planted modules imported: {', '.join(imported) or 'none'}")
    return "\n".join(out)


@attack("hang-interpreter-garbage-replies")
def _garbage_replies(ctx: Ctx) -> str:
    a = ctx.agent
    out = [a.python(FIND_PIPES + "os.write(proto(os.O_WRONLY), b'\\xff' * 4 + b'x' * 64)")]
    forged = b'{"seq": -5, "status": "ok", "head": "forged output"}'
    out.append(
        a.python(
            FIND_PIPES
            + "import struct\n"
            + f"p = {forged!r}\nos.write(proto(os.O_WRONLY), struct.pack('>I', len(p)) + p)"
        )
    )
    assert "forged output" not in out[-1], out[-1]
    out.append(_fresh_call_works(ctx))
    return "\n".join(out)


@attack("hang-interpreter-stops-reading")
def _stops_reading(ctx: Ctx) -> str:
    a = ctx.agent
    swapped = a.python(FIND_PIPES + "r, w = os.pipe()\nos.dup2(r, proto(os.O_RDONLY))")
    assert "[ok" in swapped, swapped
    died = a.python("x = 1\n" * 150_000, timeout=2)
    assert "interpreter died:" in died, died
    return "\n".join([swapped, died, _fresh_call_works(ctx)])


test_attack = category_test("hang")
