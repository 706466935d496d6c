"""Persistence across episodes: /tmp, background processes, interpreter state, workspace."""

from __future__ import annotations

import time
from pathlib import Path

from security.harness import Ctx, body, host_processes_matching
from security.suite import attack, category_test


@attack("persistence-tmp-files")
def _tmp(ctx: Ctx) -> str:
    a = ctx.agent
    marker = f"persist-{ctx.host.sleeper_tag}"
    first = a.execute(f"echo kept > /tmp/{marker} && echo kept > /dev/shm/{marker} && echo ok")
    assert body(first).strip() == "ok", first
    a.reset()
    obs = a.execute(f"cat /tmp/{marker}; cat /dev/shm/{marker}")
    assert "kept" not in body(obs)
    assert not Path("/tmp", marker).exists() and not Path("/dev/shm", marker).exists()
    return obs


def _sleep_tag(ctx: Ctx, n: int) -> str:
    return f"{ctx.host.sleeper_tag}{n}"


@attack("persistence-background-processes")
def _background(ctx: Ctx) -> str:
    a = ctx.agent
    sandbox = ctx.env.sandbox
    uid = getattr(sandbox, "uid", None) if ctx.backend == "local" else None
    container = getattr(sandbox, "container_id", None)
    tags = [_sleep_tag(ctx, n) for n in (1, 2, 3)]
    a.execute(
        f"setsid nohup sleep {tags[0]} >/dev/null 2>&1 & nohup sleep {tags[1]} >/dev/null 2>&1 & "
        "echo started"
    )
    a.python(f"import subprocess\np = subprocess.Popen(['setsid', 'sleep', '{tags[2]}'])")
    a.reset()
    time.sleep(0.3)
    for tag in tags:
        assert host_processes_matching(f"sleep {tag}") == [], tag
    if uid is not None:
        assert _pids_of_uid(uid) == [], "processes of the previous episode's uid remain"
    if container:
        import docker

        client = docker.from_env()
        assert not client.containers.list(all=True, filters={"id": container})
    # Inside the new episode: nothing of the previous one either.
    check = " ".join(f"$(({int(t) - 1} + 1))" for t in tags)
    obs = a.execute(
        f"n=0; for t in {check}; do for f in /proc/[0-9]*/cmdline; do "
        "[ \"$(tr '\\0' ' ' < $f 2>/dev/null)\" = \"sleep $t \" ] && n=$((n+1)); done; done; "
        'echo "leftover processes: $n"'
    )
    return obs


def _pids_of_uid(uid: int) -> list[int]:
    import os

    pids = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                if entry.stat().st_uid == uid:
                    pids.append(int(entry.name))
            except OSError:
                pass
    return pids


@attack("persistence-python-state")
def _python_state(ctx: Ctx) -> str:
    a = ctx.agent
    a.python("smuggled = 'from the previous episode'")
    assert "from the previous episode" in a.python("smuggled")
    a.reset()
    return a.python("print('state carried over:', 'smuggled' in globals())")


@attack("persistence-workspace")
def _workspace(ctx: Ctx) -> str:
    a = ctx.agent
    a.write_file("notes/plan.txt", "left behind")
    old = a.workspace
    a.reset()
    assert a.workspace != old and not old.exists()
    obs = a.execute("cat notes/plan.txt")
    assert "left behind" not in obs
    return obs


test_attack = category_test("persistence")
