"""The sandboxes' seccomp policy (mle_gym/sandbox/seccomp.py).

The BPF program is checked three ways: by running it on an interpreter of classic
BPF (every architecture, every denied call), by loading it into a host process
(the kernel accepts it; denied calls fail, threads and subprocesses still work), and
inside each backend's sandbox, for commands and the ``python`` tool.
"""

from __future__ import annotations

import errno
import json
import platform
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from mle_gym.sandbox import SandboxLimits, SandboxUnavailable, make_sandbox
from mle_gym.sandbox import seccomp as sc
from mle_gym.sandbox.kernel import PythonKernel

ALLOW = sc.SECCOMP_RET_ALLOW
EPERM = sc.SECCOMP_RET_ERRNO | errno.EPERM
ENOSYS = sc.SECCOMP_RET_ERRNO | errno.ENOSYS
THREAD_FLAGS = 0x003D0F00  # what glibc's pthread_create passes to clone
HOST = platform.machine()


def run_bpf(program: bytes, nr: int, arch: int, args: tuple[int, ...] = ()) -> int:
    """The action ``program`` returns for one system call (a classic-BPF interpreter
    of the instructions seccomp programs use: absolute word loads, jumps, returns)."""
    full = (*args, *(0,) * (6 - len(args)))
    data = struct.pack("<iIQ6Q", nr, arch, 0, *(a & (2**64 - 1) for a in full))
    insns = [struct.unpack_from("=HBBI", program, i) for i in range(0, len(program), 8)]
    acc, pc = 0, 0
    while True:
        code, jt, jf, k = insns[pc]
        pc += 1
        if code == 0x20:  # ld [k]
            (acc,) = struct.unpack_from("<I", data, k)
        elif code in (0x15, 0x35, 0x45):  # jeq, jge, jset
            hit = {0x15: acc == k, 0x35: acc >= k, 0x45: bool(acc & k)}[code]
            pc += jt if hit else jf
        elif code == 0x06:  # ret k
            return k
        else:
            raise AssertionError(f"unexpected opcode {code:#x}")


@pytest.mark.parametrize("machine", sorted(sc.ARCHES))
def test_filter_actions(machine: str) -> None:
    arch, table, has_x32 = sc.ARCHES[machine]
    prog = sc.local_filter(machine)
    assert len(prog) % 8 == 0 and len(prog) // 8 < 4096
    for name in sc.DENIED:
        assert run_bpf(prog, table[name], arch) == EPERM, name
    assert run_bpf(prog, table["clone3"], arch) == ENOSYS
    for name, flag in sc.CLONE_NEW_FLAGS.items():
        assert run_bpf(prog, table["clone"], arch, (flag | 17,)) == EPERM, name
    assert run_bpf(prog, table["clone"], arch, (THREAD_FLAGS,)) == ALLOW
    assert run_bpf(prog, table["clone"], arch, (17,)) == ALLOW  # fork: SIGCHLD only
    # Everything else is allowed: read, write, openat, the privilege drop of setpriv ...
    for nr in range(0, 460):
        if nr not in table.values():
            assert run_bpf(prog, nr, arch) == ALLOW, nr
    assert run_bpf(prog, table["keyctl"], 0x40000003) == ENOSYS  # i386 (int 0x80)
    other = sc.AUDIT_ARCH_AARCH64 if arch == sc.AUDIT_ARCH_X86_64 else sc.AUDIT_ARCH_X86_64
    assert run_bpf(prog, 39, other) == ENOSYS
    if has_x32:
        assert run_bpf(prog, sc.X32_SYSCALL_BIT | 39, arch) == ENOSYS


def test_tables_name_every_denied_call() -> None:
    for machine, (_, table, _) in sc.ARCHES.items():
        missing = set(sc.DENIED) | set(sc.NOT_IMPLEMENTED) | {"clone"}
        assert missing <= set(table), (machine, missing - set(table))
        assert len(set(table.values())) == len(table), machine


def test_unknown_architecture_is_a_clear_error() -> None:
    with pytest.raises(SandboxUnavailable, match=r"no seccomp filter for the 'mips' arch"):
        sc.local_filter("mips")


def test_docker_profile() -> None:
    profile = json.loads(sc.docker_profile())
    assert profile == sc.docker_profile_dict()
    assert profile["defaultAction"] == "SCMP_ACT_ALLOW"
    eperm = {
        n
        for r in profile["syscalls"]
        if r["action"] == "SCMP_ACT_ERRNO" and r["errnoRet"] == errno.EPERM and "args" not in r
        for n in r["names"]
    }
    assert eperm == set(sc.DENIED)
    assert {"add_key", "request_key", "keyctl", "io_uring_setup", "unshare"} <= eperm
    clone = [r for r in profile["syscalls"] if r["names"] == ["clone"]]
    flags = {r["args"][0]["value"] for r in clone}
    assert flags == set(sc.CLONE_NEW_FLAGS.values())
    for r in clone:
        (arg,) = r["args"]
        assert arg["op"] == "SCMP_CMP_MASKED_EQ" and arg["valueTwo"] == arg["value"]
        assert arg["index"] == 0 and r["errnoRet"] == errno.EPERM


# -- in the kernel ------------------------------------------------------------------------

