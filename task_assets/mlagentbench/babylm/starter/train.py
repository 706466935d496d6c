"""Train a small GPT-2 style language model from scratch on the 10M-word BabyLM corpus and
save it (weights, configuration and tokenizer) to output/.

It reports the perplexity on the dev files; the evaluator measures perplexity on the
held-out test files.
"""

import math
import os
from pathlib import Path

import torch
from transformers import AutoTokenizer, GPT2Config, GPT2LMHeadModel

SEED = int(os.environ.get("SEED", "0"))
torch.manual_seed(SEED)
BLOCK = 128
BATCH_SIZE = 16
EPOCHS = 1
STEPS_PER_EPOCH = 500  # a first version trains on a slice of the corpus only

tokenizer = AutoTokenizer.from_pretrained("data/gpt2")


def token_blocks(folder, suffix):
    text = "".join(p.read_text() for p in sorted(Path(folder).glob(f"*{suffix}")))
    ids = torch.tensor(tokenizer(text)["input_ids"])
    usable = (len(ids) - 1) // BLOCK * BLOCK
    return ids[: usable + 1]


train_ids = token_blocks("data/babylm_10M", ".train")
dev_ids = token_blocks("data/babylm_dev", ".dev")[: 200 * BLOCK + 1]

config = GPT2Config(vocab_size=len(tokenizer), n_positions=BLOCK, n_embd=256, n_layer=4, n_head=4)
model = GPT2LMHeadModel(config)
optimizer = torch.optim.AdamW(model.parameters(), lr=5e-4)
starts = torch.arange(0, len(train_ids) - BLOCK - 1, BLOCK)

for epoch in range(EPOCHS):
    model.train()
    order = starts[torch.randperm(len(starts))][: STEPS_PER_EPOCH * BATCH_SIZE]
    for step in range(0, len(order), BATCH_SIZE):
        batch = torch.stack([train_ids[s : s + BLOCK] for s in order[step : step + BATCH_SIZE]])
        loss = model(batch, labels=batch).loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        chunks = dev_ids[:-1].view(-1, BLOCK)
        dev_loss = sum(model(c[None], labels=c[None]).loss.item() for c in chunks) / len(chunks)
    print(f"epoch {epoch + 1}: dev perplexity {math.exp(dev_loss):.2f}")

model.save_pretrained("output", safe_serialization=True)
tokenizer.save_pretrained("output")
