"""Privilege escalation and kernel interfaces: root, user namespaces, /proc, /sys, devices."""

from __future__ import annotations

from pathlib import Path

from security.harness import Ctx, body
from security.suite import attack, category_test

SETUID = """\
import os, shutil, subprocess
try:
    os.setuid(0)
    print("uid 0 granted")
except OSError as e:
    print("uid 0 refused:", e.strerror)
try:
    os.chown("mine.txt", 0, 0)
    print("chown granted")
except OSError as e:
    print("chown refused:", e.strerror)
for line in open("/proc/self/status"):
    if line.startswith(("NoNewPrivs", "CapEff", "CapBnd")):
        print(line.strip())
su = shutil.which("su")
if su:  # a setuid-root binary, if the runtime has one: it must not make us root
    r = subprocess.run([su, "-c", "id -u", "root"], capture_output=True, text=True,
                       timeout=10, stdin=subprocess.DEVNULL)
    print("su gave uid:", r.stdout.strip() or "none", r.stderr.strip()[:80])
print("uid now:", os.getuid(), os.geteuid())
"""

USERNS = """\
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
CLONE_NEWNS, CLONE_NEWUSER = 0x00020000, 0x10000000
if libc.unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0:
    print("new user namespace:", os.strerror(ctypes.get_errno()))
else:
    print("new user namespace: created")
    mask = [m.split()[1] for m in open("/proc/self/mounts") if "mle_gym" in m.split()[1]]
    removed = False
    for target in mask:
        if libc.umount2(target.encode(), 2) == 0:  # MNT_DETACH
            removed = True
        else:
            print("umount", target, "failed:", os.strerror(ctypes.get_errno()))
    print("mask removed:", removed)
    rc = libc.mount(b"none", b"/workspace/data", b"tmpfs", 0, None)
    print("mount over the task data:", "done" if rc == 0 else os.strerror(ctypes.get_errno()))
import importlib.util
try:
    found = importlib.util.find_spec("mle_gym.tasks") is not None
except ImportError:
    found = False
print("mle_gym.tasks found:", found)
"""


@attack("privilege-setuid")
def _setuid(ctx: Ctx) -> str:
    a = ctx.agent
    a.write_file("mine.txt", "x")
    a.write_file("setuid.py", SETUID)
    obs = a.execute("python setuid.py; sudo -n id")
    assert "uid 0 granted" not in obs and "chown granted" not in obs, obs
    assert "uid now: 0" not in obs and "su gave uid: 0" not in obs and "uid=0(" not in obs, obs
    return obs


@attack("privilege-user-namespace")
def _userns(ctx: Ctx) -> str:
    a = ctx.agent
    a.write_file("userns.py", USERNS)
    obs = a.execute("python userns.py")
    assert "mle_gym.tasks found: False" in obs, obs
    after = a.execute("ls data")
    assert "train.csv" in body(after), after  # the task data is still there for the next step
    return obs


@attack("privilege-kernel-interfaces")
def _kernel(ctx: Ctx) -> str:
    panic = Path("/proc/sys/kernel/panic").read_text()
    obs = ctx.agent.execute(
        "echo b > /proc/sysrq-trigger; echo 1 > /proc/sys/kernel/panic; "
        "echo 1 > /proc/sys/vm/drop_caches; "
        "echo $$ > /sys/fs/cgroup/memory/cgroup.procs; "
        "echo 999999999999 > /sys/fs/cgroup/memory/memory.limit_in_bytes; "
        'python -c "import ctypes, os; l = ctypes.CDLL(None, use_errno=True); '
        "print('mount failed:' if l.mount(b'proc', b'/tmp', b'proc', 0, None) else 'MOUNTED', "
        'os.strerror(ctypes.get_errno()))"'
    )
    assert "MOUNTED" not in obs, obs
    assert Path("/proc/sys/kernel/panic").read_text() == panic
    return obs


@attack("privilege-devices")
def _devices(ctx: Ctx) -> str:
    obs = ctx.agent.execute(
        "for d in /dev/sda /dev/vda /dev/nvme0n1 /dev/mem /dev/kmem /dev/kmsg /dev/port "
        "/dev/loop0 /dev/loop-control; do head -c 16 $d >/dev/null; done; ls /dev"
    )
    listing = body(obs).split()
    for dev in ("sda", "vda", "mem", "kmsg", "loop0"):
        assert dev not in listing, obs
    return obs


test_attack = category_test("privilege")