PROBE = """
import ctypes, os, subprocess, threading
libc = ctypes.CDLL(None, use_errno=True)

def call(name, nr, *args):
    ctypes.set_errno(0)
    r = libc.syscall(ctypes.c_long(nr), *[ctypes.c_long(a) for a in args])
    if r == 0 and name.startswith("clone"):
        os._exit(0)  # a child: the call was not denied
    print(f"{name}: {r} {os.strerror(ctypes.get_errno()) if r == -1 else 'ok'}")

call("add_key", NR["add_key"], 0, 0, 0, 0, 0)
call("request_key", NR["request_key"], 0, 0, 0, 0)
call("keyctl", NR["keyctl"], 0, -3)  # KEYCTL_GET_KEYRING_ID of the user keyring
call("unshare", NR["unshare"], 0x10000000)
call("clone-newuser", NR["clone"], 0x10000000 | 17, 0, 0, 0, 0)
call("io_uring_setup", NR["io_uring_setup"], 1, 0)
call("getppid", NR["getppid"])
out = []
t = threading.Thread(target=out.append, args=("thread ok",))
t.start(); t.join(); print(*out)
print(subprocess.run(["echo", "subprocess ok"], capture_output=True, text=True).stdout.strip())
"""


def probe_source(load_filter: bytes | None = None) -> str:
    """The probe program; with ``load_filter`` it first installs that filter on itself."""
    _, table, _ = sc.ARCHES[HOST]
    nr = {**table, "getppid": 110 if HOST == "x86_64" else 173}
    head = f"NR = {nr!r}\n"
    if load_filter is not None:
        head += textwrap.dedent(
            f"""
            import ctypes
            _libc = ctypes.CDLL(None, use_errno=True)
            class _Prog(ctypes.Structure):
                _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]
            _buf = ctypes.create_string_buffer({load_filter!r}, {len(load_filter)})
            _prog = _Prog({len(load_filter) // 8}, ctypes.cast(_buf, ctypes.c_void_p))
            assert _libc.prctl(38, 1, 0, 0, 0) == 0  # PR_SET_NO_NEW_PRIVS
            assert _libc.prctl(22, 2, ctypes.byref(_prog), 0, 0) == 0, ctypes.get_errno()
            """
        )
    return head + PROBE


DENIED_LINES = (
    "add_key: -1 Operation not permitted",
    "request_key: -1 Operation not permitted",
    "keyctl: -1 Operation not permitted",
    "unshare: -1 Operation not permitted",
    "clone-newuser: -1 Operation not permitted",
    "io_uring_setup: -1 Operation not permitted",
    "thread ok",
    "subprocess ok",
)


def assert_probe_denied(out: str) -> None:
    for line in DENIED_LINES:
        assert line in out, (line, out)
    assert "getppid: -1" not in out and "getppid:" in out, out


@pytest.mark.slow
@pytest.mark.skipif(HOST not in sc.ARCHES, reason="no filter for this architecture")
def test_filter_loads_in_the_kernel() -> None:
    out = subprocess.run(
        [sys.executable, "-c", probe_source(sc.local_filter())],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert_probe_denied(out.stdout)


# -- in the sandboxes ---------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.sandbox
def test_denied_in_commands_and_the_python_tool(backend: str, tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "probe.py").write_text(probe_source())
    sb = make_sandbox(backend, ws, None, SandboxLimits(memory_mb=1024, pids=64))
    try:
        r = sb.exec("python probe.py && grep '^Seccomp:' /proc/self/status", 120)
        out = (r.head + r.tail).decode(errors="replace")
        assert r.exit_code == 0, out
        assert_probe_denied(out)
        assert "Seccomp:\t2" in out  # a filter is installed
        r = sb.exec("python -c 'import numpy, pandas, sklearn; print(\"imports ok\")'", 180)
        assert r.exit_code == 0 and b"imports ok" in r.head, r.head + r.tail
        kernel = PythonKernel(sb, memory_mb=1024)
        try:
            cell = kernel.run(probe_source(), 120)
            assert cell.status == "ok", cell
            assert_probe_denied(cell.head + cell.tail)
        finally:
            kernel.close()
    finally:
        sb.close()


INFO_FD_NINE = """
import json, os, signal, socket, struct, subprocess, sys, tempfile
from pathlib import Path
r, w = os.pipe()
os.dup2(w, 9)  # the info pipe on the descriptor the launcher gives the filter
os.close(w)
from mle_gym.sandbox import SandboxLimits
from mle_gym.sandbox.local import LocalSandbox
sb = LocalSandbox(Path(tempfile.mkdtemp()), None, SandboxLimits(memory_mb=512, pids=32))
host, server = socket.socketpair()
proc = subprocess.Popen(sb._server_argv(9), stdin=server.fileno(), stdout=subprocess.DEVNULL,
                        pass_fds=(9,), start_new_session=True, env={"PATH": "/usr/bin:/bin"})
os.close(9)
server.close()
info = b""
while chunk := os.read(r, 4096):
    info += chunk
pid = json.loads(info)["child-pid"]
host.settimeout(60)
(n,) = struct.unpack(">I", host.recv(4, socket.MSG_WAITALL))
print("hello:", json.loads(host.recv(n, socket.MSG_WAITALL)))
print([l for l in Path(f"/proc/{pid}/status").read_text().splitlines() if l.startswith("Seccomp:")])
os.killpg(proc.pid, signal.SIGKILL)
proc.wait()
sb.close()
"""


@pytest.mark.slow
@pytest.mark.only_backend("local")
def test_local_server_starts_when_its_info_pipe_is_fd_9(backend: str) -> None:
    """The launcher opens the filter on fd 9; an info pipe that is fd 9 is moved, not lost."""
    out = subprocess.run(
        [sys.executable, "-c", INFO_FD_NINE], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert "hello: {'ready': True}" in out.stdout, out.stdout
    assert "['Seccomp:\\t2']" in out.stdout, out.stdout
