"""A stronger model: spending, age, group and cabin features with gradient boosting."""

import numpy as np
import pandas as pd
from sklearn.ensemble import HistGradientBoostingClassifier

AMENITIES = ["RoomService", "FoodCourt", "ShoppingMall", "Spa", "VRDeck"]
CATEGORICAL = ["HomePlanet", "CryoSleep", "Destination", "VIP", "Deck", "Side"]

train = pd.read_csv("data/train.csv")
test = pd.read_csv("data/test.csv")
full = pd.concat([train.drop(columns=["Transported"]), test], ignore_index=True)
full[["Deck", "Num", "Side"]] = full["Cabin"].str.split("/", expand=True)
group = full["PassengerId"].str[:4]

features = pd.DataFrame(index=full.index)
for column in AMENITIES:
    features[column] = np.log1p(full[column])
features["spend"] = np.log1p(full[AMENITIES].sum(axis=1))
features["Age"] = full["Age"]
features["Num"] = pd.to_numeric(full["Num"])
features["group_size"] = group.map(group.value_counts())
for column in CATEGORICAL:
    features[column] = full[column].astype(str).astype("category").cat.codes

model = HistGradientBoostingClassifier(
    max_iter=300,
    learning_rate=0.05,
    random_state=0,
    categorical_features=[features.columns.get_loc(c) for c in CATEGORICAL],
)
model.fit(features.iloc[: len(train)], train["Transported"].astype(str) == "True")
predictions = model.predict(features.iloc[len(train) :])
pd.DataFrame({"PassengerId": test["PassengerId"], "Transported": predictions}).to_csv(
    "submission.csv", index=False
)
print("wrote submission.csv")
