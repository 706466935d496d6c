"""Predict house sale prices (Ames, Iowa) and write submission.csv.

The model below is a first attempt: a random forest on a handful of numeric columns.
It reports its mean absolute error (MAE) on a held-out part of the training data, then
predicts the test homes.
"""

import os

import pandas as pd
from sklearn.ensemble import RandomForestRegressor
from sklearn.metrics import mean_absolute_error
from sklearn.model_selection import train_test_split

SEED = int(os.environ.get("SEED", "0"))

homes = pd.read_csv("data/train.csv")
target = homes["SalePrice"]

# Columns used by this first model; the data has many more (see data/train.csv).
features = [
    "MSSubClass", "LotArea", "OverallQual", "OverallCond", "YearBuilt", "YearRemodAdd",
    "1stFlrSF", "2ndFlrSF", "LowQualFinSF", "GrLivArea", "FullBath", "HalfBath",
    "BedroomAbvGr", "KitchenAbvGr", "TotRmsAbvGrd", "Fireplaces", "WoodDeckSF",
    "OpenPorchSF", "EnclosedPorch", "3SsnPorch", "ScreenPorch", "PoolArea", "MiscVal",
    "MoSold", "YrSold",
]  # fmt: skip
inputs = homes[features]

train_x, valid_x, train_y, valid_y = train_test_split(inputs, target, random_state=SEED)

model = RandomForestRegressor(n_estimators=50, random_state=SEED)
model.fit(train_x, train_y)
train_mae = mean_absolute_error(train_y, model.predict(train_x))
valid_mae = mean_absolute_error(valid_y, model.predict(valid_x))

print(f"Train MAE: {train_mae:,.0f}")
print(f"Validation MAE: {valid_mae:,.0f}")

test = pd.read_csv("data/test.csv")
predictions = model.predict(test[features])
pd.DataFrame({"Id": test["Id"], "SalePrice": predictions}).to_csv("submission.csv", index=False)
