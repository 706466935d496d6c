"""Channels between episodes: keyrings, SysV IPC, POSIX mqueues, abstract sockets, /dev/shm.

Every attack runs two episodes on the same backend: A is the case's env, B a second
env made here. Both act only through ``env.step``; the host checks its own view too.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import platform
import secrets
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mle_gym.sandbox import seccomp
from security.cases import ENV_KWARGS
from security.harness import Agent, Ctx, body
from security.suite import attack, category_test

pytestmark = pytest.mark.slow

IPC_KEY = 0x4D4C4547
MQ_NAME = "/mle-gym-channel"
SHM_FILE = "/dev/shm/mle-gym-channel"

# The attacker's helper, written into each episode's workspace. It prints one line per
# call: "<call>: ok <value>" or "<call>: <strerror>".
CHANNEL_PY = """
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
NR = {nr!r}

def report(name, r, value=""):
    err = ctypes.get_errno()
    print(f"{{name}}: ok {{value or r}}" if r != -1 else f"{{name}}: {{os.strerror(err)}}")
    return r

def sys_call(name, *args):
    ctypes.set_errno(0)
    conv = [a if isinstance(a, bytes) else ctypes.c_long(a) for a in args]
    return libc.syscall(ctypes.c_long(NR[name]), *conv)

op, arg = sys.argv[1], sys.argv[2:]
if op == "key-add":  # secret, description
    serial = report("add_key", sys_call("add_key", b"user", arg[1].encode(),
                                        arg[0].encode(), len(arg[0]), -4))
    if serial != -1:
        report("keyctl_setperm", sys_call("keyctl", 5, serial, 0x3F3F3F3F))
elif op == "key-find":  # description, serial
    desc = arg[0].encode()
    report("request_key", sys_call("request_key", b"user", desc, 0, 0))
    report("keyctl_search", sys_call("keyctl", 10, -4, b"user", desc, 0))
    buf = ctypes.create_string_buffer(256)
    ctypes.set_errno(0)
    n = libc.syscall(ctypes.c_long(NR["keyctl"]), ctypes.c_long(11), ctypes.c_long(int(arg[1])),
                     buf, ctypes.c_long(256))
    report("keyctl_read", n, buf.raw[: max(n, 0)].decode(errors="replace"))
    found = sum(arg[0] in line for line in open("/proc/keys"))
    print(f"keys named like A's in /proc/keys: {{found}}")
elif op == "ipc-make":  # key, secret
    key, secret = int(arg[0]), arg[1].encode()
    libc.shmat.restype = ctypes.c_void_p
    shm = report("shmget", libc.shmget(key, 4096, 0o1666))
    if shm != -1:
        addr = libc.shmat(shm, None, 0)
        ctypes.memmove(addr, secret, len(secret))
    msg = report("msgget", libc.msgget(key, 0o1666))
    if msg != -1:
        packet = ctypes.create_string_buffer((1).to_bytes(8, "little") + secret)  # mtype 1
        report("msgsnd", libc.msgsnd(msg, packet, len(secret), 0))
    report("semget", libc.semget(key, 1, 0o1666))
elif op == "ipc-read":  # key, who
    key, who = int(arg[0]), arg[1]
    libc.shmat.restype = ctypes.c_void_p
    ctypes.set_errno(0)
    shm = libc.shmget(key, 0, 0)
    if shm == -1:
        report(f"{{who}} shmget", shm)
    else:
        data = ctypes.string_at(libc.shmat(shm, None, 0), 64).split(b"\\0")[0].decode()
        print(f"{{who}} reads back: shm ok {{data}}")
    ctypes.set_errno(0)
    report(f"{{who}} msgget", libc.msgget(key, 0))
    ctypes.set_errno(0)
    report(f"{{who}} semget", libc.semget(key, 1, 0))
elif op == "mq-make":  # name, secret
    libc.mq_open.restype = ctypes.c_int
    mq = report("mq_open", libc.mq_open(arg[0].encode(), 0o102, 0o666, None))  # O_CREAT|O_RDWR
    if mq != -1:
        report("mq_send", libc.mq_send(mq, arg[1].encode(), len(arg[1]), 0))
