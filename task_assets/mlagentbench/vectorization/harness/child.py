"""One timed forward pass, run under the timing guard in the evaluation sandbox.

Usage: python -I child.py MODULE_PATH PROTOCOL_FD

Imports ``Conv2DLayer`` from MODULE_PATH, writes ``ready`` on the protocol pipe, then
waits for ``go <nonce> <out_path>`` on stdin (the guard starts its clock as it sends
it). Builds the input from the nonce (so nobody could know it before), runs the
forward pass, saves the result to ``out_path``, writes ``done`` and exits at once.
The guard stops the clock only when this process and everything it started have
exited.
"""

from __future__ import annotations

import importlib.util
import os
import sys

import numpy as np  # imported before the candidate's folder is on sys.path

SHAPE = (8, 32, 32, 3)
FILTERS, KERNEL, STRIDE, PADDING = 8, 3, 2, 2


def make_inputs(nonce: str) -> dict[str, np.ndarray]:
    """The batch, kernels and biases of one timed run (also used by the host)."""
    rng = np.random.default_rng(int(nonce[:16], 16))
    return {
        "x": rng.standard_normal(SHAPE),
        "w": rng.standard_normal((KERNEL, KERNEL, SHAPE[3], FILTERS)),
        "b": rng.standard_normal((1, 1, 1, FILTERS)),
    }


def main() -> None:
    path, protocol = sys.argv[1], int(sys.argv[2])
    sys.path.insert(0, os.path.dirname(path))
    os.chdir(os.path.dirname(path))
    spec = importlib.util.spec_from_file_location("candidate_module", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    layer_class = module.Conv2DLayer
    os.write(protocol, b"ready\n")
    _, nonce, out_path = sys.stdin.readline().split()
    data = make_inputs(nonce)
    x, w, b = data["x"], data["w"], data["b"]
    layer = layer_class(x.shape[3], w.shape[3], w.shape[0], STRIDE, PADDING, "relu")
    layer.kernel_matrices = w
    layer.biases = b
    out = np.asarray(layer.forward(x), dtype=np.float64)
    np.save(out_path, out, allow_pickle=False)
    os.write(protocol, b"done\n")
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)  # no interpreter teardown inside the timed window


if __name__ == "__main__":
    main()
