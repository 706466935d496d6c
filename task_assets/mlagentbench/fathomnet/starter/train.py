"""Multi-label classification of deep-sea images (FathomNet): which of 290 categories of
animals appear in each image. Writes submission.csv (id, categories, osd).

This first model is a small convolutional network trained for one epoch on images shrunk
to 64x64 pixels, with one sigmoid output per category.
"""

import ast
import os

import numpy as np
import pandas as pd
import torch
from PIL import Image
from torch import nn

SEED = int(os.environ.get("SEED", "0"))
torch.manual_seed(SEED)
SIZE = 64
N_CATEGORIES = 290
EPOCHS = 1


def load(image_id):
    with Image.open(f"data/images/{image_id}.png") as img:
        pixels = np.asarray(img.convert("RGB").resize((SIZE, SIZE)), dtype=np.float32) / 255.0
    return pixels.transpose(2, 0, 1)


train = pd.read_csv("data/multilabel_classification/train.csv")
targets = np.zeros((len(train), N_CATEGORIES), dtype=np.float32)
for row, text in enumerate(train["categories"]):
    for category in ast.literal_eval(text):
        targets[row, int(category) - 1] = 1.0
inputs = torch.from_numpy(np.stack([load(i) for i in train["id"]]))
targets = torch.from_numpy(targets)

model = nn.Sequential(
    nn.Conv2d(3, 16, 5), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(16, 32, 5), nn.ReLU(), nn.MaxPool2d(2),
    nn.Flatten(), nn.Linear(32 * 13 * 13, 128), nn.ReLU(), nn.Linear(128, N_CATEGORIES),
)  # fmt: skip
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(EPOCHS):
    order = torch.randperm(len(inputs))
    for start in range(0, len(order), 64):
        index = order[start : start + 64]
        loss = nn.functional.binary_cross_entropy_with_logits(model(inputs[index]), targets[index])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch + 1}: loss {loss.item():.4f}")

test = pd.read_csv("data/test_ids.csv")
model.eval()
with torch.no_grad():
    scores = torch.sigmoid(model(torch.from_numpy(np.stack([load(i) for i in test["id"]])))).numpy()
ranked = np.argsort(-scores, axis=1)[:, :20] + 1  # the 20 most likely categories
pd.DataFrame(
    {
        "id": test["id"],
        "categories": [" ".join(map(str, row)) for row in ranked],
        "osd": 0.5,
    }
).to_csv("submission.csv", index=False)
