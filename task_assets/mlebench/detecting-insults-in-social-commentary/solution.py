"""Reference solution for detecting-insults-in-social-commentary (run by the scripted agent).

Contract: run with the workspace as the current directory; reads
``data/train.csv`` and ``data/test.csv``; writes ``submission.csv`` with the
columns ``Insult,Date,Comment`` of the sample submission (Comment is the key,
so it is copied through unchanged), one row per test comment. Needs pandas,
numpy and scikit-learn; no network; a few seconds on one core.

Approach: undo the escaping of the raw comments (literal ``\\n``, ``\\xa0``,
``\\u2019``...), then a logistic regression on word 1-2-gram and character
2-5-gram TF-IDF features, whose predicted probability is the submission.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import FeatureUnion, make_pipeline

SEED = 0
_ESCAPE = re.compile(r"\\+(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|n|t|r|')")


def clean(comment: str) -> str:
    """Readable text: outer quotes removed, escape sequences turned into spaces/quotes."""
    text = comment[1:-1] if comment.startswith('"') and comment.endswith('"') else comment

    def replace(match: re.Match[str]) -> str:
        code = match.group(1)
        if code in ("u2019", "'"):
            return "'"
        return " "

    text = _ESCAPE.sub(replace, text)
    return re.sub(r"\s+", " ", text).strip().lower()


def make_model():
    """Word and character TF-IDF blocks side by side, then a logistic regression."""
    words = TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True)
    chars = TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 5), min_df=3, sublinear_tf=True)
    features = FeatureUnion([("words", words), ("chars", chars)])
    return make_pipeline(features, LogisticRegression(C=4.0, max_iter=2000))


def main() -> None:
    """Train on data/train.csv, score data/test.csv, write submission.csv."""
    train = pd.read_csv(Path("data") / "train.csv", dtype=str, keep_default_na=False)
    test = pd.read_csv(Path("data") / "test.csv", dtype=str, keep_default_na=False)
    x_train = [clean(c) for c in train["Comment"]]
    x_test = [clean(c) for c in test["Comment"]]
    y_train = train["Insult"].astype(int).to_numpy()

    model = make_model()
    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=SEED)
    auc = cross_val_score(model, x_train, y_train, cv=folds, scoring="roc_auc")
    print(f"5-fold CV AUC on train: {auc.mean():.4f} (+/- {auc.std():.4f})")

    model.fit(x_train, y_train)
    proba = model.predict_proba(x_test)[:, 1]
    submission = pd.DataFrame(
        {"Insult": np.round(proba, 6), "Date": test["Date"], "Comment": test["Comment"]}
    )
    submission.to_csv("submission.csv", index=False)
    print(f"wrote submission.csv ({len(submission)} rows)")


if __name__ == "__main__":
    main()