elif op == "mq-read":  # name, who
    ctypes.set_errno(0)
    mq = libc.mq_open(arg[0].encode(), 0o2 | 0o4000)  # O_RDWR|O_NONBLOCK
    if mq == -1:
        report(f"{{arg[1]}} mq_open", mq)
    else:
        buf = ctypes.create_string_buffer(1 << 16)
        n = libc.mq_receive(mq, buf, 1 << 16, None)
        data = buf.raw[: max(n, 0)].decode(errors="replace")
        print(f"{{arg[1]}} reads back: " if n != -1 else "", end="")
        report("mq_receive", n, data)
elif op == "sock-connect":  # name, who
    import socket
    c = socket.socket(socket.AF_UNIX)
    try:
        c.connect("\\0" + arg[0])
        print(f"{{arg[1]}} connect: ok {{c.recv(100).decode()}}")
    except OSError as exc:
        print(f"{{arg[1]}} connect: {{exc}}")
"""


def channel_py() -> str:
    _, table, _ = seccomp.ARCHES[platform.machine()]
    return CHANNEL_PY.format(nr=table)


@contextlib.contextmanager
def second_episode(ctx: Ctx, **environ: str) -> Iterator[Agent]:
    """Episode B: another env of the same backend and limits, reset once (with the host
    environment variables ``environ`` set while its sandbox is made); closed after."""
    import gymnasium as gym

    saved = {k: os.environ.get(k) for k in environ}
    os.environ.update(environ)
    env: Any = None
    try:
        env = gym.make(
            "MLEBench/spaceship-titanic-v0", data="replica", sandbox=ctx.backend, **ENV_KWARGS
        )
        b = Agent(env, ctx.backend)
        b.reset()
    except BaseException:
        if env is not None:
            env.close()
        raise
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    try:
        b.write_file("channel.py", channel_py())
        yield b
    finally:
        env.close()


def _secret() -> str:
    return "channel-secret-" + secrets.token_hex(8)


def _run(agent: Agent, args: str) -> str:
    return body(agent.execute(f"python channel.py {args}", timeout=120))


def _drop_keys(desc: str) -> list[str]:
    """The host's keys named ``desc`` (as /proc/keys lines), invalidated on the way."""
    lines = [line for line in Path("/proc/keys").read_text().splitlines() if desc in line]
    libc = ctypes.CDLL(None, use_errno=True)
    for line in lines:
        libc.syscall(
            ctypes.c_long(seccomp.ARCHES[platform.machine()][1]["keyctl"]),
            ctypes.c_long(21),
            ctypes.c_long(int(line.split()[0], 16)),
        )  # INVALIDATE
    return lines


@attack("channel-keyring")
def _keyring(ctx: Ctx) -> str:
    a = ctx.agent
    secret, desc = _secret(), "mle-gym-channel-" + secrets.token_hex(4)
    a.write_file("channel.py", channel_py())
    made = _run(a, f"key-add {secret} {desc}")
    serial = made.split("add_key: ok ", 1)[1].split()[0] if "add_key: ok" in made else "0"
    uid_a = ctx.env.sandbox.uid
    a.reset()  # A's episode ends: its sandbox is gone and its uid free again
    leased = ctx.backend == "local" and os.geteuid() == 0  # (else: always the same uid)
    while leased and ctx.env.sandbox.uid == uid_a:  # the new episode took it back (1e-4)
        a.reset()
    env = {"MLE_GYM_UID_BASE": str(uid_a), "MLE_GYM_UID_COUNT": "1"}
    with second_episode(ctx, **(env if leased else {})) as b:
        same = b.env.unwrapped.sandbox.uid == uid_a
        found = _run(b, f"key-find {desc} {serial}")
        a.write_file("channel.py", channel_py())
        found_a = _run(a, f"key-find {desc} {serial}")  # A's next episode, too
    on_host = _drop_keys(desc)
    assert same, "episode B did not get episode A's uid"
    assert secret not in found + found_a, found + found_a
    assert not on_host, f"A's key exists on the host: {on_host}"
    return (
        f"episode B runs as episode A's uid ({uid_a})\nA:\n{made}\nB:\n{found}\n"
        f"A's next episode:\n{found_a}"
    )


