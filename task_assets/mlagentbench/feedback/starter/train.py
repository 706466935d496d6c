"""Score essays of English language learners on six measures, and write submission.csv.

This first model: word counts (bag of words) and a ridge regression per measure. It
reports the MCRMSE on a held-out fifth of the training essays.
"""

import os

import numpy as np
import pandas as pd
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.linear_model import Ridge
from sklearn.model_selection import train_test_split

SEED = int(os.environ.get("SEED", "0"))
MEASURES = ["cohesion", "syntax", "vocabulary", "phraseology", "grammar", "conventions"]


def mcrmse(truth, predicted):
    return float(
        np.mean(np.sqrt(np.mean((np.asarray(truth) - np.asarray(predicted)) ** 2, axis=0)))
    )


essays = pd.read_csv("data/train.csv")
train, valid = train_test_split(essays, test_size=0.2, random_state=SEED)
vectorizer = CountVectorizer(max_features=2000)
train_x = vectorizer.fit_transform(train["full_text"])
model = Ridge(alpha=100.0).fit(train_x, train[MEASURES])
valid_prediction = model.predict(vectorizer.transform(valid["full_text"]))
print(f"Validation MCRMSE: {mcrmse(valid[MEASURES], valid_prediction):.4f}")

test = pd.read_csv("data/test.csv")
predictions = np.clip(model.predict(vectorizer.transform(test["full_text"])), 1.0, 5.0)
submission = pd.DataFrame(predictions, columns=MEASURES)
submission.insert(0, "text_id", test["text_id"])
submission.to_csv("submission.csv", index=False)
