"""Reference solution for movie-review-sentiment-analysis-kernels-only (run by the scripted agent).

Contract: run with the workspace as the current directory; reads only
``data/train.tsv.zip`` and ``data/test.tsv.zip`` (pandas opens the zipped TSVs
directly); writes ``submission.csv`` with the columns ``PhraseId,Sentiment``
(integers 0-4), one row per test phrase in test order. Needs pandas and
scikit-learn; no network; deterministic; under a minute on one CPU core.

Approach: TF-IDF over word unigrams and bigrams (tokens are already separated
by spaces in the phrases, so negations like "n't" and punctuation stay
features), then a linear support-vector classifier, one-vs-rest over the five
sentiment classes.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.svm import LinearSVC

ID = "PhraseId"
TARGET = "Sentiment"
DATA = Path("data")


def read_phrases(name: str) -> pd.DataFrame:
    """A zipped TSV of phrases; missing phrase text becomes an empty string."""
    frame = pd.read_csv(DATA / name, sep="\t")
    frame["Phrase"] = frame["Phrase"].fillna("").astype(str)
    return frame


def main() -> None:
    """Train on the labelled phrases, predict the test phrases, write submission.csv."""
    train = read_phrases("train.tsv.zip")
    test = read_phrases("test.tsv.zip")
    vectorizer = TfidfVectorizer(
        ngram_range=(1, 2), min_df=2, sublinear_tf=True, token_pattern=r"\S+", lowercase=True
    )
    x_train = vectorizer.fit_transform(train["Phrase"])
    x_test = vectorizer.transform(test["Phrase"])
    model = LinearSVC(C=0.3, random_state=0)
    model.fit(x_train, train[TARGET].astype(int))
    submission = pd.DataFrame({ID: test[ID], TARGET: model.predict(x_test).astype(int)})
    submission.to_csv("submission.csv", index=False)
    print(f"wrote submission.csv ({len(submission)} rows, {x_train.shape[1]} features)")


if __name__ == "__main__":
    main()
