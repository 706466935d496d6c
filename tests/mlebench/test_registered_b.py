"""MLE-bench medium/high competitions registered without data preparation (group B).

For every competition: the task loads, its grader is usable, and grading runs end
to end on tiny synthetic files in the task's real format: answers as MLE-bench's
preparation writes them, a perfect submission built from them, an imperfect one (a
valid, worse score) and a malformed one (invalid). The ``grader: raw`` competitions
(rows keyed by a pair of columns) have their scores cross-checked against MLE-bench's
formulas computed here and their format check against the sample tested. Making the
environment without prepared data names the missing preparation.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import gymnasium as gym
import numpy as np
import pandas as pd
import pytest
from scipy.spatial.distance import directed_hausdorff

import mle_gym  # noqa: F401  (registers the environments)
from mle_gym.data.store import DataNotPrepared
from mle_gym.grading import InvalidSubmission, grade_submission
from mle_gym.grading.format_check import FormatChecker
from mle_gym.grading.metrics.segmentation import dice_hausdorff_combo
from mle_gym.tasks import TaskSpec, get_task


@dataclass(frozen=True)
class Case:
    """Synthetic answers plus three submissions for one competition."""

    answers: dict[str, list[object]]  # columns of the answers file, in order
    imperfect: dict[str, list[object]]  # a valid submission that scores worse
    malformed: dict[str, list[object]]  # a submission that cannot be scored
    best: float  # the score of the perfect submission
    perfect: Callable[[pd.DataFrame], pd.DataFrame] | None = None  # default: copy the targets


def _kuzushiji_points(answers: pd.DataFrame) -> pd.DataFrame:
    """Each true box 'label x y w h' becomes the point 'label x+1 y+1' inside it."""

    def points(cell: str) -> str:
        tokens = cell.split()
        groups = [tokens[i : i + 5] for i in range(0, len(tokens), 5)]
        return " ".join(f"{g[0]} {int(g[1]) + 1} {int(g[2]) + 1}" for g in groups)

    return pd.DataFrame({"image_id": answers["image_id"], "labels": answers["labels"].map(points)})


def _tf2qa_first_answer(answers: pd.DataFrame) -> pd.DataFrame:
    """The first accepted answer of every row (blank where none is accepted)."""
    first = answers["PredictionString"].map(lambda c: c.split()[0] if c.split() else "")
    return pd.DataFrame({"example_id": answers["example_id"], "PredictionString": first})


def _osic_exact(answers: pd.DataFrame) -> pd.DataFrame:
    """True FVC (blank where unmeasured) with the smallest useful confidence, 70."""
    return pd.DataFrame(
        {"Patient_Week": answers["Patient_Week"], "FVC": answers["FVC"], "Confidence": 70}
    )


STUDY_A, STUDY_B = "1.2.826.0.1.3680043.10001", "1.2.826.0.1.3680043.10005"
SPINE = ["patient_overall", "C1", "C2", "C3", "C4", "C5", "C6", "C7"]
SPINE_TRUTH = [1, 0, 1, 0, 0, 0, 0, 0] + [0] * 8
PAW_ATTRIBUTES = [
    "Subject Focus", "Eyes", "Face", "Near", "Action", "Accessory",
    "Group", "Collage", "Human", "Occlusion", "Info", "Blur",
]  # fmt: skip

CASES: dict[str, Case] = {
    "kuzushiji-recognition": Case(
        answers={
            "image_id": ["100241706_00004_2", "100241706_00005_1", "200003076_00034"],
            "labels": ["U+306F 100 200 30 40 U+304C 300 400 20 20", "U+3082 50 60 10 10", ""],
        },
        imperfect={
            "image_id": ["100241706_00004_2", "100241706_00005_1", "200003076_00034"],
            "labels": ["U+306F 101 201 U+304C 301 401", "U+3042 51 61", ""],
        },
        malformed={
            "image_id": ["100241706_00004_2", "100241706_00005_1", "200003076_00034"],
            "labels": ["U+306F 101", "", ""],
        },
        best=1.0,
        perfect=_kuzushiji_points,
    ),
    "learning-agency-lab-automated-essay-scoring-2": Case(
        answers={
            "essay_id": ["000d118", "000fe60", "001ab80", "001bdc0", "002ba53"],
            "full_text": ["Cars are useful.", "Venus, a planet.", "Face on Mars", "x", "y"],
            "score": [3, 4, 1, 6, 2],
        },
        imperfect={
            "essay_id": ["000d118", "000fe60", "001ab80", "001bdc0", "002ba53"],
            "score": [3, 3, 2, 5, 2],
        },
        malformed={
            "essay_id": ["000d118", "000fe60", "001ab80", "001bdc0", "002ba53"],
            "score": [3, 3.5, 2, 5, 2],
        },
        best=1.0,
    ),
    "lmsys-chatbot-arena": Case(
        answers={
            "id": [30192, 53567, 65089],
            "model_a": ["gpt-4-1106-preview", "koala-13b", "gpt-3.5-turbo-0613"],
            "model_b": ["gpt-4-0613", "gpt-4-0613", "mistral-medium"],
            "prompt": ['["Is it morally right?"]', '["What is the difference?"]', '["hi, go"]'],
            "response_a": ['["The question, \\"moral\\"..."]', '["A"]', '["B"]'],
            "response_b": ['["As an AI..."]', '["C"]', '["D"]'],
            "winner_model_a": [1, 0, 0],
            "winner_model_b": [0, 1, 0],
            "winner_tie": [0, 0, 1],
        },
        imperfect={
            "id": [30192, 53567, 65089],
            "winner_model_a": [0.5, 0.2, 0.3],
            "winner_model_b": [0.3, 0.6, 0.3],
            "winner_tie": [0.2, 0.2, 0.4],
        },
        malformed={  # the first row sums to 0.9
            "id": [30192, 53567, 65089],
            "winner_model_a": [0.5, 0.2, 0.3],
            "winner_model_b": [0.2, 0.6, 0.3],
            "winner_tie": [0.2, 0.2, 0.4],
        },
        best=0.0,
    ),
    "multi-modal-gesture-recognition": Case(
        answers={"Id": ["0300", "0301"], "Sequence": ["2 14 20 6", "1 8 8 19 5"]},
        imperfect={"Id": ["0300", "0301"], "Sequence": ["2 14 6", "1 8 19 5 11"]},
        malformed={"Id": ["0300", "0301"], "Sequence": ["2 fourteen 6", "1 8"]},
        best=0.0,
    ),
    "nfl-player-contact-detection": Case(
        answers={
            "contact_id": [
                "58168_003392_0_38590_43854",
                "58168_003392_0_38590_G",
                "58168_003392_1_38590_43854",
                "58168_003392_1_41944_G",
            ],
            "game_play": ["58168_003392"] * 4,
            "datetime": ["2020-09-11T03:01:48.100Z"] * 4,
            "step": [0, 0, 1, 1],
            "nfl_player_id_1": [38590, 38590, 38590, 41944],
            "nfl_player_id_2": ["43854", "G", "43854", "G"],
            "contact": [0, 1, 0, 1],
        },
        imperfect={
            "contact_id": [
                "58168_003392_0_38590_43854",
                "58168_003392_0_38590_G",
                "58168_003392_1_38590_43854",
                "58168_003392_1_41944_G",
            ],
            "contact": [1, 1, 0, 0],
        },
        malformed={
            "contact_id": [
                "58168_003392_0_38590_43854",
                "58168_003392_0_38590_G",
                "58168_003392_1_38590_43854",
                "58168_003392_1_41944_G",
            ],
            "contact": [0, "yes", 0, 1],
        },
        best=1.0,
    ),
    "osic-pulmonary-fibrosis-progression": Case(
        answers={
            "Patient": ["ID00001"] * 5 + ["ID00002"] * 5,
            "Weeks": [-1, 0, 1, 2, 3] * 2,
            "FVC": [2800.0, None, 2700.0, 2650.0, 2600.0, None, 3100.0, None, None, 3000.0],
            "Percent": [70.1, None, 68.0, 66.2, 65.0, None, 80.5, None, None, 78.0],
            "Age": [70] * 5 + [65] * 5,
            "Sex": ["Male"] * 5 + ["Female"] * 5,
            "SmokingStatus": ["Ex-smoker"] * 5 + ["Never smoked"] * 5,
            "Patient_Week": [f"ID0000{p}_{w}" for p in (1, 2) for w in (-1, 0, 1, 2, 3)],
            "Confidence": [100] * 10,
        },
        imperfect={
            "Patient_Week": [f"ID0000{p}_{w}" for p in (1, 2) for w in (-1, 0, 1, 2, 3)],
            "FVC": [2800, 2750, 2750, 2600, 2700, 3100, 3100, 3050, 3050, 3000],
            "Confidence": [100] * 10,
        },
        malformed={
            "Patient_Week": [f"ID0000{p}_{w}" for p in (1, 2) for w in (-1, 0, 1, 2, 3)],
            "FVC": [2800, "n/a?", 2700, 2650, 2600, 3100, 3100, 3000, 3000, 3000],
            "Confidence": [100] * 10,
        },
        best=-math.log(math.sqrt(2) * 70),
        perfect=_osic_exact,
    ),
    "petfinder-pawpularity-score": Case(
        answers={
            "Id": ["0007de18844b0dbbb5e1f607da0606e0", "0009c66b9439883ba2750fb825e1d7db"],
            **{name: [0, 1] for name in PAW_ATTRIBUTES},
            "Pawpularity": [63, 42],
        },
        imperfect={
            "Id": ["0007de18844b0dbbb5e1f607da0606e0", "0009c66b9439883ba2750fb825e1d7db"],
            "Pawpularity": [58, 47],
        },
        malformed={
            "Id": ["0007de18844b0dbbb5e1f607da0606e0", "0009c66b9439883ba2750fb825e1d7db"],
            "Pawpularity": [150, 47],
        },
        best=0.0,
    ),
    "plant-pathology-2021-fgvc8": Case(
        answers={
            "image": ["85f8cb619c66b863.jpg", "ad8770db05586b59.jpg", "c7b03e718489f3ca.jpg"],
            "labels": ["scab", "frog_eye_leaf_spot complex", "healthy"],
        },
        imperfect={
            "image": ["85f8cb619c66b863.jpg", "ad8770db05586b59.jpg", "c7b03e718489f3ca.jpg"],
            "labels": ["scab rust", "complex", ""],
        },
        malformed={
            "image": ["85f8cb619c66b863.jpg", "ad8770db05586b59.jpg", "c7b03e718489f3ca.jpg"],
            "label": ["scab", "complex", "healthy"],
        },
        best=1.0,
    ),
    "predict-volcanic-eruptions-ingv-oe": Case(
        answers={"segment_id": [1000213997, 1000015382], "time_to_eruption": [24500000, 11250000]},
        imperfect={
            "segment_id": [1000213997, 1000015382],
            "time_to_eruption": [24500123.4, 11249000],
        },
        malformed={"segment_id": [1000213997, 1000015382], "time_to_eruption": ["soon", 0]},
        best=0.0,
    ),
    "rsna-2022-cervical-spine-fracture-detection": Case(
        answers={
            "StudyInstanceUID": [STUDY_A] * 8 + [STUDY_B] * 8,
            "prediction_type": SPINE * 2,
            "fractured": SPINE_TRUTH,
            "row_id": [f"{s}_{t}" for s in (STUDY_A, STUDY_B) for t in SPINE],
        },
        imperfect={
            "row_id": [f"{s}_{t}" for s in (STUDY_A, STUDY_B) for t in SPINE],
            "fractured": [0.5] * 16,
        },
        malformed={
            "row_id": [f"{s}_{t}" for s in (STUDY_A, STUDY_B) for t in SPINE],
            "fractured": [1.5] + [0.5] * 15,
        },
        best=0.0,
    ),
    "rsna-breast-cancer-detection": Case(
        answers={
            "prediction_id": ["10008_L", "10008_R", "10011_L", "10011_R"],
            "cancer": [0, 1, 0, 1],
        },
        imperfect={
            "prediction_id": ["10008_L", "10008_R", "10011_L", "10011_R"],
            "cancer": [0.5, 0.5, 0.5, 0.5],
        },
        malformed={
            "prediction_id": ["10008_L", "10008_R", "10011_L", "10011_R"],
            "cancer": [0, "likely", 0, 0.2],
        },
        best=1.0,
    ),
    "rsna-miccai-brain-tumor-radiogenomic-classification": Case(
        answers={"BraTS21ID": ["00013", "00097", "00104", "00210"], "MGMT_value": [1, 0, 1, 0]},
        imperfect={
            "BraTS21ID": ["00013", "00097", "00104", "00210"],
            "MGMT_value": [0.9, 0.4, 0.3, 0.1],
        },
        malformed={"BraTS21ID": ["13", "97", "104", "210"], "MGMT_value": [0.9, 0.4, 0.3, 0.1]},
        best=1.0,
    ),
    "seti-breakthrough-listen": Case(
        answers={
            "id": ["000bf832cae9ff1", "000c74cc71a1140", "000f5f9851161d3"],
            "target": [0, 1, 0],
        },
        imperfect={
            "id": ["000bf832cae9ff1", "000c74cc71a1140", "000f5f9851161d3"],
            "target": [0.6, 0.5, 0.1],
        },
        malformed={
            "id": ["000bf832cae9ff1", "000c74cc71a1140", "000f5f9851161d3"],
            "target": [0.6, 1.5, 0.1],
        },
        best=1.0,
    ),
    "siim-covid19-detection": Case(
        answers={
            "id": [
                "00188a671292_study",
                "004bd59708be_study",
                "000a312787f2_image",
                "000c3a3f293f_image",
            ],
            "PredictionString": [
                "typical 1 0 0 1 1",
                "negative 1 0 0 1 1",
                "opacity 1 789.28836 582.43035 1815.94498 2499.73327",
                "none 1 0 0 1 1",
            ],
        },
        imperfect={
            "id": [
                "00188a671292_study",
                "004bd59708be_study",
                "000a312787f2_image",
                "000c3a3f293f_image",
            ],
            "PredictionString": [
                "negative 0.6 0 0 1 1 typical 0.4 0 0 1 1",
                "negative 0.9 0 0 1 1",
                "opacity 0.8 700 500 1500 2000",
                "none 0.7 0 0 1 1",
            ],
        },
        malformed={
            "id": [
                "00188a671292_study",
                "004bd59708be_study",
                "000a312787f2_image",
                "000c3a3f293f_image",
            ],
            "PredictionString": [
                "typical 1 0 0 1",
                "negative 1 0 0 1 1",
                "none 1 0 0 1 1",
                "none 1 0 0 1 1",
            ],
        },
        best=1.0,
    ),
    "stanford-covid-vaccine": Case(
        answers={
            "id_seqpos": [f"id_00073f8be_{i}" for i in range(4)],
            "reactivity": [0.75, 2.15, 0.0, 0.0],
            "deg_Mg_pH10": [0.69, 3.04, 0.0, 0.0],
            "deg_pH10": [0.41, 1.2, 0.0, 0.0],
            "deg_Mg_50C": [0.57, 2.08, 0.0, 0.0],
            "deg_50C": [0.3, 1.1, 0.0, 0.0],
            "keep": [True, True, False, False],
        },
        imperfect={
            "id_seqpos": [f"id_00073f8be_{i}" for i in range(4)],
            "reactivity": [0.65, 2.25, 9.0, 9.0],
            "deg_Mg_pH10": [0.69, 3.04, 0.0, 0.0],
            "deg_pH10": [0.0, 0.0, 0.0, 0.0],
            "deg_Mg_50C": [0.57, 2.08, 0.0, 0.0],
            "deg_50C": [0.0, 0.0, 0.0, 0.0],
        },
        malformed={  # deg_50C is missing
            "id_seqpos": [f"id_00073f8be_{i}" for i in range(4)],
            "reactivity": [0.75, 2.15, 0.0, 0.0],
            "deg_Mg_pH10": [0.69, 3.04, 0.0, 0.0],
            "deg_pH10": [0.41, 1.2, 0.0, 0.0],
            "deg_Mg_50C": [0.57, 2.08, 0.0, 0.0],
        },
        best=0.0,
    ),
    "statoil-iceberg-classifier-challenge": Case(
        answers={"id": ["5941774d", "4023181e", "b20200e4"], "is_iceberg": [0, 1, 1]},
        imperfect={"id": ["5941774d", "4023181e", "b20200e4"], "is_iceberg": [0.2, 0.7, 0.9]},
        malformed={"id": ["5941774d", "4023181e", "b20200e4"], "is_iceberg": [0.2, 1.7, 0.9]},
        best=0.0,
    ),
    "tensorflow-speech-recognition-challenge": Case(
        answers={
            "fname": [f"clip_0000000{i}.wav" for i in range(4)],
            "label": ["yes", "bed", "_background_noise_", "stop"],
        },
        imperfect={
            "fname": [f"clip_0000000{i}.wav" for i in range(4)],
            "label": ["yes", "unknown", "silence", "stop"],
        },
        malformed={
            "fname": [f"clip_0000000{i}.wav" for i in range(4)],
            "label": ["yes", "", "silence", "stop"],
        },
        best=1.0,
    ),
    "tensorflow2-question-answering": Case(
        answers={
            "example_id": [
                "-1011141123527297803_long",
                "-1011141123527297803_short",
                "-1028916936938579349_long",
                "-1028916936938579349_short",
                "1000463186017541226_long",
                "1000463186017541226_short",
            ],
            "PredictionString": ["212:310", "213:215 260:263", "", "", "6:68", "YES"],
        },
        imperfect={
            "example_id": [
                "-1011141123527297803_long",
                "-1011141123527297803_short",
                "-1028916936938579349_long",
                "-1028916936938579349_short",
                "1000463186017541226_long",
                "1000463186017541226_short",
            ],
            "PredictionString": ["212:310", "260:263", "5:9", "", "6:68", "NO"],
        },
        malformed={
            "example_id": [
                "-1011141123527297803_long",
                "-1011141123527297803_short",
                "-1028916936938579349_long",
                "-1028916936938579349_short",
                "1000463186017541226_long",
                "1000463186017541226_short",
            ],
            "PredictionString": ["212-310", "", "", "", "", ""],
        },
        best=1.0,
        perfect=_tf2qa_first_answer,
    ),
    "tgs-salt-identification-challenge": Case(
        answers={
            "id": ["003c477d7c", "0108518d1e", "010ee525b6"],
            "rle_mask": ["1 5 102 8", "", "300 20"],
        },
        imperfect={
            "id": ["003c477d7c", "0108518d1e", "010ee525b6"],
            "rle_mask": ["1 5", "", "300 20"],
        },
        malformed={
            "id": ["003c477d7c", "0108518d1e", "010ee525b6"],
            "rle_mask": ["102 8 1 5", "", ""],
        },
        best=1.0,
    ),
    "tweet-sentiment-extraction": Case(
        answers={
            "textID": ["f87dea47db", "96d74cb729", "eee518ae67"],
            "text": ["Last session of the day, happy bday!", "so sad today", "what a day"],
            "selected_text": ["happy bday!", "so sad", "what a day"],
            "sentiment": ["positive", "negative", "neutral"],
        },
        imperfect={
            "textID": ["f87dea47db", "96d74cb729", "eee518ae67"],
            "selected_text": ["Happy BDAY! today", "sad", "what a day"],
        },
        malformed={"textID": ["f87dea47db", "96d74cb729", "eee518ae67"], "text": ["a", "b", "c"]},
        best=1.0,
    ),
    "us-patent-phrase-to-phrase-matching": Case(
        answers={
            "id": ["4112d61851461f60", "09e418c93a776564", "36baf228038e314b", "1f37ead645e7f0c8"],
            "anchor": ["opc drum", "adjust gas flow", "lower trunnion", "cap component"],
            "target": [
                "inorganic photoconductor drum",
                "altering gas flow",
                "lower locating",
                "mask",
            ],
            "context": ["G02", "F23", "B60", "H01"],
            "score": [0.5, 0.75, 0.25, 0.0],
        },
        imperfect={
            "id": ["4112d61851461f60", "09e418c93a776564", "36baf228038e314b", "1f37ead645e7f0c8"],
            "score": [0.3, 0.7, 0.4, 0.1],
        },
        malformed={
            "id": ["4112d61851461f60", "09e418c93a776564", "36baf228038e314b", "1f37ead645e7f0c8"],
            "score": [0.3, "high", 0.4, 0.1],
        },
        best=1.0,
    ),
    "ventilator-pressure-prediction": Case(
        answers={
            "id": [1, 2, 3, 4, 5, 6],
            "breath_id": [7] * 6,
            "R": [20] * 6,
            "C": [50] * 6,
            "time_step": [0.0, 0.0336, 0.0672, 0.1008, 0.1344, 0.168],
            "u_in": [0.08, 18.4, 22.5, 22.8, 0.0, 0.0],
            "u_out": [0, 0, 0, 1, 1, 1],
            "pressure": [5.84, 5.91, 7.88, 11.74, 6.2, 6.1],
        },
        imperfect={"id": [1, 2, 3, 4, 5, 6], "pressure": [6.84, 4.91, 8.88, 0.0, 0.0, 0.0]},
        malformed={"id": [1, 2, 3, 4, 5, 6], "pressure": [5.84, "inf", 7.88, 0, 0, 0]},
        best=0.0,
    ),
    "vesuvius-challenge-ink-detection": Case(
        answers={"Id": ["a"], "Predicted": ["3 4 12 2"], "width": [5], "height": [4]},
        imperfect={"Id": ["a"], "Predicted": ["3 4"]},
        malformed={"Id": ["a"], "Predicted": ["12 2 3 4"]},
        best=1.0,
    ),
    "vinbigdata-chest-xray-abnormalities-detection": Case(
        answers={  # gold_submission.csv: the true boxes with confidence 1.0
            "image_id": ["004f33259ee4", "008b3176a7248a0a", "00a2145de1886cb9"],
            "PredictionString": [
                "14 1.0 0.0 0.0 1.0 1.0",
                "0 1.0 1223.0 582.0 1470.0 859.0 3 1.0 691.0 1375.0 1653.0 1831.0",
                "14 1.0 0.0 0.0 1.0 1.0",
            ],
        },
        imperfect={
            "image_id": ["004f33259ee4", "008b3176a7248a0a", "00a2145de1886cb9"],
            "PredictionString": [
                "14 0.9 0 0 1 1",
                "0 0.8 1223 582 1470 859 3 0.7 100 100 300 300",
                "14 0.6 0 0 1 1",
            ],
        },
        malformed={
            "image_id": ["004f33259ee4", "008b3176a7248a0a", "00a2145de1886cb9"],
            "PredictionString": ["14 0.9 0 0 1", "14 1 0 0 1 1", "14 1 0 0 1 1"],
        },
        # pycocotools (as MLE-bench calls it) never counts the first true box (id 0)
        # as matched: class 14 keeps half its recall, (25.5 / 101 + 1 + 1) / 3.
        best=(25.5 / 101 + 2) / 3,
    ),
    "whale-categorization-playground": Case(
        answers={
            "Image": ["00029b3a.jpg", "0003c693.jpg", "000a6daec.jpg"],
            "Id": ["w_1287fbc", "new_whale", "w_d3b4b6e"],
        },
        imperfect={
            "Image": ["00029b3a.jpg", "0003c693.jpg", "000a6daec.jpg"],
            "Id": ["new_whale w_1287fbc", "new_whale", "w_98baff9 w_7554f44"],
        },
        malformed={
            "image": ["00029b3a.jpg", "0003c693.jpg", "000a6daec.jpg"],
            "Id": ["a", "b", "c"],
        },
        best=1.0,
    ),
}


@dataclass(frozen=True)
class RawCase:
    """Synthetic files of a ``grader: raw`` competition (rows keyed by a pair of columns)."""

    answers: pd.DataFrame  # the private answers file as MLE-bench prepares it
    sample: pd.DataFrame  # the public sample submission
    imperfect: pd.DataFrame  # a valid submission that scores worse ...
    expected: float  # ... its score, computed here the way MLE-bench's grade.py does
    malformed: pd.DataFrame  # a submission that cannot be scored ...
    complaint: str  # ... and a fragment of the message saying why
    best: float  # the score of the perfect submission (the answers' own columns)
    columns: tuple[str, ...]  # the submission's columns


TRIPS = ["2021-08-24-US-SVL-1-GooglePixel5", "2021-08-24-US-SVL-1-SamsungGalaxyS20Ultra"]
TRIP_SIZES = [6, 5]
SMARTPHONE_COLUMNS = ("tripId", "UnixTimeMillis", "LatitudeDegrees", "LongitudeDegrees")


def haversine_like_mlebench(frame: pd.DataFrame, truth: pd.DataFrame) -> float:
    """Per trip (rows paired by position), the mean of the p50 and p95 errors; then the mean."""
    errors = []
    for trip in truth["tripId"].unique():
        a = truth[truth["tripId"] == trip]
        b = frame[frame["tripId"] == trip]
        lat1, lon1 = (
            np.deg2rad(a["LatitudeDegrees"].to_numpy()),
            np.deg2rad(a["LongitudeDegrees"].to_numpy()),
        )
        lat2, lon2 = (
            np.deg2rad(b["LatitudeDegrees"].to_numpy()),
            np.deg2rad(b["LongitudeDegrees"].to_numpy()),
        )
        h = np.sin((lat2 - lat1) / 2) ** 2
        h += np.cos(lat1) * np.cos(lat2) * np.sin((lon2 - lon1) / 2) ** 2
        d = 2 * 6_371_000 * np.arcsin(np.sqrt(h))
        errors.append(np.mean([np.quantile(d, 0.5), np.quantile(d, 0.95)]))
    return float(np.mean(errors))


def raw_case_smartphone() -> RawCase:
    trip = [t for t, n in zip(TRIPS, TRIP_SIZES, strict=True) for _ in range(n)]
    step = [k for n in TRIP_SIZES for k in range(n)]
    answers = pd.DataFrame(  # MLE-bench's private test.csv: the trips' ground_truth.csv rows
        {
            "tripId": trip,
            "UnixTimeMillis": [1313868312000 + 1000 * k for k in step],
            "LatitudeDegrees": [37.4275 + 1.1e-5 * k for k in step],
            "LongitudeDegrees": [-122.0731 - 1.3e-5 * k for k in step],
        }
    )
    sample = answers.assign(LatitudeDegrees=37.904611315634504, LongitudeDegrees=-86.48107806249548)
    imperfect = answers.copy()
    imperfect["LatitudeDegrees"] += [1e-5 * (k % 3) for k in step]
    imperfect.loc[imperfect["tripId"] == TRIPS[1], "LongitudeDegrees"] += 2e-5
    malformed = answers.copy()
    malformed.loc[3, "UnixTimeMillis"] += 500  # a time the sample does not list
    return RawCase(
        answers,
        sample,
        imperfect,
        haversine_like_mlebench(imperfect, answers),
        malformed,
        "1 row(s) of sample_submission.csv are missing",
        0.0,
        SMARTPHONE_COLUMNS,
    )


UW_HEIGHT, UW_WIDTH = 5, 6
UW_CLASSES = ["large_bowel", "small_bowel", "stomach"]
UW_TRUTH = {  # slice id -> the three organs' masks, run-length encoded (column-major)
    "case123_day20_slice_0001": ["", "8 3 14 2", ""],
    "case123_day20_slice_0002": ["1 2", "9 3 15 3", ""],
    "case7_day0_slice_0065": ["", "", ""],
    "case7_day0_slice_0066": ["", "", "20 4 26 3"],
}
UW_GUESS = {
    "case123_day20_slice_0001": ["", "8 3", ""],
    "case123_day20_slice_0002": ["", "9 3 15 3", "28 2"],
    "case7_day0_slice_0065": ["", "", ""],
    "case7_day0_slice_0066": ["", "", "21 3 26 4"],
}


def dense(rle: str) -> np.ndarray:
    """A column-major 1-based RLE decoded pixel by pixel."""
    flat = np.zeros(UW_HEIGHT * UW_WIDTH, dtype=bool)
    numbers = [int(v) for v in rle.split()]
    for start, length in zip(numbers[0::2], numbers[1::2], strict=True):
        flat[start - 1 : start - 1 + length] = True
    return flat.reshape((UW_WIDTH, UW_HEIGHT)).T


def hausdorff_like_mlebench(pred: np.ndarray, true: np.ndarray) -> float:
    if not pred.any() and not true.any():
        return math.nan
    if np.array_equal(pred, true):
        return 0.0
    if not pred.any() or not true.any() or pred.sum() > 10 * true.sum():
        return 1.0
    a = np.argwhere(true) / true.shape
    b = np.argwhere(pred) / true.shape
    return max(directed_hausdorff(a, b)[0], directed_hausdorff(b, a)[0]) / math.sqrt(3)


def uw_like_mlebench(truth: dict[str, list[str]], guess: dict[str, list[str]]) -> float:
    dices = []
    for slice_id in truth:
        for t, g in zip(truth[slice_id], guess[slice_id], strict=True):
            a, b = dense(t), dense(g)
            total = a.sum() + b.sum()
            dices.append(2 * (a & b).sum() / total if total else math.nan)
    distances = []
    for day in sorted({k.split("_slice_")[0] for k in truth}):
        ids = sorted(k for k in truth if k.startswith(day + "_slice_"))
        volume = [
            np.logical_or.reduce([dense(r) for r in masks[k]])
            for masks in (truth, guess)
            for k in ids
        ]
        true, pred = np.stack(volume[: len(ids)]), np.stack(volume[len(ids) :])
        distances.append(hausdorff_like_mlebench(pred, true))
    return 0.4 * float(np.nanmean(dices)) + 0.6 * (1 - float(np.nanmean(distances)))


def _uw_rows(masks: dict[str, list[str]]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "id": [k for k in masks for _ in UW_CLASSES],
            "class": UW_CLASSES * len(masks),
            "predicted": [rle for k in masks for rle in masks[k]],
        }
    )


def raw_case_uw() -> RawCase:
    # MLE-bench writes the sizes as floats (assigned row by row into a new column)
    answers = _uw_rows(UW_TRUTH).assign(image_width=float(UW_WIDTH), image_height=float(UW_HEIGHT))
    sample = _uw_rows(UW_TRUTH).assign(predicted="1 1 5 2")
    malformed = _uw_rows(UW_GUESS)
    malformed.loc[4, "predicted"] = "15 3 9 3"  # runs out of order
    return RawCase(
        answers,
        sample,
        _uw_rows(UW_GUESS),
        uw_like_mlebench(UW_TRUTH, UW_GUESS),
        malformed,
        "invalid run-length encoding",
        1.0,
        ("id", "class", "predicted"),
    )


RAW: dict[str, Callable[[], RawCase]] = {
    "smartphone-decimeter-2022": raw_case_smartphone,
    "uw-madison-gi-tract-image-segmentation": raw_case_uw,
}

COMPETITIONS = sorted([*CASES, *RAW])


def _write(path: Path, columns: dict[str, list[object]] | pd.DataFrame) -> Path:
    frame = columns if isinstance(columns, pd.DataFrame) else pd.DataFrame(columns)
    frame.to_csv(path, index=False)
    return path


def _grade(task: TaskSpec, tmp_path: Path, name: str, frame: pd.DataFrame | dict, answers: Path):
    submission = _write(tmp_path / f"{name}.csv", frame)
    return grade_submission(task, submission, answers=answers, data_source="kaggle")


def _answers_path(task: TaskSpec, tmp_path: Path, case: Case) -> Path:
    return _write(tmp_path / task.answers_file, case.answers)


def _perfect(task: TaskSpec, case: Case, answers: Path) -> pd.DataFrame:
    frame = pd.read_csv(answers, dtype=str, keep_default_na=False)
    if case.perfect is not None:
        return case.perfect(frame)
    return frame[[task.submission.id_column, *task.submission.target_columns]]


# task.yaml's direction comes from the reference figures, which give none for this one
LOWER_IS_BETTER = {"ventilator-pressure-prediction"}


def _worse(task: TaskSpec, score: float, best: float) -> bool:
    lower = task.lower_is_better or task.id in LOWER_IS_BETTER
    return score > best if lower else score < best


@pytest.mark.parametrize("competition", COMPETITIONS)
def test_task_loads_and_is_registered(competition: str) -> None:
    task = get_task(competition)
    assert task.env_id == f"MLEBench/{competition}-v0"
    assert task.env_id in gym.registry
    assert not task.kaggle_supported
    assert task.description().strip()
    assert task.submission.target_columns
    assert task.grader_problem() is None
    if competition in RAW:
        assert task.grader == "raw"
        assert callable(getattr(task.module("grade"), "validate", None))


@pytest.mark.parametrize("competition", sorted(CASES))
def test_grading_end_to_end(competition: str, tmp_path: Path) -> None:
    task = get_task(competition)
    case = CASES[competition]
    answers = _answers_path(task, tmp_path, case)

    perfect = _grade(task, tmp_path, "perfect", _perfect(task, case, answers), answers)
    assert perfect.valid, perfect.message
    assert perfect.score == pytest.approx(case.best, abs=1e-5)

    imperfect = _grade(task, tmp_path, "imperfect", case.imperfect, answers)
    assert imperfect.valid, imperfect.message
    assert imperfect.score is not None and math.isfinite(imperfect.score)
    assert _worse(task, imperfect.score, perfect.score), (imperfect.score, perfect.score)

    malformed = _grade(task, tmp_path, "malformed", case.malformed, answers)
    assert not malformed.valid
    assert malformed.score is None and malformed.message


@pytest.mark.parametrize("competition", COMPETITIONS)
def test_make_without_data_says_preparation_is_not_supported(
    competition: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MLE_GYM_HOME", str(tmp_path))
    task = get_task(competition)
    with pytest.raises(DataNotPrepared, match="not yet supported"):
        gym.make(task.env_id)


# --------------------------------------------------------------------------- task graders


def _score(competition: str, tmp_path: Path, answers: dict, submission: dict):
    task = get_task(competition)
    path = _write(tmp_path / task.answers_file, answers)
    return _grade(task, tmp_path, "submission", submission, path)


def test_osic_scores_only_the_three_latest_measured_weeks(tmp_path: Path) -> None:
    answers = CASES["osic-pulmonary-fibrosis-progression"].answers
    base = _osic_exact(pd.DataFrame(answers).astype(str).replace("nan", "")).astype(str)
    # unscored rows: ID00001 week -1 (a 4th-latest measurement) and every blank week
    changed = base.copy()
    changed.loc[0, "FVC"] = "9999"
    changed.loc[1, "FVC"] = ""
    changed.loc[1, "Confidence"] = ""
    report = _score("osic-pulmonary-fibrosis-progression", tmp_path, answers, changed)
    assert report.valid, report.message
    assert report.score == pytest.approx(-math.log(math.sqrt(2) * 70), abs=1e-5)
    # a blank FVC on a scored row (ID00001 week 3) cannot be scored
    blank = base.copy()
    blank.loc[4, "FVC"] = ""
    report = _score("osic-pulmonary-fibrosis-progression", tmp_path, answers, blank)
    assert not report.valid and "FVC is blank" in report.message
    # a blank confidence counts as 0, i.e. the floor of 70
    low = base.copy()
    low["Confidence"] = ""
    report = _score("osic-pulmonary-fibrosis-progression", tmp_path, answers, low)
    assert report.score == pytest.approx(-math.log(math.sqrt(2) * 70), abs=1e-5)


def test_volcano_mae_is_rounded(tmp_path: Path) -> None:
    case = CASES["predict-volcanic-eruptions-ingv-oe"]
    report = _score("predict-volcanic-eruptions-ingv-oe", tmp_path, case.answers, case.imperfect)
    assert report.score == 562.0  # mean(123.4, 1000) = 561.7


def test_ventilator_ignores_the_expiratory_phase(tmp_path: Path) -> None:
    case = CASES["ventilator-pressure-prediction"]
    report = _score("ventilator-pressure-prediction", tmp_path, case.answers, case.imperfect)
    assert report.score == pytest.approx(1.0)


def test_stanford_scores_three_columns_on_kept_rows(tmp_path: Path) -> None:
    case = CASES["stanford-covid-vaccine"]
    report = _score("stanford-covid-vaccine", tmp_path, case.answers, case.imperfect)
    assert report.score == pytest.approx(0.1 / 3, abs=1e-5)


def test_breast_cancer_predictions_are_clipped(tmp_path: Path) -> None:
    case = CASES["rsna-breast-cancer-detection"]
    ids = case.answers["prediction_id"]
    clipped = {"prediction_id": ids, "cancer": [-3, 1.7, 0, 4]}
    report = _score("rsna-breast-cancer-detection", tmp_path, case.answers, clipped)
    assert report.valid and report.score == pytest.approx(1.0)
    # all zero: MLE-bench's precision is 0/0 = NaN in numpy, and the score 0
    zeros = {"prediction_id": ids, "cancer": [0, 0, 0, -0.2]}
    report = _score("rsna-breast-cancer-detection", tmp_path, case.answers, zeros)
    assert report.valid and report.score == 0.0


def test_lmsys_requires_rows_summing_to_one(tmp_path: Path) -> None:
    case = CASES["lmsys-chatbot-arena"]
    report = _score("lmsys-chatbot-arena", tmp_path, case.answers, case.malformed)
    assert "must add up to 1" in report.message and "30192" in report.message


def test_tweet_with_an_empty_reference(tmp_path: Path) -> None:
    case = CASES["tweet-sentiment-extraction"]
    answers = {**case.answers, "selected_text": ["happy bday!", "so sad", ""]}
    ids = case.answers["textID"]
    blank = _score(
        "tweet-sentiment-extraction",
        tmp_path,
        answers,
        {"textID": ids, "selected_text": ["happy bday!", "so sad", ""]},
    )
    assert not blank.valid and "non-empty" in blank.message
    guessed = _score(
        "tweet-sentiment-extraction",
        tmp_path,
        answers,
        {"textID": ids, "selected_text": ["happy bday!", "so sad", "what"]},
    )
    assert guessed.score == pytest.approx(2 / 3, abs=1e-5)


def test_tf2qa_blank_is_right_only_without_an_answer(tmp_path: Path) -> None:
    case = CASES["tensorflow2-question-answering"]
    submission = {"example_id": case.answers["example_id"], "PredictionString": [""] * 6}
    report = _score("tensorflow2-question-answering", tmp_path, case.answers, submission)
    assert report.score == pytest.approx(2 / 6, abs=1e-5)
    case_imperfect = _score(
        "tensorflow2-question-answering", tmp_path, case.answers, case.imperfect
    )
    assert case_imperfect.score == pytest.approx(4 / 6, abs=1e-5)


def test_vesuvius_rejects_overlapping_runs(tmp_path: Path) -> None:
    case = CASES["vesuvius-challenge-ink-detection"]
    report = _score(
        "vesuvius-challenge-ink-detection",
        tmp_path,
        case.answers,
        {"Id": ["a"], "Predicted": ["3 4 5 2"]},
    )
    assert not report.valid and "run-length" in report.message
    partial = _score("vesuvius-challenge-ink-detection", tmp_path, case.answers, case.imperfect)
    assert partial.score == pytest.approx(5 / 5.5, abs=1e-5)  # tp 4, fn 2, fp 0


def test_plant_pathology_ignores_labels_outside_the_answers(tmp_path: Path) -> None:
    case = CASES["plant-pathology-2021-fgvc8"]
    submission = {
        "image": case.answers["image"],
        "labels": ["scab rust scab", "frog_eye_leaf_spot complex", "healthy"],
    }
    report = _score("plant-pathology-2021-fgvc8", tmp_path, case.answers, submission)
    assert report.score == pytest.approx(1.0)


# --------------------------------------------------------------------------- raw graders


def _raw_answers(competition: str, tmp_path: Path) -> tuple[TaskSpec, RawCase, Path]:
    task = get_task(competition)
    case = RAW[competition]()
    return task, case, _write(tmp_path / task.answers_file, case.answers)


@pytest.mark.parametrize("competition", sorted(RAW))
def test_raw_grading_end_to_end(competition: str, tmp_path: Path) -> None:
    task, case, answers = _raw_answers(competition, tmp_path)
    perfect = _grade(task, tmp_path, "perfect", case.answers[list(case.columns)], answers)
    assert perfect.valid, perfect.message
    assert perfect.score == pytest.approx(case.best, abs=1e-9)

    imperfect = _grade(task, tmp_path, "imperfect", case.imperfect, answers)
    assert imperfect.valid, imperfect.message
    assert imperfect.score == pytest.approx(case.expected, abs=1e-5)
    assert _worse(task, imperfect.score, perfect.score), (imperfect.score, perfect.score)

    # rows matched by their pair of key columns: another order scores the same
    shuffled = _grade(task, tmp_path, "shuffled", case.imperfect.iloc[::-1], answers)
    assert shuffled.score == imperfect.score

    sample = _grade(task, tmp_path, "sample", case.sample, answers)
    assert sample.valid, sample.message

    malformed = _grade(task, tmp_path, "malformed", case.malformed, answers)
    assert not malformed.valid and malformed.score is None
    assert case.complaint in malformed.message


@pytest.mark.parametrize("competition", sorted(RAW))
def test_raw_validate_checks_the_format_against_the_sample(
    competition: str, tmp_path: Path
) -> None:
    task = get_task(competition)
    case = RAW[competition]()
    sample = _write(tmp_path / "sample_submission.csv", case.sample)
    checker = FormatChecker(task, sample)
    assert checker.check(sample, "sample_submission.csv").startswith("valid")
    good = _write(tmp_path / "imperfect.csv", case.imperfect)
    assert checker.check(good, "imperfect.csv").startswith("valid")
    header = _write(tmp_path / "header.csv", case.sample.rename(columns={case.columns[0]: "Id"}))
    with pytest.raises(InvalidSubmission, match="header must hold exactly") as err:
        checker.check(header, "header.csv")
    assert f"missing {case.columns[0]}" in str(err.value) and "unexpected Id" in str(err.value)
    with pytest.raises(InvalidSubmission, match=re.escape(case.complaint)):
        checker.check(_write(tmp_path / "bad.csv", case.malformed), "bad.csv")


def test_smartphone_rows_and_coordinates_are_checked(tmp_path: Path) -> None:
    task, case, answers = _raw_answers("smartphone-decimeter-2022", tmp_path)
    report = _grade(task, tmp_path, "short", case.answers.iloc[1:], answers)
    assert not report.valid and "10 rows but 11" in report.message
    twice = case.answers.copy()
    twice.loc[1, "UnixTimeMillis"] = twice.loc[0, "UnixTimeMillis"]
    report = _grade(task, tmp_path, "twice", twice, answers)
    assert not report.valid and "missing" in report.message
    text = case.answers.astype(str)
    text.loc[7, "LatitudeDegrees"] = "north"
    report = _grade(task, tmp_path, "text", text, answers)
    assert not report.valid and "LatitudeDegrees must be a number" in report.message
    assert "data row 8" in report.message
    # a trip whose rows all miss by the same distance scores that distance
    east = case.answers.copy()
    east.loc[east["tripId"] == TRIPS[0], "LatitudeDegrees"] += 1e-4
    report = _grade(task, tmp_path, "east", east, answers)
    assert report.score == pytest.approx(6_371_000 * math.radians(1e-4) / 2, abs=1e-5)


def test_uw_matches_the_library_combo_and_checks_masks(tmp_path: Path) -> None:
    task, case, answers = _raw_answers("uw-madison-gi-tract-image-segmentation", tmp_path)
    truth = [dense(r) for k in UW_TRUTH for r in UW_TRUTH[k]]
    guess = [dense(r) for k in UW_GUESS for r in UW_GUESS[k]]
    ids = [k for k in UW_TRUTH for _ in UW_CLASSES]
    assert dice_hausdorff_combo(truth, guess, ids) == pytest.approx(case.expected, abs=1e-9)
    # a prediction more than ten times the true volume counts as Hausdorff distance 1
    flood = {**UW_TRUTH, "case7_day0_slice_0065": ["1 30", "", ""]}
    report = _grade(task, tmp_path, "flood", _uw_rows(flood), answers)
    assert report.score == pytest.approx(uw_like_mlebench(UW_TRUTH, flood), abs=1e-5)
    # pandas reads "nan" as missing, i.e. an empty mask, as MLE-bench does
    nan = _uw_rows(UW_TRUTH).replace({"predicted": {"": "nan"}})
    report = _grade(task, tmp_path, "nan", nan, answers)
    assert report.valid and report.score == pytest.approx(1.0)
    missing = _uw_rows(UW_TRUTH).iloc[:-1]
    report = _grade(task, tmp_path, "missing", missing, answers)
    assert not report.valid and "case7_day0_slice_0066, class stomach" in report.message
    extra = pd.concat([_uw_rows(UW_TRUTH), _uw_rows(UW_TRUTH).iloc[[0]]])
    report = _grade(task, tmp_path, "extra", extra, answers)
    assert not report.valid and "appears 2 time(s) instead of 1" in report.message
