"""Seccomp filters for the sandboxes: no kernel object that outlives an episode.

Some kernel objects survive the process that made them and are shared by every
process of a uid, or of the whole machine, whatever namespaces a sandbox has. The
kernel keyrings are the one the namespaces of either backend do not cover: a key
added by one episode (to its user keyring, or readable by "other") is still there
for the next episode, whose leased uid may be the same one, and any uid can read a
key whose permissions allow it by its serial number (listed in ``/proc/keys``).
So the sandboxes deny ``add_key``, ``request_key`` and ``keyctl``. The other
channels are closed by namespaces (checked by ``tests/security/test_channel.py``):
SysV IPC and POSIX message queues by a private IPC namespace, abstract unix sockets
by a private network namespace, ``/dev/shm`` by a tmpfs of the sandbox's own.

The same filter also denies kernel interfaces an ML program never needs and which
are the usual way from an unprivileged process into the kernel: ``io_uring`` (whose
operations seccomp cannot see), ``bpf``, ``perf_event_open``, ``userfaultfd``,
``fanotify_init`` (events on files other sandboxes share),
creating or joining namespaces (``unshare``, ``setns``, ``clone`` with a
``CLONE_NEW*`` flag), and, as defence in depth since the sandbox holds no
capabilities anyway, mounting, ``chroot``, kernel modules, ``kexec``, ``reboot``,
swap, ``acct``, ``syslog`` and file handles.

Denied calls fail with ``EPERM`` (the program gets a clean error, nothing is
killed); ``clone3`` fails with ``ENOSYS`` because its flags cannot be inspected
and the C library then falls back to ``clone``, whose flags can. Calls of another
ABI (32-bit ``int 0x80``, x32) fail with ``ENOSYS`` in the local sandbox; in a
container the engine kills the process that makes one.

* :func:`local_filter` is the classic BPF program (``struct sock_filter`` array)
  for bubblewrap's ``--seccomp FD`` on this machine's architecture (x86_64 or
  aarch64). bubblewrap loads it just before it execs the sandboxed program, so
  bubblewrap's own mounts and namespaces are not affected; ``setpriv`` (which
  drops root inside the local sandbox) needs none of the denied calls.
* :func:`docker_profile` is the same policy as a Docker seccomp profile (JSON).
  A profile replaces Docker's default one, so it allows everything else: the calls
  of Docker's default deny list that work without a capability (keyrings, ``bpf``,
  ``perf_event_open``, ``userfaultfd``, namespaces) are in the list above, and
  those that need one fail anyway, the container having none. The list also has
  ``io_uring``, which Docker's default allowed before Docker 25 (e.g. 20.10). The
  policy no longer depends on the engine's version or its default profile.

``ptrace`` stays allowed (the ML-Bench exec tracer needs it; each episode has its own
pid namespace and uid). Not closed: covert signalling between episodes that run *at
the same time* through what they share read-only (``flock`` or inotify events on
files of ``/usr``, the runtime or the task data; CPU and memory timing). Nothing of
that outlives the process holding it.
"""

from __future__ import annotations

import errno
import json
import platform
import struct

from mle_gym.sandbox.base import SandboxUnavailable

#: The descriptor on which the local backend's launcher hands the filter to bubblewrap
#: (``--seccomp 9``); a single digit, as ``/bin/sh`` redirections need.
BWRAP_FD = 9

#: Denied with EPERM, in every sandbox.
DENIED: tuple[str, ...] = (
    # kernel keyrings: the one cross-episode channel namespaces do not close
    "add_key",
    "request_key",
    "keyctl",
    # kernel attack surface reachable without capabilities
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "bpf",
    "perf_event_open",
    "userfaultfd",
    "fanotify_init",
    # new namespaces (clone with CLONE_NEW* flags is filtered by argument)
    "unshare",
    "setns",
    # privileged operations (no capability inside anyway): defence in depth
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "open_tree",
    "move_mount",
    "fsopen",
    "fsconfig",
    "fsmount",
    "fspick",
    "mount_setattr",
    "init_module",
    "finit_module",
    "delete_module",
    "kexec_load",
    "kexec_file_load",
    "reboot",
    "swapon",
    "swapoff",
    "acct",
    "syslog",
    "open_by_handle_at",
    "name_to_handle_at",
)

#: Denied with ENOSYS: the C library falls back to an inspectable call.
NOT_IMPLEMENTED: tuple[str, ...] = ("clone3",)

