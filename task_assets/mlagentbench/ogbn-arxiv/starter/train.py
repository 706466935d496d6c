"""Predict the subject area of arXiv papers (ogbn-arxiv) from their features, and write
the predictions for the test papers to submission.csv (columns node, label).

This first model ignores the citation graph: a small multi-layer perceptron on each
paper's 128-dimensional feature vector, trained for a few epochs.
"""

import os
import warnings

import numpy as np
import pandas as pd
from sklearn.exceptions import ConvergenceWarning
from sklearn.neural_network import MLPClassifier

SEED = int(os.environ.get("SEED", "0"))
EPOCHS = 4


def read_column(path):
    return pd.read_csv(path, header=None).iloc[:, 0].to_numpy()


features = pd.read_csv("data/raw/node-feat.csv.gz", header=None).to_numpy(dtype=np.float32)
labels = read_column("data/raw/node-label.csv.gz")  # test nodes are -1
train = read_column("data/split/time/train.csv.gz")
valid = read_column("data/split/time/valid.csv.gz")
test = read_column("data/split/time/test.csv.gz")

model = MLPClassifier(hidden_layer_sizes=(16,), max_iter=EPOCHS, random_state=SEED)
with warnings.catch_warnings():
    warnings.simplefilter("ignore", ConvergenceWarning)  # few epochs on purpose
    model.fit(features[train], labels[train])
print(f"Train: {model.score(features[train], labels[train]):.4f}")
print(f"Val: {model.score(features[valid], labels[valid]):.4f}")

pd.DataFrame({"node": test, "label": model.predict(features[test])}).to_csv(
    "submission.csv", index=False
)
