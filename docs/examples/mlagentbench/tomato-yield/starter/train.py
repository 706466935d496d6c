"""Predict the tomato yield of each greenhouse bed and write submission.csv.

A first model: linear regression on the numeric columns. It reports its mean absolute
error (MAE) on a held-out quarter of the training beds, then predicts the test beds.
"""

import os

import pandas as pd
from sklearn.linear_model import LinearRegression
from sklearn.metrics import mean_absolute_error
from sklearn.model_selection import train_test_split

SEED = int(os.environ.get("SEED", "0"))
FEATURES = ["light_hours", "temperature_c", "humidity_pct", "co2_ppm", "water_l"]

beds = pd.read_csv("data/train.csv")
train_x, valid_x, train_y, valid_y = train_test_split(
    beds[FEATURES], beds["yield_kg"], random_state=SEED
)
model = LinearRegression().fit(train_x, train_y)
print(f"Validation MAE: {mean_absolute_error(valid_y, model.predict(valid_x)):.3f}")

test = pd.read_csv("data/test.csv")
predictions = model.predict(test[FEATURES])
pd.DataFrame({"bed_id": test["bed_id"], "yield_kg": predictions}).to_csv(
    "submission.csv", index=False
)
