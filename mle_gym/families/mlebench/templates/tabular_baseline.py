"""Generic tabular baseline written into the workspace by the scripted agent.

Reads data/train.csv, data/test.csv and data/sample_submission.csv; the sample
submission's first column is the id, the others are the targets. Numeric
columns are used as they are, text columns as category codes; one
HistGradientBoosting model per target (classifier for booleans and small label
sets, regressor otherwise). Writes submission.csv in the sample's format.
"""

import numpy as np
import pandas as pd
from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor

train = pd.read_csv("data/train.csv")
test = pd.read_csv("data/test.csv")
sample = pd.read_csv("data/sample_submission.csv")
id_col, targets = sample.columns[0], list(sample.columns[1:])

features = [c for c in test.columns if c != id_col and c in train.columns]
both = pd.concat([train[features], test[features]], keys=["train", "test"])
for col in features:
    if not pd.api.types.is_numeric_dtype(both[col]):
        codes = both[col].astype("category").cat.codes
        both[col] = codes.where(codes >= 0, np.nan)
X_train, X_test = both.loc["train"].astype(float), both.loc["test"].astype(float)

submission = pd.DataFrame({id_col: test[id_col]})
for target in targets:
    y = train[target]
    is_label = y.dtype == bool or y.dtype == object or y.nunique() <= 20
    if is_label:
        model = HistGradientBoostingClassifier(max_iter=200, learning_rate=0.08, random_state=0)
    else:
        model = HistGradientBoostingRegressor(max_iter=200, learning_rate=0.08, random_state=0)
    model.fit(X_train, y)
    submission[target] = model.predict(X_test)
    print(f"trained a {type(model).__name__} for {target!r} on {len(X_train)} rows")

submission.to_csv("submission.csv", index=False)
print(f"wrote submission.csv with {len(submission)} rows")
