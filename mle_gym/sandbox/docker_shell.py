"""The shell snippets the docker backend (:mod:`mle_gym.sandbox.docker`) runs inside an
episode's container, and the trailer its command wrapper prints."""

from __future__ import annotations

import re

from mle_gym.sandbox.base import WORKSPACE

MARK = "\x1emle-gym-exit\x1f"
_TRAILER = re.compile(rb"\n?\x1emle-gym-exit\x1f(-?\d+) (\d*) (\d*)\n?$")
# Shell snippets run as the agent uid inside the container. They use only dash
# builtins (no fork), so they still work when the agent has exhausted the pids limit.
# oom_read(var) sets $var to the cgroup's oom_kill counter (empty if unreadable).


def _oom_read(var: str) -> str:
    return (
        f'{var}=; while read -r key val; do [ "$key" = oom_kill ] && {var}=$val; done '
        "< /sys/fs/cgroup/memory/memory.oom_control 2>/dev/null"
    )


OOM_COUNT = _oom_read("c") + "; printf '%s' \"$c\""
# AGENT_ONLY: `continue` unless the process of /proc entry $d has real uid $u.
AGENT_ONLY = (
    'id=; while read -r key id rest; do [ "$key" = Uid: ] && break; done '
    '2>/dev/null < "$d/status" || continue; [ "$id" = "$u" ] || continue; '
)
#: the longest a sweep keeps killing and waiting for the reaping of what it killed, seconds
REAP_WAIT_S = 5
# REAP (after SWEEP's kill pass, with $k and $u set): pass over /proc, killing every process
# of the agent uid but the interpreter still alive, until a pass finds no such process and
# no entry that vanished while it was read (a process that died during the pass may have
# forked a child this pass did not list), or REAP_WAIT_S have passed (by /proc/uptime:
# `sleep` would need a fork). A killed process, zombie included, holds its slot in the pids
# limit until the container's init reaps it: until then the next command could not fork.
# A zombie child of the interpreter is not waited for (only the interpreter can reap it).
REAP = (
    "read -r up x < /proc/uptime; end=$((${up%.*} + " + str(REAP_WAIT_S) + ")); "
    "while :; do left=0; "
    'for d in /proc/[0-9]*; do p=${d#/proc/}; [ "$p" = "$k" ] && continue; '
    'id=; while read -r key id rest; do [ "$key" = Uid: ] && break; done '
    '2>/dev/null < "$d/status" || { left=1; continue; }; [ "$id" = "$u" ] || continue; '
    'line=; read -r line 2>/dev/null < "$d/stat" || { left=1; continue; }; '
    "set -- ${line##*) }; "
    'case "$1" in Z|X) [ "$2" = "$k" ] && continue;; *) kill -KILL "$p" 2>/dev/null;; esac; '
    "left=1; done; "
    '[ "$left" = 0 ] && break; read -r up x < /proc/uptime; [ "${up%.*}" -lt "$end" ] || break; '
    "done"
)
# SWEEP ($1 = the interpreter's pid, 0 if none; $2 = the agent uid), run as root: stop
# every process of the agent uid but the interpreter until a pass finds nothing new to
# stop (zombies need no stopping), so a fork bomb cannot outrun it, then kill them all,
# until none is left and all are reaped (REAP). The agent cannot signal it.
SWEEP = (
    'k="$1"; u="$2"; r=0; new=1; '
    'while [ "$new" -gt 0 ] && [ "$r" -lt 200 ]; do new=0; r=$((r+1)); '
    'for d in /proc/[0-9]*; do p=${d#/proc/}; [ "$p" = "$k" ] && continue; '
    f"{AGENT_ONLY}"
    'line=; read -r line 2>/dev/null < "$d/stat" || continue; set -- ${line##*) }; '
    'case "$1" in T|t|Z|X) continue;; esac; '
    'kill -STOP "$p" 2>/dev/null && new=$((new+1)); done; done; '
    'for d in /proc/[0-9]*; do p=${d#/proc/}; [ "$p" = "$k" ] && continue; '
    f'{AGENT_ONLY}kill -KILL "$p" 2>/dev/null; done; '
    f"{REAP}"
)
# KILL_SESSION ($1 = a session id): kill every process of that session.
KILL_SESSION = (
    'for d in /proc/[0-9]*; do line=; read -r line < "$d/stat" 2>/dev/null || continue; '
    'set -- ${line##*) }; [ "$4" = "$K" ] && kill -KILL "${d#/proc/}" 2>/dev/null; done'
)
# WRAPPER ($1 = interpreter pid, $2 = agent uid, $3 = CPU seconds, then the argv to
# run: DROP + sh -c command, or a supervisor in front of that), run as root: run the
# argv under the CPU-time limit, sweep what it left, and print a trailer with the exit
# status and the OOM counter before and after.
WRAPPER = (
    f'{_oom_read("o")}; k="$1"; u="$2"; t="$3"; shift 3; '
    '(ulimit -S -t "$t" && ulimit -H -t "$((t + 2))" && exec "$@") </dev/null 2>&1; '
    f'rc=$?; set -- "$k" "$u"; {SWEEP}; '
    f'{_oom_read("n")}; printf \'\\n{MARK}%s %s %s\\n\' "$rc" "$o" "$n"'
)
#: after dropping to the agent uid, enter /workspace (root without CAP_DAC_* may not)
CD_WORKSPACE = ("/bin/sh", "-c", f'cd {WORKSPACE} && exec "$@"', "mle-gym-cd")
