"""Hidden evaluator of MLAgentBench/vectorization (host side; never in a sandbox).

In one fresh evaluation sandbox, ``ROUNDS`` rounds each time one forward pass of the
starter code's ``Conv2DLayer`` (the baseline) and one of the agent's, in alternating
order so that drifting machine load hits both alike. Every pass runs in its own
process, started and timed from outside by ``harness/parent.py`` on an input derived
from a one-time nonce (unknown to the agent's code until the clock runs). Before each
pass the evaluation folder is rewritten from scratch, and the sandbox removes every
process a pass left behind, so one pass cannot disturb the next.

Correctness is checked on the host: every output of the agent's code is compared, on
every element, with the layer's definition computed here (float64,
``|diff| <= ATOL + RTOL * |reference|``). Score: the median time of the agent's
passes; baseline: the median time of the starter code's passes in the same run. The
improvement is estimated from the rounds as pairs: ``1 - median(agent_r / starter_r)``,
so that load on the machine, which slows both passes of a round alike, cancels out.
"""

from __future__ import annotations

import importlib.util
import json
import os
import secrets
import shutil
import statistics
import tempfile
from pathlib import Path

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from mle_gym.families.mlagentbench.evaluation import EvalJob, Evaluation, EvaluationFailed

HERE = Path(__file__).resolve().parent
ROUNDS = 11
ATOL = RTOL = 1e-9
STRIDE = PADDING = 2
PASS_TIMEOUT_S = 420.0
MAX_OUTPUT_BYTES = 64 * 2**20


def _harness():
    path = HERE / "harness" / "parent.py"
    spec = importlib.util.spec_from_file_location("mlab_vectorization_harness", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def reference_forward(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """What Conv2DLayer(c, f, k, 2, 2, 'relu').forward computes, vectorised."""
    size = w.shape[0]
    padded = np.pad(x, ((0, 0), (PADDING, PADDING), (PADDING, PADDING), (0, 0)))
    windows = sliding_window_view(padded, (size, size), axis=(1, 2))[:, ::STRIDE, ::STRIDE]
    out = np.einsum("bhwcij,ijcf->bhwf", windows, w, optimize=True) + b
    return out * (out > 0)


def _chown_tree(root: Path, owner: tuple[int, int] | None) -> None:
    if owner is None:
        return
    for dirpath, dirnames, filenames in os.walk(root):
        os.chown(dirpath, *owner)
        for name in dirnames + filenames:
            os.chown(os.path.join(dirpath, name), *owner, follow_symlinks=False)


def _fill(folder: Path, agent_files: Path, starter: Path, nonce: str, owner) -> None:
    """Rewrite the evaluation folder from scratch for one pass."""
    for entry in folder.iterdir():
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        else:
            entry.unlink()
    shutil.copytree(agent_files, folder / "agent", symlinks=True)
    (folder / "reference").mkdir()
    shutil.copyfile(starter / "train.py", folder / "reference" / "train.py")
    shutil.copytree(HERE / "harness", folder / "_mlab")
    (folder / "_mlab" / "nonce").write_text(nonce)
    _chown_tree(folder, owner)


def _parse(output: str, nonce: str) -> dict:
    for line in output.splitlines():
        if line.startswith(f"RESULT {nonce} "):
            try:
                record = json.loads(line.split(" ", 2)[2])
            except ValueError:
                break
            if isinstance(record, dict):
                return record
    return {"ok": False, "error": "the harness reported no result", "stderr": output[-2000:]}


def _load_output(path: Path) -> np.ndarray:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as exc:
        raise EvaluationFailed(f"the forward pass left no output ({exc.strerror})") from None
    with os.fdopen(fd, "rb") as handle:
        data = handle.read(MAX_OUTPUT_BYTES + 1)
    if len(data) > MAX_OUTPUT_BYTES:
        raise EvaluationFailed("the forward pass output is far too large")
    import io

    try:
        return np.load(io.BytesIO(data), allow_pickle=False)
    except ValueError as exc:
        raise EvaluationFailed(f"the forward pass output is unreadable: {exc}") from None


def evaluate(job: EvalJob) -> Evaluation:
    if not (job.outputs / "train.py").is_file():
        raise EvaluationFailed("train.py is missing from the workspace")
    harness = _harness()
    agent_times: list[float] = []
    base_times: list[float] = []
    worst = 0.0
    with tempfile.TemporaryDirectory(prefix="mle_gym-vec-") as tmp:
        folder = Path(tmp) / "eval"
        folder.mkdir()
        with job.session(folder) as sandbox:
            owner = sandbox.file_owner
            for round_no in range(ROUNDS):
                order = ("baseline", "agent") if round_no % 2 == 0 else ("agent", "baseline")
                for who in order:
                    nonce = secrets.token_hex(16)
                    _fill(folder, job.outputs, job.starter, nonce, owner)
                    module = "agent" if who == "agent" else "reference"
                    result = sandbox.exec(
                        f"python -I /workspace/_mlab/parent.py /workspace/{module}/train.py",
                        PASS_TIMEOUT_S,
                    )
                    text = (result.head + result.tail).decode("utf-8", "replace")
                    record = _parse(text, nonce)
                    if who == "baseline":
                        if not record.get("ok"):
                            raise RuntimeError(f"the reference convolution failed: {record}")
                        base_times.append(float(record["seconds"]))
                        continue
                    if not record.get("ok"):
                        raise EvaluationFailed(
                            f"Conv2DLayer of train.py failed: {record.get('error')}\n"
                            + str(record.get("stderr", ""))[-1500:]
                        )
                    out = _load_output(folder / "_mlab" / f"out-{nonce}.npy")
                    ref = reference_forward(**harness.make_inputs(nonce))
                    if out.shape != ref.shape:
                        raise EvaluationFailed(
                            f"forward returned shape {out.shape}; the correct shape is {ref.shape}"
                        )
                    error = np.abs(out - ref)
                    if not np.all(np.isfinite(out)) or np.any(error > ATOL + RTOL * np.abs(ref)):
                        raise EvaluationFailed(
                            f"forward computes a different result (largest difference "
                            f"{float(np.nanmax(error)):.3g}; allowed {ATOL:g} + {RTOL:g}*|value|)"
                        )
                    worst = max(worst, float(error.max()))
                    agent_times.append(float(record["seconds"]))
    score = statistics.median(agent_times)
    baseline = statistics.median(base_times)
    ratios = [a / b for a, b in zip(agent_times, base_times, strict=True)]
    return Evaluation(
        score=score,
        baseline=baseline,
        improvement=1.0 - statistics.median(ratios),
        details={
            "paired_ratios": ratios,
            "agent_runs": agent_times,
            "baseline_runs": base_times,
            "max_abs_error": worst,
            "rounds": ROUNDS,
            "baseline_measured_by": (
                f"median of {ROUNDS} timed forward passes of the starter code, alternating with "
                "the agent's in the same evaluation sandbox"
            ),
        },
    )
