"""Resource exhaustion: processes, memory, disk, /tmp, CPU, wall time and output."""

from __future__ import annotations

import shutil

from security.harness import Ctx, body
from security.suite import attack, category_test

FORK_LOOP = (
    "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n"
)


@attack("resources-fork-bomb")
def _fork_bomb(ctx: Ctx) -> str:
    a = ctx.agent
    shell = a.execute("bomb() { bomb | bomb & }; bomb; sleep 3; echo survived", timeout=8)
    a.write_file("forks.py", FORK_LOOP)
    py = a.execute("python forks.py", timeout=4)
    assert py.startswith("[killed: wall-clock timeout"), py
    return shell + "\n" + py


@attack("resources-memory-execute")
def _memory_execute(ctx: Ctx) -> str:
    obs = ctx.agent.execute("python -c 'x = bytearray(2 * 1024**3); print(len(x))'")
    assert "2147483648" not in obs
    assert ctx.agent.steps[-1].info["tool_meta"]["oom_killed"] is True
    return obs


@attack("resources-memory-python")
def _memory_python(ctx: Ctx) -> str:
    a = ctx.agent
    died = a.python("kept = 41\nhog = bytearray(2 * 1024**3)")
    after = a.python("print('alive')")
    assert "alive" in after
    return died + "\n" + after


@attack("resources-disk-quota")
def _disk(ctx: Ctx) -> str:
    a = ctx.agent
    host_free = shutil.disk_usage(a.workspace.parent).free
    fill = a.execute("python -c \"open('fill.bin', 'wb').write(b'0' * 200 * 2**20)\"")
    more = a.write_file("more.txt", "x" * 2**20)
    assert more.startswith("error:"), more
    size = (a.workspace / "fill.bin").stat().st_size
    assert size <= 64 * 2**20, size
    # the host disk lost at most the quota
    assert host_free - shutil.disk_usage(a.workspace.parent).free < 80 * 2**20
    freed = a.execute("rm fill.bin && echo freed")
    assert body(freed).strip() == "freed"
    assert a.write_file("more.txt", "x" * 2**20).startswith("wrote")
    return "\n".join([fill, more])


@attack("resources-tmp-fill")
def _tmp_fill(ctx: Ctx) -> str:
    obs = ctx.agent.execute(
        "python -c \"f = open('/tmp/fill', 'wb')\nfor _ in range(1024): f.write(b'0' * 2**20)\""
    )
    assert ctx.agent.steps[-1].info["tool_meta"]["oom_killed"] is True, obs
    return obs


@attack("resources-cpu-time")
def _cpu(ctx: Ctx) -> str:
    obs = ctx.agent.execute("python -c 'while True: pass'")
    assert not obs.startswith("[killed: wall-clock"), obs
    return obs


@attack("resources-infinite-loop-execute")
def _loop_execute(ctx: Ctx) -> str:
    return ctx.agent.execute("while true; do :; done", timeout=2)


@attack("resources-infinite-loop-python")
def _loop_python(ctx: Ctx) -> str:
    a = ctx.agent
    a.python("kept = 41")
    obs = a.python("while True:\n    pass", timeout=2)
    return obs + "\n" + a.python("print('kept:', kept)")


@attack("resources-python-ignores-interrupt")
def _stubborn(ctx: Ctx) -> str:
    a = ctx.agent
    died = a.python(
        "import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n"
        "while True:\n    try:\n        time.sleep(0.1)\n    except BaseException:\n        pass",
        timeout=2,
    )
    after = a.python("print('alive')")
    assert "alive" in after
    return died + "\n" + after


@attack("resources-output-flood-execute")
def _flood_execute(ctx: Ctx) -> str:
    obs = ctx.agent.execute("yes flood")
    limit = ctx.env.max_observation_chars
    assert len(obs) <= limit + 500, len(obs)
    return obs


@attack("resources-output-flood-python")
def _flood_python(ctx: Ctx) -> str:
    a = ctx.agent
    a.python("kept = 41")
    printed = a.python("import sys\nwhile True:\n    sys.stdout.write('flood ' * 10000)")
    child = a.python("import subprocess\nsubprocess.run(['yes', 'child-flood'])")
    limit = ctx.env.max_observation_chars
    for obs in (printed, child):
        assert len(obs) <= limit + 2000, len(obs)
    assert "kept: 41" in a.python("print('kept:', kept)")
    return printed + "\n" + child


test_attack = category_test("resources")
