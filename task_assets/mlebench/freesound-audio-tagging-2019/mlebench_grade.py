"""freesound-audio-tagging-2019 graded as MLE-bench grades it: label-weighted LRAP.

MLE-bench's grader first requires as many rows as the answers, then the exact header:
``fname`` first and the 80 class columns after it, in the vocabulary's order and nothing
else (an extra or written index column, or columns in another order, are rejected; a
header of another length makes pandas' comparison fail). Both files are sorted by
``fname`` and the names compared position by position; the class columns go through
``pandas.to_numeric`` (text is rejected). The score is scikit-learn's
``label_ranking_average_precision_score`` over the clips with at least one true label,
each weighted by its number of labels (lwlrap); a blank or infinite score makes it fail.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

#: MLE-bench's vocabulary (the columns of the sample submission, in its order)
CLASS_NAMES = [
    "Accelerating_and_revving_and_vroom",
    "Accordion",
    "Acoustic_guitar",
    "Applause",
    "Bark",
    "Bass_drum",
    "Bass_guitar",
    "Bathtub_(filling_or_washing)",
    "Bicycle_bell",
    "Burping_and_eructation",
    "Bus",
    "Buzz",
    "Car_passing_by",
    "Cheering",
    "Chewing_and_mastication",
    "Child_speech_and_kid_speaking",
    "Chink_and_clink",
    "Chirp_and_tweet",
    "Church_bell",
    "Clapping",
    "Computer_keyboard",
    "Crackle",
    "Cricket",
    "Crowd",
    "Cupboard_open_or_close",
    "Cutlery_and_silverware",
    "Dishes_and_pots_and_pans",
    "Drawer_open_or_close",
    "Drip",
    "Electric_guitar",
    "Fart",
    "Female_singing",
    "Female_speech_and_woman_speaking",
    "Fill_(with_liquid)",
    "Finger_snapping",
    "Frying_(food)",
    "Gasp",
    "Glockenspiel",
    "Gong",
    "Gurgling",
    "Harmonica",
    "Hi-hat",
    "Hiss",
    "Keys_jangling",
    "Knock",
    "Male_singing",
    "Male_speech_and_man_speaking",
    "Marimba_and_xylophone",
    "Mechanical_fan",
    "Meow",
    "Microwave_oven",
    "Motorcycle",
    "Printer",
    "Purr",
    "Race_car_and_auto_racing",
    "Raindrop",
    "Run",
    "Scissors",
    "Screaming",
    "Shatter",
    "Sigh",
    "Sink_(filling_or_washing)",
    "Skateboard",
    "Slam",
    "Sneeze",
    "Squeak",
    "Stream",
    "Strum",
    "Tap",
    "Tick-tock",
    "Toilet_flush",
    "Traffic_noise_and_roadway_noise",
    "Trickle_and_dribble",
    "Walk_and_footsteps",
    "Water_tap_and_faucet",
    "Waves_and_surf",
    "Whispering",
    "Writing",
    "Yell",
    "Zipper_(clothing)",
]


def _lwlrap(truth: np.ndarray, scores: np.ndarray) -> float:
    from sklearn.metrics import label_ranking_average_precision_score

    weights = np.sum(truth > 0, axis=1)
    labelled = np.flatnonzero(weights > 0)
    return float(
        label_ranking_average_precision_score(
            truth[labelled, :] > 0, scores[labelled, :], sample_weight=weights[labelled]
        )
    )


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """lwlrap of the submitted class scores."""
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test clip "
            f"({len(answers)})"
        )
    if submission.columns[0] != "fname":
        raise InvalidSubmission("the first column of the submission must be 'fname'")
    if not all(submission.columns[1:] == CLASS_NAMES):
        raise InvalidSubmission(
            "the columns after 'fname' must be the 80 classes in the sample submission's order"
        )
    require(answers.columns[0] == "fname", "answers do not start with 'fname'")
    require(all(answers.columns[1:] == CLASS_NAMES), "answers' classes differ")
    guess = submission.sort_values("fname").reset_index(drop=True)
    truth = answers.sort_values("fname").reset_index(drop=True)
    if (guess["fname"].values != truth["fname"].values).any():
        raise InvalidSubmission("the submission's 'fname' values are not the test clips")
    try:
        guess.iloc[:, 1:] = guess.iloc[:, 1:].apply(pd.to_numeric)
    except (ValueError, TypeError):
        raise InvalidSubmission("every class score must be a number") from None
    truth.iloc[:, 1:] = truth.iloc[:, 1:].apply(pd.to_numeric)
    return _lwlrap(truth.iloc[:, 1:].values, guess.iloc[:, 1:].values)
