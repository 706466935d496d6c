"""Start sandbox processes from one long-lived thread of the host process.

Linux sends a parent-death signal (``PR_SET_PDEATHSIG``, which bubblewrap's
``--die-with-parent`` relies on) when the *thread* that forked the child ends,
not when its process does. A sandbox started from a short-lived thread (a thread
per episode, an executor worker that finishes) would be killed with that thread,
its interpreter state and files in ``/tmp`` lost. :func:`popen` therefore forks
every sandbox process from one thread that lives as long as the host process, so
sandboxes die with the host process, and only then.

After ``fork()`` (multiprocessing, vector envs) the child gets a thread of its own
on first use.
"""

from __future__ import annotations

import os
import subprocess
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

_lock = threading.Lock()
_executor: ThreadPoolExecutor | None = None
_owner = 0


def _after_fork_in_child() -> None:
    global _lock, _executor, _owner
    _lock = threading.Lock()
    _executor, _owner = None, 0


os.register_at_fork(after_in_child=_after_fork_in_child)


def popen(argv: list[str], **kwargs: Any) -> subprocess.Popen[bytes]:
    """``subprocess.Popen(argv, **kwargs)``, forked by the process-lifetime thread."""
    global _executor, _owner
    with _lock:
        if _executor is None or _owner != os.getpid():
            _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mle-gym-spawner")
            _owner = os.getpid()
        executor = _executor

    def start() -> subprocess.Popen[bytes]:
        return subprocess.Popen(argv, **kwargs)

    if threading.current_thread().name.startswith("mle-gym-spawner"):
        return start()
    try:
        future = executor.submit(start)
    except RuntimeError:  # the interpreter is shutting down: no new threads
        return start()
    return future.result()
