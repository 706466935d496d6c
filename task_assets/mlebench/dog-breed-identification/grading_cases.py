"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py)."""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase

_BREED_NAMES = """
affenpinscher afghan_hound african_hunting_dog airedale american_staffordshire_terrier
appenzeller australian_terrier basenji basset beagle bedlington_terrier bernese_mountain_dog
black-and-tan_coonhound blenheim_spaniel bloodhound bluetick border_collie border_terrier
borzoi boston_bull bouvier_des_flandres boxer brabancon_griffon briard brittany_spaniel
bull_mastiff cairn cardigan chesapeake_bay_retriever chihuahua chow clumber cocker_spaniel
collie curly-coated_retriever dandie_dinmont dhole dingo doberman english_foxhound
english_setter english_springer entlebucher eskimo_dog flat-coated_retriever french_bulldog
german_shepherd german_short-haired_pointer giant_schnauzer golden_retriever gordon_setter
great_dane great_pyrenees greater_swiss_mountain_dog groenendael ibizan_hound irish_setter
irish_terrier irish_water_spaniel irish_wolfhound italian_greyhound japanese_spaniel keeshond
kelpie kerry_blue_terrier komondor kuvasz labrador_retriever lakeland_terrier leonberg lhasa
malamute malinois maltese_dog mexican_hairless miniature_pinscher miniature_poodle
miniature_schnauzer newfoundland norfolk_terrier norwegian_elkhound norwich_terrier
old_english_sheepdog otterhound papillon pekinese pembroke pomeranian pug redbone
rhodesian_ridgeback rottweiler saint_bernard saluki samoyed schipperke scotch_terrier
scottish_deerhound sealyham_terrier shetland_sheepdog shih-tzu siberian_husky silky_terrier
soft-coated_wheaten_terrier staffordshire_bullterrier standard_poodle standard_schnauzer
sussex_spaniel tibetan_mastiff tibetan_terrier toy_poodle toy_terrier vizsla walker_hound
weimaraner welsh_springer_spaniel west_highland_white_terrier whippet wire-haired_fox_terrier
yorkshire_terrier
"""
# the answers' breed columns, in their order
BREEDS = _BREED_NAMES.split()
IDS = [
    "000621fb3cbb32d8935728e48679680e",
    "00a366d4b4a9bbb6c8a63126697b7656",
    "0d2f9e12a2611d911d91a339074c8154",
]
TRUE_BREEDS = ["affenpinscher", "beagle", "pug"]
# the probability each row gives its true breed; the rest is spread evenly over the others
TRUE_PROBABILITIES = [0.5, 0.25, 1 / 120]


def _answers() -> pd.DataFrame:
    frame = pd.DataFrame(0, index=range(len(IDS)), columns=BREEDS)
    for row, breed in enumerate(TRUE_BREEDS):
        frame.loc[row, breed] = 1
    return pd.concat([pd.DataFrame({"id": IDS}), frame], axis=1)


def _submission() -> pd.DataFrame:
    rows = []
    for breed, p in zip(TRUE_BREEDS, TRUE_PROBABILITIES, strict=True):
        rest = (1 - p) / (len(BREEDS) - 1)
        rows.append({b: (p if b == breed else rest) for b in BREEDS})
    return pd.concat([pd.DataFrame({"id": IDS}), pd.DataFrame(rows)], axis=1)


CASES: dict[str, Check] = {
    # log loss = -(ln 0.5 + ln 0.25 + ln(1/120)) / 3 = (0.693147 + 1.386294 + 4.787492) / 3
    #          = 2.288978 -> 2.28898; answers with the first row twice (and the submission
    #          too): (2 ln 0.5 ... ) = (2 * 0.693147 + 1.386294 + 4.787492) / 4 = 1.89002
    "parity": ParityCase(
        _answers,
        _submission,
        score=2.28898,
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "same",
            "index_column": "same",
            "missing_id": "invalid",
            "duplicate_id": "invalid",
            "unknown_id": "invalid",
            "blank_target": "invalid",
            "empty_file": "invalid",
            "header_only": "invalid",
            "duplicate_answer_keys": 1.89002,
        },
    ),
}
