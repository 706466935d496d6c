"""Reference solution for spooky-author-identification (run by the scripted agent).

Contract: run with the workspace as the current directory; reads
``data/train.csv`` and ``data/test.csv``; writes ``submission.csv`` with the
columns ``id,EAP,HPL,MWS`` (one probability per author, rows summing to 1),
one row per test sentence. Needs pandas, numpy and scikit-learn; no network;
about ten seconds on one core.

Approach: word 1-2-gram and character 1-4-gram TF-IDF features (punctuation
kept: it carries style) and a multinomial logistic regression.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import log_loss
from sklearn.pipeline import FeatureUnion, make_pipeline

AUTHORS = ["EAP", "HPL", "MWS"]


def make_model():
    words = TfidfVectorizer(
        ngram_range=(1, 2), min_df=2, sublinear_tf=True, token_pattern=r"(?u)\b\w+\b|[;!?,]"
    )
    chars = TfidfVectorizer(analyzer="char_wb", ngram_range=(1, 4), min_df=3, sublinear_tf=True)
    features = FeatureUnion([("words", words), ("chars", chars)])
    return make_pipeline(features, LogisticRegression(C=3.0, tol=1e-3, max_iter=3000))


def main() -> None:
    """Train on data/train.csv, predict data/test.csv, write submission.csv."""
    train = pd.read_csv(Path("data") / "train.csv")
    test = pd.read_csv(Path("data") / "test.csv")
    model = make_model()
    model.fit(train["text"], train["author"])
    fitted = log_loss(train["author"], model.predict_proba(train["text"]), labels=model.classes_)
    print(f"log loss on the training sentences: {fitted:.4f} (optimistic)")
    proba = model.predict_proba(test["text"])
    order = [list(model.classes_).index(a) for a in AUTHORS]
    submission = pd.DataFrame(proba[:, order], columns=AUTHORS)
    submission.insert(0, "id", test["id"].to_numpy())
    submission.to_csv("submission.csv", index=False)
    print(f"wrote submission.csv ({len(submission)} rows)")


if __name__ == "__main__":
    main()
