"""Generate text with LLaMA-7B on WikiText-103 and report the generation speed.

The part marked "do not change" fixes the task: the model, the data, the context length
and how many tokens are generated. Everything else may be changed to make generation
faster, as long as the same tokens are generated. The generated token ids are saved to
generations.npy (the evaluator checks them).
"""

import time

import numpy as np
import pandas as pd
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

# ---- do not change ------------------------------------------------------------------
MODEL_DIR = "data/llama-7b"
CONTEXT_LENGTH = 128
GENERATION_LENGTH = 1
N_BATCHES = 100
tokenizer = AutoTokenizer.from_pretrained(MODEL_DIR)
texts = pd.read_parquet("data/wikitext-103-test.parquet")["text"].tolist()
encoded = tokenizer(texts, truncation=True, max_length=CONTEXT_LENGTH)["input_ids"]
contexts = [ids for ids in encoded if len(ids) == CONTEXT_LENGTH]  # full-length contexts only
# --------------------------------------------------------------------------------------

BATCH_SIZE = 4
device = "cuda" if torch.cuda.is_available() else "cpu"
model = AutoModelForCausalLM.from_pretrained(MODEL_DIR).to(device)
model.eval()

generated = []
total = 0.0
with torch.no_grad():
    for index in range(N_BATCHES):
        batch = contexts[index * BATCH_SIZE : (index + 1) * BATCH_SIZE]
        if not batch:
            break
        input_ids = torch.tensor(batch, device=device)
        started = time.time()
        output = model.generate(
            input_ids=input_ids,
            max_length=CONTEXT_LENGTH + GENERATION_LENGTH,
            do_sample=False,
        )
        total += time.time() - started
        generated.append(output[:, CONTEXT_LENGTH:].cpu().numpy())
print(f"Average per token generation time: {total / N_BATCHES}")
np.save("generations.npy", np.concatenate(generated))