#: ``clone`` flags that create namespaces (CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC,
#: NEWUSER, NEWPID, NEWNET); a ``clone`` with any of them is denied.
CLONE_NEW_FLAGS: dict[str, int] = {
    "CLONE_NEWNS": 0x00020000,
    "CLONE_NEWCGROUP": 0x02000000,
    "CLONE_NEWUTS": 0x04000000,
    "CLONE_NEWIPC": 0x08000000,
    "CLONE_NEWUSER": 0x10000000,
    "CLONE_NEWPID": 0x20000000,
    "CLONE_NEWNET": 0x40000000,
}
CLONE_NEW_MASK = sum(CLONE_NEW_FLAGS.values())

AUDIT_ARCH_X86_64 = 0xC000003E
AUDIT_ARCH_AARCH64 = 0xC00000B7
X32_SYSCALL_BIT = 0x40000000

# Syscall numbers (x86_64: arch/x86/entry/syscalls/syscall_64.tbl; aarch64: the
# generic table, include/uapi/asm-generic/unistd.h).
_COMMON = {
    "io_uring_setup": 425,
    "io_uring_enter": 426,
    "io_uring_register": 427,
    "open_tree": 428,
    "move_mount": 429,
    "fsopen": 430,
    "fsconfig": 431,
    "fsmount": 432,
    "fspick": 433,
    "clone3": 435,
    "mount_setattr": 442,
}
_X86_64 = {
    **_COMMON,
    "clone": 56,
    "syslog": 103,
    "pivot_root": 155,
    "chroot": 161,
    "acct": 163,
    "mount": 165,
    "umount2": 166,
    "swapon": 167,
    "swapoff": 168,
    "reboot": 169,
    "init_module": 175,
    "delete_module": 176,
    "kexec_load": 246,
    "add_key": 248,
    "request_key": 249,
    "keyctl": 250,
    "unshare": 272,
    "perf_event_open": 298,
    "name_to_handle_at": 303,
    "fanotify_init": 300,
    "open_by_handle_at": 304,
    "setns": 308,
    "finit_module": 313,
    "kexec_file_load": 320,
    "bpf": 321,
    "userfaultfd": 323,
}
_AARCH64 = {
    **_COMMON,
    "umount2": 39,
    "mount": 40,
    "pivot_root": 41,
    "chroot": 51,
    "acct": 89,
    "unshare": 97,
    "kexec_load": 104,
    "init_module": 105,
    "delete_module": 106,
    "syslog": 116,
    "reboot": 142,
    "add_key": 217,
    "request_key": 218,
    "keyctl": 219,
    "clone": 220,
    "swapon": 224,
    "swapoff": 225,
    "perf_event_open": 241,
    "fanotify_init": 262,
    "name_to_handle_at": 264,
    "open_by_handle_at": 265,
    "setns": 268,
    "finit_module": 273,
    "bpf": 280,
    "userfaultfd": 282,
    "kexec_file_load": 294,
}
#: machine (``platform.machine()``) -> (AUDIT_ARCH value, syscall table, has x32 ABI)
ARCHES: dict[str, tuple[int, dict[str, int], bool]] = {
    "x86_64": (AUDIT_ARCH_X86_64, _X86_64, True),
    "aarch64": (AUDIT_ARCH_AARCH64, _AARCH64, False),
}

# Classic BPF opcodes (linux/filter.h, linux/seccomp.h).
_LD_W_ABS = 0x20  # BPF_LD | BPF_W | BPF_ABS
_JEQ_K = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
_JGE_K = 0x35  # BPF_JMP | BPF_JGE | BPF_K
_JSET_K = 0x45  # BPF_JMP | BPF_JSET | BPF_K
_RET_K = 0x06  # BPF_RET | BPF_K
SECCOMP_RET_ALLOW = 0x7FFF0000
SECCOMP_RET_ERRNO = 0x00050000
# struct seccomp_data offsets: int nr; __u32 arch; __u64 ip; __u64 args[6]
_OFF_NR, _OFF_ARCH, _OFF_ARG0_LOW = 0, 4, 16  # args[0]'s low half (little-endian)
_SOCK_FILTER = struct.Struct("=HBBI")
#: (code, jt, jf, k): a jump target is an offset or a label's name (see _resolve)
_Insn = tuple[int, int | str, int | str, int]


class SeccompUnsupported(SandboxUnavailable):
    """No filter is known for this machine's architecture."""


