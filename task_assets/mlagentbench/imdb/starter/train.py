"""Fine-tune DistilBERT to tell positive from negative movie reviews, then write the
class probabilities of every test review to submission.csv (columns idx, 0, 1)."""

import os

import numpy as np
import pandas as pd
import torch
from transformers import AutoModelForSequenceClassification, AutoTokenizer

SEED = int(os.environ.get("SEED", "0"))
torch.manual_seed(SEED)
MODEL_DIR = "data/distilbert-base-uncased"
MAX_LENGTH = 256
BATCH_SIZE = 16
EPOCHS = 1
TRAIN_REVIEWS = 2000  # a subset keeps this first version quick

train = pd.read_parquet("data/train.parquet").sample(n=TRAIN_REVIEWS, random_state=SEED)
test = pd.read_parquet("data/test.parquet")
tokenizer = AutoTokenizer.from_pretrained(MODEL_DIR)
model = AutoModelForSequenceClassification.from_pretrained(MODEL_DIR, num_labels=2)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model.to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=5e-5)


def encode(texts):
    batch = tokenizer(
        list(texts), truncation=True, max_length=MAX_LENGTH, padding=True, return_tensors="pt"
    )
    return {k: v.to(device) for k, v in batch.items()}


for epoch in range(EPOCHS):
    model.train()
    order = np.random.default_rng(SEED + epoch).permutation(len(train))
    for start in range(0, len(order), BATCH_SIZE):
        rows = train.iloc[order[start : start + BATCH_SIZE]]
        labels = torch.tensor(rows["label"].to_numpy(), device=device)
        loss = model(**encode(rows["text"]), labels=labels).loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch + 1}: last batch loss {loss.item():.4f}")

model.eval()
probabilities = []
with torch.no_grad():
    for start in range(0, len(test), 64):
        logits = model(**encode(test["text"].iloc[start : start + 64])).logits
        probabilities.append(torch.softmax(logits, dim=1).cpu().numpy())
probabilities = np.concatenate(probabilities)
pd.DataFrame({"idx": test["idx"], "0": probabilities[:, 0], "1": probabilities[:, 1]}).to_csv(
    "submission.csv", index=False
)