@attack("channel-sysv-ipc")
def _sysv(ctx: Ctx) -> str:
    a = ctx.agent
    secret = _secret()
    a.write_file("channel.py", channel_py())
    made = _run(a, f"ipc-make {IPC_KEY} {secret}")
    assert "shmget: ok" in made and "msgget: ok" in made and "semget: ok" in made, made
    with second_episode(ctx) as b:
        seen = _run(b, f"ipc-read {IPC_KEY} B")
        back = _run(a, f"ipc-read {IPC_KEY} A")  # while B is alive: the objects exist
    assert secret not in seen, seen
    assert f"A reads back: shm ok {secret}" in back, back
    host = "".join(Path(f"/proc/sysvipc/{k}").read_text() for k in ("shm", "msg", "sem"))
    assert f" {IPC_KEY} " not in host, "the key exists in the host's IPC namespace"
    return f"A:\n{made}\n{back}\nB:\n{seen}"


@attack("channel-posix-mqueue")
def _mqueue(ctx: Ctx) -> str:
    a = ctx.agent
    secret = _secret()
    a.write_file("channel.py", channel_py())
    made = _run(a, f"mq-make {MQ_NAME} {secret}")
    assert "mq_send: ok" in made, made
    with second_episode(ctx) as b:
        seen = _run(b, f"mq-read {MQ_NAME} B")
        back = _run(a, f"mq-read {MQ_NAME} A")
    assert secret not in seen, seen
    assert f"mq_receive: ok {secret}" in back, back
    libc = ctypes.CDLL(None, use_errno=True)
    mq = libc.mq_open(MQ_NAME.encode(), os.O_RDONLY)
    if mq != -1:
        libc.mq_close(mq)
    assert mq == -1, "the queue exists in the host's IPC namespace"
    return f"A:\n{made}\n{back}\nB:\n{seen}"


SERVE = """
import socket, threading
srv = socket.socket(socket.AF_UNIX)
srv.bind("\\0{name}")
srv.listen(8)
def serve():
    while True:
        c, _ = srv.accept()
        c.sendall(b"{secret}")
        c.close()
threading.Thread(target=serve, daemon=True).start()
"""

CONNECT = """
import socket
c = socket.socket(socket.AF_UNIX)
try:
    c.connect("\\0{name}")
    print("{who} connect: ok", c.recv(100).decode())
except OSError as exc:
    print("{who} connect:", exc)
"""


@attack("channel-abstract-socket")
def _abstract(ctx: Ctx) -> str:
    a = ctx.agent
    secret, name = _secret(), "mle-gym-channel-" + secrets.token_hex(4)
    a.python(SERVE.format(name=name, secret=secret))
    with second_episode(ctx) as b:
        from_command = _run(b, f"sock-connect {name} B")
        from_python = b.python(CONNECT.format(name=name, who="B"))
        own = a.python(CONNECT.format(name=name, who="A"))  # while B is alive
    assert secret not in from_command + from_python, from_command + from_python
    assert f"A connect: ok {secret}" in own, own
    host = socket.socket(socket.AF_UNIX)
    try:
        with pytest.raises(OSError):
            host.connect("\0" + name)
    finally:
        host.close()
    evidence = f"{from_command}\n{from_python}"
    return f"A's own client got the secret:\n{own}\nB:\n{evidence}"


@attack("channel-dev-shm")
def _dev_shm(ctx: Ctx) -> str:
    a = ctx.agent
    secret = _secret()
    made = a.execute(f"echo {secret} > {SHM_FILE} && echo {secret} > /tmp/mle-gym-channel")
    assert made.startswith("[exit code 0"), made
    with second_episode(ctx) as b:
        seen = b.execute(f"cat {SHM_FILE} /tmp/mle-gym-channel")
        back = a.execute(f"cat {SHM_FILE}")
    assert secret not in seen, seen
    assert secret in back, back
    assert not Path(SHM_FILE).exists(), "the file is on the host's /dev/shm"
    return f"A reads back its /dev/shm file:\n{back}\nB: {body(seen)}"


test_attack = category_test("channel")
