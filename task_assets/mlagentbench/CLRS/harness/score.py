"""Test-score harness of MLAgentBench/CLRS (runs in the evaluation sandbox).

Reads and deletes the nonce, then restores the agent's model from
``checkpoints/`` (``spec.pkl``, ``model_params.pkl``, ``best.pkl`` as written by
train.py) — built with ``model.py``'s ``build_model`` when the agent's workspace has one,
else with ``clrs.models.BaselineModel`` — and evaluates it on the held-out Floyd-Warshall
test split in ``/workspace/_mlab/test/`` with ``clrs.evaluate``. Prints
``RESULT <nonce> {"ok": ..., "score": ...}``.
"""

import json
import os
import pickle
import sys
from pathlib import Path

MLAB = Path("/workspace/_mlab")
AGENT = Path("/workspace/agent")


def main() -> None:
    nonce_file = MLAB / "nonce"
    nonce = nonce_file.read_text().strip()
    nonce_file.unlink()
    try:
        result = score()
    except Exception as exc:  # reported to the host as an invalid result
        result = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
    print(f"RESULT {nonce} {json.dumps(result)}", flush=True)


def score() -> dict:
    import clrs
    import jax
    import numpy as np

    checkpoints = AGENT / "checkpoints"
    for name in ("spec.pkl", "model_params.pkl", "best.pkl"):
        if not (checkpoints / name).is_file():
            return {"ok": False, "error": f"checkpoints/{name} is missing"}
    with open(checkpoints / "spec.pkl", "rb") as handle:
        spec = pickle.load(handle)
    with open(checkpoints / "model_params.pkl", "rb") as handle:
        params = pickle.load(handle)
    params["checkpoint_path"] = str(checkpoints)
    dataset, num_samples, _ = clrs.create_dataset(
        folder=str(MLAB / "test" / "CLRS30"),
        algorithm="floyd_warshall",
        split="test",
        batch_size=32,
    )
    batches = list(dataset.as_numpy_iterator())
    sys.path.insert(0, str(AGENT))
    if (AGENT / "model.py").is_file():
        import model as agent_model

        model = agent_model.build_model(spec, batches[0].features, params)
    else:
        model = clrs.models.BaselineModel(spec=spec, dummy_trajectory=batches[0], **params)
    model.init(batches[0].features, 42)
    model.restore_model("best.pkl", only_load_processor=False)
    key = jax.random.PRNGKey(42)
    outputs, predictions = [], []
    for batch in batches:
        key, sub = jax.random.split(key)
        predicted, _ = model.predict(sub, batch.features)
        outputs.append(batch.outputs)
        predictions.append(predicted)
    joined_outputs = jax.tree_util.tree_map(lambda *x: np.concatenate(x), *outputs)
    joined_predictions = jax.tree_util.tree_map(lambda *x: np.concatenate(x), *predictions)
    result = clrs.evaluate(joined_outputs, joined_predictions)
    return {"ok": True, "score": float(result["score"]), "samples": int(num_samples)}


if __name__ == "__main__":
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    main()
