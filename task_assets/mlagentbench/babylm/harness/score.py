"""Perplexity harness of MLAgentBench/babylm (runs in the evaluation sandbox).

Reads and deletes the nonce, loads the agent's model from ``output/`` with
transformers (weights from safetensors only, no custom code: nothing of the agent's
executes), and computes the perplexity of the held-out test text in
``/workspace/_mlab/test/`` (all files concatenated, in name order, cut into blocks of
``min(1024, model_max_length)`` tokens; the mean next-token loss over every predicted
token). Prints ``RESULT <nonce> {"ok": ..., "perplexity": ...}``.
"""

import json
import math
import os
import sys
from pathlib import Path

MLAB = Path("/workspace/_mlab")


def main() -> None:
    nonce_file = MLAB / "nonce"
    nonce = nonce_file.read_text().strip()
    nonce_file.unlink()
    result = {"ok": False}
    try:
        result = score()
    except Exception as exc:  # reported to the host as an invalid result
        result = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
    print(f"RESULT {nonce} {json.dumps(result)}", flush=True)


def score() -> dict:
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    model_dir = Path("/workspace/agent/output")
    if not model_dir.is_dir():
        return {"ok": False, "error": "output/ (the trained model) was not found"}
    if not any(model_dir.glob("*.safetensors")):
        return {"ok": False, "error": "output/ holds no .safetensors weights"}
    tokenizer = AutoTokenizer.from_pretrained(model_dir, local_files_only=True)
    model = AutoModelForCausalLM.from_pretrained(
        model_dir, local_files_only=True, use_safetensors=True, trust_remote_code=False
    )
    model.eval()
    text = "".join(p.read_text() for p in sorted((MLAB / "test").glob("*.test")))
    ids = tokenizer(text, return_tensors="pt")["input_ids"][0]
    block = min(1024, int(getattr(tokenizer, "model_max_length", 1024) or 1024))
    total_loss, total_tokens = 0.0, 0
    with torch.no_grad():
        for start in range(0, len(ids) - 1, block):
            chunk = ids[start : start + block + 1]
            if len(chunk) < 2:
                break
            logits = model(chunk[:-1][None]).logits[0]
            loss = torch.nn.functional.cross_entropy(logits, chunk[1:], reduction="sum")
            total_loss += float(loss)
            total_tokens += len(chunk) - 1
    if total_tokens == 0:
        return {"ok": False, "error": "the test text produced no tokens"}
    mean = total_loss / total_tokens
    perplexity = math.exp(mean) if mean < 700 else float("inf")
    return {"ok": True, "perplexity": perplexity, "tokens": total_tokens}


if __name__ == "__main__":
    sys.path[:] = [p for p in sys.path if p and os.path.abspath(p) != "/workspace/agent"]
    main()
