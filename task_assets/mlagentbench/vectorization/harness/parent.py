"""Timing harness (runs in the evaluation sandbox; never shown to the agent).

Usage: python -I parent.py MODULE_PATH

Reads and deletes the one-time nonce the host wrote next to this file, becomes
non-dumpable, starts ``child.py`` for MODULE_PATH, waits until it has imported the
module, then writes the input (derived from the nonce, so nobody could know it
before) and times the child's forward pass from outside. Prints one line:
``RESULT <nonce> {"ok": ..., "seconds": ...}``.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
SHAPE = (8, 32, 32, 3)
FILTERS, KERNEL, STRIDE, PADDING = 8, 3, 2, 2
READY_TIMEOUT_S = 120.0
RUN_TIMEOUT_S = 300.0


def make_inputs(nonce: str) -> dict[str, np.ndarray]:
    """The batch, kernels and biases of one timed run (also used by the host)."""
    rng = np.random.default_rng(int(nonce[:16], 16))
    return {
        "x": rng.standard_normal(SHAPE),
        "w": rng.standard_normal((KERNEL, KERNEL, SHAPE[3], FILTERS)),
        "b": rng.standard_normal((1, 1, 1, FILTERS)),
    }


def _readline(proc: subprocess.Popen, deadline: float) -> str:
    import selectors

    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    buf = b""
    while not buf.endswith(b"\n"):
        left = deadline - time.perf_counter()
        if left <= 0 or not sel.select(left):
            return ""
        chunk = os.read(proc.stdout.fileno(), 1)
        if not chunk:
            return ""
        buf += chunk
    return buf.decode("utf-8", "replace").strip()


def main() -> None:
    nonce_file = HERE / "nonce"
    nonce = nonce_file.read_text().strip()
    nonce_file.unlink()
    # keep the nonce out of reach of the child (no /proc/<pid>/mem access)
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE = 4
    module = sys.argv[1]
    result: dict[str, object] = {"ok": False}
    proc = subprocess.Popen(
        [sys.executable, "-I", str(HERE / "child.py"), module],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        if _readline(proc, time.perf_counter() + READY_TIMEOUT_S) != "ready":
            result["error"] = "the module could not be imported"
        else:
            inputs = make_inputs(nonce)
            in_path, out_path = HERE / f"in-{nonce}.npz", HERE / f"out-{nonce}.npy"
            started = time.perf_counter()
            np.savez(in_path, **inputs)
            proc.stdin.write(f"go {in_path} {out_path}\n".encode())
            proc.stdin.flush()
            answer = _readline(proc, started + RUN_TIMEOUT_S)
            seconds = time.perf_counter() - started
            if answer == "done":
                result = {"ok": True, "seconds": seconds}
            else:
                result["error"] = "the forward pass failed or timed out"
    finally:
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, 9)
        proc.wait()
    if not result["ok"]:
        tail = proc.stderr.read()[-2000:].decode("utf-8", "replace")
        result["stderr"] = tail
    print(f"RESULT {nonce} {json.dumps(result)}", flush=True)


if __name__ == "__main__":
    main()
