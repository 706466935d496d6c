"""Train a small convolutional network on CIFAR-10 and write class probabilities for the
test images to submission.csv (columns idx, 0..9)."""

import os
import pickle

import numpy as np
import pandas as pd
import torch
from torch import nn
from torch.nn import functional as F

SEED = int(os.environ.get("SEED", "0"))
torch.manual_seed(SEED)
DATA = "data/cifar-10-batches-py"
EPOCHS = 5
BATCH_SIZE = 128


def load_batch(name):
    with open(os.path.join(DATA, name), "rb") as handle:
        batch = pickle.load(handle, encoding="bytes")
    images = np.asarray(batch[b"data"], dtype=np.uint8).reshape(-1, 3, 32, 32)
    return images, np.asarray(batch[b"labels"], dtype=np.int64)


def to_tensor(images):
    """uint8 images (N, 3, 32, 32) -> floats scaled to [-1, 1]."""
    return (torch.from_numpy(images).float() / 255.0 - 0.5) / 0.5


parts = [load_batch(f"data_batch_{i}") for i in range(1, 6)]
train_x = to_tensor(np.concatenate([p[0] for p in parts]))
train_y = torch.from_numpy(np.concatenate([p[1] for p in parts]))
test_x = to_tensor(np.load("data/test_images.npy").transpose(0, 3, 1, 2).copy())


class Net(nn.Module):
    """Two convolutions with pooling, then three fully connected layers."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = Net().to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)


def accuracy(x, y):
    model.eval()
    with torch.no_grad():
        guesses = torch.cat([model(b.to(device)).argmax(1).cpu() for b in x.split(1024)])
    return (guesses == y).float().mean().item() * 100


held_out = 5000  # the last 5,000 training images check progress
fit_x, fit_y = train_x[:-held_out], train_y[:-held_out]
for epoch in range(EPOCHS):
    model.train()
    order = torch.randperm(len(fit_x))
    for start in range(0, len(order) - BATCH_SIZE + 1, BATCH_SIZE):
        index = order[start : start + BATCH_SIZE]
        optimizer.zero_grad()
        loss = F.cross_entropy(model(fit_x[index].to(device)), fit_y[index].to(device))
        loss.backward()
        optimizer.step()
    print(
        f"Epoch {epoch + 1}/{EPOCHS}: train accuracy {accuracy(fit_x, fit_y):.2f}%, "
        f"held-out accuracy {accuracy(train_x[-held_out:], train_y[-held_out:]):.2f}%"
    )

model.eval()
with torch.no_grad():
    probabilities = torch.cat(
        [torch.softmax(model(b.to(device)), dim=1).cpu() for b in test_x.split(1024)]
    ).numpy()
submission = pd.DataFrame(probabilities, columns=[str(i) for i in range(10)])
submission.insert(0, "idx", np.arange(len(submission)))
submission.to_csv("submission.csv", index=False)
