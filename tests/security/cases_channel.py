"""Channels between episodes: kernel objects that outlive a process or are shared by uids.

Each case runs two episodes of the same backend (two envs): A leaves a secret in a
kernel object, B (the next episode, or one running at the same time) looks for it.
"""

from __future__ import annotations

from security.cases import Case, both

TITLE = "Channels between episodes"

_ENOENT = "No such file or directory"

CASES: tuple[Case, ...] = (
    Case(
        "channel-keyring",
        "channel",
        "Episode A stores a secret as a key in its user keyring (`add_key` through ctypes), "
        "makes it readable by every uid and ends; episode B, given the same sandbox uid, asks "
        "for it by name (`request_key`, `KEYCTL_SEARCH`), reads A's key by its serial "
        "(`KEYCTL_READ`) and looks for it in `/proc/keys`.",
        "Keyrings are not isolated by namespaces: a key outlives its process, belongs to the "
        "uid (and leased uids are reused), and any uid may read a key whose permissions allow "
        "it. The seccomp filter of both sandboxes (bubblewrap's `--seccomp`; the container's "
        "seccomp profile) denies `add_key`, `request_key` and `keyctl` with EPERM, so no "
        "key can be made or read.",
        both(
            "episode B runs as episode A's uid",
            "add_key: Operation not permitted",
            "request_key: Operation not permitted",
            "keyctl_search: Operation not permitted",
            "keyctl_read: Operation not permitted",
            "keys named like A's in /proc/keys: 0",
        ),
    ),
    Case(
        "channel-sysv-ipc",
        "channel",
        "Episode A creates a SysV shared-memory segment, message queue and semaphore set "
        "under a fixed key (mode 0666) and writes a secret into them; episode B, running at "
        "the same time, opens them by that key.",
        "Each sandbox has its own IPC namespace (bubblewrap `--unshare-ipc`; docker's "
        "private IPC mode): B's key lookup finds nothing, the host's IPC namespace has no "
        "such key either; A still reads its own segment back.",
        both(
            "A reads back: shm ok",
            f"B shmget: {_ENOENT}",
            f"B msgget: {_ENOENT}",
            f"B semget: {_ENOENT}",
        ),
    ),
    Case(
        "channel-posix-mqueue",
        "channel",
        "Episode A creates a POSIX message queue with a fixed name (mode 0666) and sends a "
        "secret; episode B, running at the same time, opens the queue by name.",
        "POSIX message queues belong to the IPC namespace, private to each sandbox: B finds "
        "no such queue, nor does the host; A still receives its message.",
        both("A reads back: mq_receive: ok", f"B mq_open: {_ENOENT}"),
    ),
    Case(
        "channel-abstract-socket",
        "channel",
        "Episode A's `python` tool serves a secret on an abstract unix socket (no file, "
        "named in the kernel); episode B, running at the same time, connects to that name "
        "from a command and from its `python` tool.",
        "Abstract socket names belong to the network namespace, private to each sandbox "
        "(bubblewrap `--unshare-net`; docker `network_mode=none`): B and the host get "
        "'connection refused' while A's own client is served.",
        both("A's own client got the secret", "B connect: [Errno 111] Connection refused"),
    ),
    Case(
        "channel-dev-shm",
        "channel",
        "Episode A writes a secret to `/dev/shm` (and `/tmp`); episode B, running at the same "
        "time, reads the same paths.",
        "`/dev/shm` and `/tmp` are tmpfs mounts of each sandbox's own (nothing on the host's "
        "`/dev/shm`): B sees no such file while A reads its file back.",
        both("A reads back its /dev/shm file", f"B: cat: /dev/shm/mle-gym-channel: {_ENOENT}"),
    ),
)
