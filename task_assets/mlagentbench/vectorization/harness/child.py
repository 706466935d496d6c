"""Runs one candidate forward pass for parent.py (in the evaluation sandbox)."""

from __future__ import annotations

import importlib.util
import os
import sys

import numpy as np  # imported before the candidate's folder is on sys.path


def main() -> None:
    path = sys.argv[1]
    sys.path.insert(0, os.path.dirname(path))
    os.chdir(os.path.dirname(path))
    spec = importlib.util.spec_from_file_location("candidate_module", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    layer_class = module.Conv2DLayer
    print("ready", flush=True)
    _, in_path, out_path = sys.stdin.readline().split()
    data = np.load(in_path)
    x, w, b = data["x"], data["w"], data["b"]
    layer = layer_class(x.shape[3], w.shape[3], w.shape[0], 2, 2, "relu")
    layer.kernel_matrices = w
    layer.biases = b
    out = np.asarray(layer.forward(x), dtype=np.float64)
    np.save(out_path, out, allow_pickle=False)
    print("done", flush=True)


if __name__ == "__main__":
    main()
