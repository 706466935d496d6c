"""dog-breed-identification graded as MLE-bench grades it: multi-class log loss.

The submission needs a column per breed (all 120) and ``id``, and one row per answers
row (rejected otherwise). Every row's 120 breed columns must sum to 1 (``numpy.isclose``
with ``atol=1e-6`` and its default ``rtol=1e-5``, so within 1.1e-5; pandas' row sum skips
blanks) and every value must lie in [0, 1] (a
blank fails that test): otherwise the submission is rejected. The breed columns are
then taken in the answers' column order (extra columns are dropped), both files are
sorted by ``id`` and the ids must match one for one (a mismatch is a failed assert, not
a rejection); no softmax is applied and scikit-learn's ``log_loss`` of the one-hot
answers against the predictions is the score.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity_kit import (
    InvalidSubmission,
    one_hot_log_loss_inputs,
    require,
)

ID_COLUMN = "id"
_BREED_NAMES = """
    affenpinscher afghan_hound african_hunting_dog airedale american_staffordshire_terrier
    appenzeller australian_terrier basenji basset beagle bedlington_terrier
    bernese_mountain_dog black-and-tan_coonhound blenheim_spaniel bloodhound bluetick
    border_collie border_terrier borzoi boston_bull bouvier_des_flandres boxer
    brabancon_griffon briard brittany_spaniel bull_mastiff cairn cardigan
    chesapeake_bay_retriever chihuahua chow clumber cocker_spaniel collie
    curly-coated_retriever dandie_dinmont dhole dingo doberman english_foxhound
    english_setter english_springer entlebucher eskimo_dog flat-coated_retriever
    french_bulldog german_shepherd german_short-haired_pointer giant_schnauzer
    golden_retriever gordon_setter great_dane great_pyrenees greater_swiss_mountain_dog
    groenendael ibizan_hound irish_setter irish_terrier irish_water_spaniel
    irish_wolfhound italian_greyhound japanese_spaniel keeshond kelpie kerry_blue_terrier
    komondor kuvasz labrador_retriever lakeland_terrier leonberg lhasa malamute malinois
    maltese_dog mexican_hairless miniature_pinscher miniature_poodle miniature_schnauzer
    newfoundland norfolk_terrier norwegian_elkhound norwich_terrier old_english_sheepdog
    otterhound papillon pekinese pembroke pomeranian pug redbone rhodesian_ridgeback
    rottweiler saint_bernard saluki samoyed schipperke scotch_terrier scottish_deerhound
    sealyham_terrier shetland_sheepdog shih-tzu siberian_husky silky_terrier
    soft-coated_wheaten_terrier staffordshire_bullterrier standard_poodle
    standard_schnauzer sussex_spaniel tibetan_mastiff tibetan_terrier toy_poodle
    toy_terrier vizsla walker_hound weimaraner welsh_springer_spaniel
    west_highland_white_terrier whippet wire-haired_fox_terrier yorkshire_terrier
"""
#: the 120 breeds, in the order MLE-bench lists them (also the answers' column order)
BREEDS: tuple[str, ...] = tuple(_BREED_NAMES.split())
#: how far a row's sum of probabilities may be from 1
SUM_TOLERANCE = 1e-6


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Log loss of the submitted breed probabilities."""
    from sklearn.metrics import log_loss

    breeds = list(BREEDS)
    if not all(breed in submission.columns for breed in breeds):
        raise InvalidSubmission("the submission needs one probability column per breed")
    if ID_COLUMN not in submission.columns:
        raise InvalidSubmission(f"the submission has no {ID_COLUMN!r} column")
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test id "
            f"({len(answers)})"
        )
    require(ID_COLUMN in answers.columns, f"answers lack {ID_COLUMN!r}")
    require(all(breed in answers.columns for breed in breeds), "answers lack a breed column")

    probabilities = submission[breeds]
    row_sums = probabilities.sum(axis=1)
    if not np.all(np.isclose(row_sums, 1, atol=SUM_TOLERANCE)):
        raise InvalidSubmission("the breed probabilities of every row must sum to 1")
    in_range = (probabilities >= 0) & (probabilities <= 1)
    if not in_range.all().all():
        raise InvalidSubmission("every probability must lie in [0, 1]")

    y_true, y_pred = one_hot_log_loss_inputs(
        submission, answers, id_column=ID_COLUMN, apply_softmax=False
    )
    return float(log_loss(y_true, y_pred))
