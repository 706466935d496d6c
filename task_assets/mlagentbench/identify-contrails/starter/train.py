"""Segment aviation contrails in GOES-16 satellite images and write submission.csv
(record_id, encoded_pixels: run-length encoded masks).

This first model: a false-colour image from three infrared bands of the labelled frame,
and a tiny fully convolutional network trained for one epoch.
"""

import os

import numpy as np
import pandas as pd
import torch
from torch import nn

SEED = int(os.environ.get("SEED", "0"))
torch.manual_seed(SEED)
EPOCHS = 1
FRAME = 4  # the labelled frame among the 8 of each record


def normalise(band, low, high):
    return np.clip((band - low) / (high - low), 0, 1)


def false_colour(folder):
    """The ash false-colour image (3 x H x W) of the labelled frame."""
    b11, b14, b15 = (np.load(f"{folder}/band_{b}.npy")[:, :, FRAME] for b in (11, 14, 15))
    red = normalise(b15 - b14, -4, 2)
    green = normalise(b14 - b11, -4, 5)
    blue = normalise(b14, 243, 303)
    return np.stack([red, green, blue]).astype(np.float32)


def rle_encode(mask):
    """1-based start/length pairs over the column-major pixels; '-' if empty."""
    pixels = np.concatenate([[0], mask.flatten(order="F"), [0]])
    runs = np.where(pixels[1:] != pixels[:-1])[0] + 1
    runs[1::2] -= runs[0::2]
    return " ".join(map(str, runs)) if len(runs) else "-"


train_ids = sorted(os.listdir("data/train"))
images = torch.from_numpy(np.stack([false_colour(f"data/train/{i}") for i in train_ids]))
masks = torch.from_numpy(
    np.stack([np.load(f"data/train/{i}/human_pixel_masks.npy")[:, :, 0] for i in train_ids])
).float()[:, None]

model = nn.Sequential(
    nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
    nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(),
    nn.Conv2d(16, 1, 1),
)  # fmt: skip
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(EPOCHS):
    order = torch.randperm(len(images))
    for start in range(0, len(order), 8):
        index = order[start : start + 8]
        loss = nn.functional.binary_cross_entropy_with_logits(model(images[index]), masks[index])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch + 1}: loss {loss.item():.4f}")

rows = []
model.eval()
with torch.no_grad():
    for record in sorted(os.listdir("data/test")):
        image = torch.from_numpy(false_colour(f"data/test/{record}"))[None]
        mask = (torch.sigmoid(model(image))[0, 0] > 0.5).numpy().astype(np.uint8)
        rows.append({"record_id": record, "encoded_pixels": rle_encode(mask)})
pd.DataFrame(rows).to_csv("submission.csv", index=False)
