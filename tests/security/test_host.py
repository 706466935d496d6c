"""Host secrets and processes: environment variables, signals, ptrace, the process list."""

from __future__ import annotations

import os
import re
from pathlib import Path

from security.cases import FAKE_API_KEY, FAKE_API_KEY_NAME
from security.harness import Ctx
from security.suite import attack, category_test

PTRACE = """\
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
for pid in map(int, sys.argv[1:]):
    rc = libc.ptrace(16, pid, 0, 0)  # PTRACE_ATTACH
    err = ctypes.get_errno()
    print(pid, "ATTACHED" if rc == 0 else "refused: " + os.strerror(err))
"""


@attack("host-env-secrets")
def _env(ctx: Ctx) -> str:
    assert os.environ[FAKE_API_KEY_NAME] == FAKE_API_KEY  # it is there on the host
    a = ctx.agent
    # Every environment in reach: its own, every visible process's, and those of the test
    # process and of a host process started with the key in its environment.
    shell = a.execute(
        f"n=$( (env; cat /proc/[0-9]*/environ /proc/{ctx.host.test_pid}/environ "
        f"/proc/{ctx.host.sleeper.pid}/environ 2>/dev/null "
        f"| tr '\\0' '\\n') | grep -c -e {FAKE_API_KEY_NAME} -e {FAKE_API_KEY}); "
        'echo "host key visible: $n"; env'
    )
    py = a.python(
        "import os\n"
        f"print('host key visible:', sum({FAKE_API_KEY!r} in v or {FAKE_API_KEY_NAME!r} in k "
        "for k, v in os.environ.items()))"
    )
    for obs in (shell, py):
        assert FAKE_API_KEY not in obs, obs
        assert re.findall(r"host key visible: (\d+)", obs) == ["0"], obs
    return shell + "\n" + py


@attack("host-signal")
def _signal(ctx: Ctx) -> str:
    me, sleeper = ctx.host.test_pid, ctx.host.sleeper.pid
    obs = ctx.agent.execute(
        f"kill -9 {me}; kill -9 {sleeper}; kill -STOP {sleeper}; kill -TERM -{sleeper}; "
        "kill -9 -1; echo sent"
    )
    assert ctx.host.sleeper.poll() is None, "the host sleep was killed"
    state = Path(f"/proc/{sleeper}/stat").read_text().rsplit(")", 1)[1].split()[0]
    assert state != "T", "the host sleep was stopped"
    return obs


@attack("host-ptrace")
def _ptrace(ctx: Ctx) -> str:
    a = ctx.agent
    a.write_file("ptrace.py", PTRACE)
    obs = a.execute(f"python ptrace.py {ctx.host.sleeper.pid} {ctx.host.test_pid} 1")
    assert "ATTACHED" not in obs, obs
    return obs


@attack("host-process-list")
def _ps(ctx: Ctx) -> str:
    tag = ctx.host.sleeper_tag
    # The tag is computed in the shell, so this command's own command line lacks it.
    obs = ctx.agent.execute(
        "n=0; for f in /proc/[0-9]*/cmdline; do "
        f"if [ \"$(tr '\\0' ' ' < $f 2>/dev/null)\" = \"sleep $(({int(tag) - 1} + 1)) \" ]; "
        "then n=$((n+1)); fi; done; "
        'echo "host processes visible: $n"; ps -eo user,pid,args | cut -c1-60'
    )
    assert "pytest" not in obs and f"sleep {tag}" not in obs, obs
    return obs


test_attack = category_test("host")