def _resolve(program: list[_Insn]) -> bytes:
    """Pack a program whose jump targets are label names into ``struct sock_filter``s.

    Each entry is (code, jt, jf, k); jt/jf are a relative offset or the name of a
    label, a label being a marker entry ``(-1, name, 0, 0)`` (not output) naming the
    instruction that follows it.
    """
    labels: dict[str, int] = {}
    body: list[_Insn] = []
    for entry in program:
        if entry[0] == -1:
            labels[str(entry[1])] = len(body)
        else:
            body.append(entry)
    out = bytearray()
    for pc, (code, jt, jf, k) in enumerate(body):
        offsets = []
        for target in (jt, jf):
            if isinstance(target, str):
                off = labels[target] - pc - 1
                if not 0 <= off <= 255:
                    raise AssertionError(f"jump to {target!r} out of range ({off})")
                offsets.append(off)
            else:
                offsets.append(target)
        out += _SOCK_FILTER.pack(code, offsets[0], offsets[1], k)
    return bytes(out)


def local_filter(machine: str | None = None) -> bytes:
    """The BPF program (packed ``struct sock_filter`` array) for bubblewrap's ``--seccomp``.

    ``machine`` defaults to this host's (``platform.machine()``); SeccompUnsupported
    names the architectures known.
    """
    machine = machine or platform.machine()
    if machine not in ARCHES:
        raise SeccompUnsupported(
            f"no seccomp filter for the {machine!r} architecture (known: {', '.join(ARCHES)})"
        )
    audit_arch, table, has_x32 = ARCHES[machine]
    prog: list[_Insn] = [
        (_LD_W_ABS, 0, 0, _OFF_ARCH),
        (_JEQ_K, 0, "enosys", audit_arch),
        (_LD_W_ABS, 0, 0, _OFF_NR),
    ]
    if has_x32:
        prog.append((_JGE_K, "enosys", 0, X32_SYSCALL_BIT))
    # Fast path: calls numbered below or above every filtered one (read, write, mmap ...
    # on x86_64) are allowed after two comparisons instead of the whole list.
    filtered = [table[name] for name in (*DENIED, *NOT_IMPLEMENTED, "clone")]
    prog.append((_JGE_K, 0, "allow", min(filtered)))
    prog.append((_JGE_K, "allow", 0, max(filtered) + 1))
    for name in DENIED:
        prog.append((_JEQ_K, "eperm", 0, table[name]))
    for name in NOT_IMPLEMENTED:
        prog.append((_JEQ_K, "enosys", 0, table[name]))
    prog += [
        (_JEQ_K, "clone", 0, table["clone"]),
        (-1, "allow", 0, 0),
        (_RET_K, 0, 0, SECCOMP_RET_ALLOW),
        (-1, "clone", 0, 0),
        (_LD_W_ABS, 0, 0, _OFF_ARG0_LOW),
        (_JSET_K, "eperm", 0, CLONE_NEW_MASK),
        (_RET_K, 0, 0, SECCOMP_RET_ALLOW),
        (-1, "eperm", 0, 0),
        (_RET_K, 0, 0, SECCOMP_RET_ERRNO | errno.EPERM),
        (-1, "enosys", 0, 0),
        (_RET_K, 0, 0, SECCOMP_RET_ERRNO | errno.ENOSYS),
    ]
    return _resolve(prog)


def docker_profile_dict() -> dict[str, object]:
    """The Docker seccomp profile (see the module docstring) as a dict."""
    rules: list[dict[str, object]] = [
        {"names": list(DENIED), "action": "SCMP_ACT_ERRNO", "errnoRet": errno.EPERM},
        {"names": list(NOT_IMPLEMENTED), "action": "SCMP_ACT_ERRNO", "errnoRet": errno.ENOSYS},
    ]
    # A rule's conditions are ANDed and rules are ORed, so "any CLONE_NEW* bit set" is
    # one rule per flag: (flags & flag) == flag.
    for flag in CLONE_NEW_FLAGS.values():
        rules.append(
            {
                "names": ["clone"],
                "action": "SCMP_ACT_ERRNO",
                "errnoRet": errno.EPERM,
                "args": [{"index": 0, "value": flag, "valueTwo": flag, "op": "SCMP_CMP_MASKED_EQ"}],
            }
        )
    return {
        "defaultAction": "SCMP_ACT_ALLOW",
        # Only the native 64-bit ABIs: 32-bit and x32 calls are refused outright.
        "architectures": ["SCMP_ARCH_X86_64", "SCMP_ARCH_AARCH64"],
        "syscalls": rules,
    }


def docker_profile() -> str:
    """The Docker seccomp profile as JSON text, for ``security_opt=["seccomp=<text>"]``."""
    return json.dumps(docker_profile_dict(), separators=(",", ":"))
