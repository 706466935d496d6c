"""Predict which Spaceship Titanic passengers were transported, and write submission.csv.

A first model: logistic regression on a few one-hot encoded categorical columns. It
reports accuracy on a held-out fifth of the training passengers, then predicts the test
passengers.
"""

import os

import pandas as pd
from sklearn.linear_model import LogisticRegression

SEED = int(os.environ.get("SEED", "0"))

# Columns used by this first model; see data/train.csv for everything else.
CATEGORICAL = ["HomePlanet", "Destination", "VIP", "Deck", "Side"]


def with_cabin_parts(frame: pd.DataFrame) -> pd.DataFrame:
    """Split Cabin ("deck/number/side") into Deck, Cabin_num and Side."""
    frame = frame.copy()
    frame[["Deck", "Cabin_num", "Side"]] = frame["Cabin"].str.split("/", expand=True)
    return frame.drop(columns=["Cabin"])


def encode(frame: pd.DataFrame, columns=None) -> pd.DataFrame:
    """One-hot encode CATEGORICAL; with ``columns``, align to them (missing ones are 0)."""
    encoded = pd.get_dummies(frame[CATEGORICAL].astype(str))
    return encoded if columns is None else encoded.reindex(columns=columns, fill_value=0)


passengers = with_cabin_parts(pd.read_csv("data/train.csv")).sample(frac=1, random_state=SEED)
cut = int(0.8 * len(passengers))
train, valid = passengers.iloc[:cut], passengers.iloc[cut:]

train_x = encode(train)
valid_x = encode(valid, train_x.columns)
model = LogisticRegression(max_iter=1000)
model.fit(train_x, train["Transported"])
train_accuracy = (model.predict(train_x) == train["Transported"]).mean()
val_accuracy = (model.predict(valid_x) == valid["Transported"]).mean()
print(f"Train Accuracy: {train_accuracy:.4f}")
print(f"Validation Accuracy: {val_accuracy:.4f}")

test = with_cabin_parts(pd.read_csv("data/test.csv"))
predictions = model.predict(encode(test, train_x.columns))
pd.DataFrame({"PassengerId": test["PassengerId"], "Transported": predictions}).to_csv(
    "submission.csv", index=False
)
