"""Nothing the agent starts outlives its step: escapes from the per-step sweep.

Each attack leaves a *writer* behind (a process appending a line to a workspace file
every 0.1 s) after trying to get it out of the sweep's reach; the host then checks,
from outside the sandbox, that the file stops growing once the step has returned and
that no process with the writer's tag is left on the host.
"""

from __future__ import annotations

from security.cases import Case, both, per_backend

TITLE = "Processes that outlive their step"

_STOPPED = "writer stopped after the step: yes"
_NO_PROCESS = "writer processes left on the host: 0"

CASES: tuple[Case, ...] = (
    Case(
        "sweep-kill-wrapper",
        "sweep",
        "`execute` a command that kills (`kill -9 $PPID`) and stops (`kill -STOP $PPID`) the "
        "process that runs it and would sweep after it, then leaves a writer running in the "
        "background.",
        "Local: the command's parent is PID 1 of the sandbox's pid namespace (the command "
        "server), which ignores every signal from inside the namespace, and kills every other "
        "process of the namespace when the command ends. Docker: the command's parent is a "
        "root wrapper in the container; the agent's uid has no capability and cannot signal "
        "it (`Operation not permitted`), and the wrapper kills every process of the agent's "
        "uid but the interpreter when the command ends.",
        per_backend(
            ("the parent survived: yes", _STOPPED, _NO_PROCESS),
            ("Operation not permitted", "the parent survived: yes", _STOPPED, _NO_PROCESS),
        ),
    ),
    Case(
        "sweep-double-fork",
        "sweep",
        "`execute` a command that double-forks a writer (its parent exits at once, so it is "
        "re-parented away from the command's process tree) and returns.",
        "The sweep does not follow the process tree: local kills every process of the "
        "command's pid namespace; docker kills every process of the agent's uid (but the "
        "interpreter) found in /proc, stopping them first so that none can fork away.",
        both("[exit code 0 ", "double-forked", _STOPPED, _NO_PROCESS),
    ),
    Case(
        "sweep-setsid-nohup",
        "sweep",
        "`execute` a command that starts a writer with `setsid nohup`, ignoring SIGHUP and "
        "SIGTERM, in a new session and process group, non-dumpable (so that its /proc "
        "entry is owned by root), and returns.",
        "Sessions, process groups and ignored signals do not matter: the sweep sends SIGKILL "
        "to every process of the pid namespace (local) or of the agent's uid (docker).",
        both("[exit code 0 ", "detached", _STOPPED, _NO_PROCESS),
    ),
    Case(
        "sweep-interpreter-child",
        "sweep",
        "In the `python` tool, start a writer with `subprocess.Popen(..., "
        "start_new_session=True)` and a double-forked, non-dumpable one (its /proc entry "
        "then belongs to root), and keep a variable in the interpreter.",
        "After each `python` step the host sweeps every process of the sandbox's uid except "
        "the interpreter itself (local: through the episode's freezer cgroup: freeze, SIGKILL, "
        "thaw; docker: the same through the container's cgroup from the host), telling "
        "processes by the real uid in /proc/<pid>/status, not by who owns /proc/<pid>. The "
        "interpreter and its variables are kept; the next cell sees its child killed "
        "(`-9`).",
        both("children started", "child return code: -9", "kept: 'state'", _STOPPED, _NO_PROCESS),
    ),
    Case(
        "sweep-kill-sweeper",
        "sweep",
        "`execute` a command that starts a writer, then signals every process it can see: "
        "`kill -STOP -1`, SIGSTOP and SIGKILL to every pid in /proc owned by another user "
        "(the sandbox's helpers), `kill -9 -1`, and starts a second writer.",
        "The sweepers are out of the agent's reach: local — the sandbox's PID 1 ignores "
        "signals from inside its namespace and the interpreter sweep runs on the host; "
        "docker — the wrapper and the container's other helpers are root, and the agent's "
        "uid has no CAP_KILL (and the host sweeps through the cgroup). `kill -1` only "
        "reaches the agent's own processes.",
        both(
            "signals delivered to other users' processes: 0",
            "second writer started",
            _STOPPED,
            _NO_PROCESS,
        ),
    ),
)
