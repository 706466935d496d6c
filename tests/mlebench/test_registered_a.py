"""MLE-bench tasks registered without data preparation (medium/high splits, part A).

For every competition: the task folder loads, its grader is usable, grading works end to end
on tiny synthetic files in the competition's real format (a perfect submission gets the metric's
best value, an imperfect one the value computed independently here the way MLE-bench's grade.py
computes it, a malformed one is invalid), and ``gymnasium.make`` says that preparing the data is
not yet supported. The ``grader: raw`` competitions (submissions that are not one row per
answers id) also have their format check against the public sample submission tested.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import gymnasium
import numpy as np
import pandas as pd
import pytest
from scipy.special import rel_entr
from scipy.stats import spearmanr
from sklearn.metrics import (
    accuracy_score,
    auc,
    f1_score,
    label_ranking_average_precision_score,
    roc_auc_score,
    roc_curve,
)
from sklearn.preprocessing import MultiLabelBinarizer

import mle_gym  # noqa: F401  (registers the environments)
from mle_gym.data.store import DataNotPrepared
from mle_gym.grading import InvalidSubmission, grade_submission
from mle_gym.grading.format_check import FormatChecker
from mle_gym.tasks import get_task

GRADED = [
    "3d-object-detection-for-autonomous-vehicles",
    "AI4Code",
    "alaska2-image-steganalysis",
    "billion-word-imputation",
    "bms-molecular-translation",
    "cassava-leaf-disease-classification",
    "cdiscount-image-classification-challenge",
    "chaii-hindi-and-tamil-question-answering",
    "champs-scalar-coupling",
    "facebook-recruiting-iii-keyword-extraction",
    "freesound-audio-tagging-2019",
    "google-quest-challenge",
    "google-research-identify-contrails-reduce-global-warming",
    "herbarium-2020-fgvc7",
    "herbarium-2021-fgvc8",
    "herbarium-2022-fgvc9",
    "hotel-id-2021-fgvc8",
    "hubmap-kidney-segmentation",
    "icecube-neutrinos-in-deep-ice",
    "imet-2020-fgvc7",
    "inaturalist-2019-fgvc6",
    "iwildcam-2019-fgvc6",
    "iwildcam-2020-fgvc7",
]
RAW = [  # grader: raw -- grade.py validates and matches the rows itself
    "h-and-m-personalized-fashion-recommendations",
    "hms-harmful-brain-activity-classification",
    "jigsaw-unintended-bias-in-toxicity-classification",
]
ALL = GRADED + RAW


@dataclass
class Case:
    """Synthetic files of one competition, in its real format."""

    answers: pd.DataFrame  # the private answers file as MLE-bench prepares it
    perfect: pd.DataFrame  # a submission that reproduces the answers
    imperfect: pd.DataFrame  # a deliberately worse submission ...
    expected: float  # ... and its score, computed independently here
    malformed: str  # CSV text of a submission that cannot be graded
    best: float  # the metric's best value


# ----------------------------------------------------------------- independent references


def levenshtein(a: str, b: str) -> int:
    """Plain dynamic-programming edit distance."""
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def ap_at_k(actual: set[str], ranked: list[str], k: int) -> float:
    hits, total = 0, 0.0
    for i, item in enumerate(ranked[:k]):
        if item in actual and item not in ranked[:i]:
            hits += 1
            total += hits / (i + 1)
    return total / min(len(actual), k)


def dense_mask(rle: str, height: int, width: int) -> np.ndarray:
    """Column-major 1-based RLE decoded pixel by pixel."""
    flat = np.zeros(height * width, dtype=bool)
    numbers = [int(v) for v in rle.split()]
    for start, length in zip(numbers[0::2], numbers[1::2], strict=True):
        flat[start - 1 : start - 1 + length] = True
    return flat.reshape((width, height)).T


def alaska_weighted_auc(labels: np.ndarray, scores: np.ndarray) -> float:
    """Weighted AUC as MLE-bench computes it: sklearn's ROC curve with a point at TPR 0.4."""
    fpr, tpr, _ = roc_curve(labels, scores)
    fpr, tpr = list(fpr), list(tpr)
    for level in (0.0, 0.4, 1.0):
        if level not in tpr:
            i = next(i for i, v in enumerate(tpr) if v > level)
            fpr.insert(
                i, fpr[i - 1] + (fpr[i] - fpr[i - 1]) * (level - tpr[i - 1]) / (tpr[i] - tpr[i - 1])
            )
            tpr.insert(i, level)
    fpr, tpr = np.array(fpr), np.array(tpr)
    total = 0.0
    for low, high, weight in ((0.0, 0.4, 2), (0.4, 1.0, 1)):
        band = (tpr >= low) & (tpr <= high)
        total += weight * auc(np.r_[fpr[band], 1.0], np.r_[tpr[band], high] - low)
    return total / (2 * 0.4 + 1 * 0.6)


def micro_f1_like_mlebench(truth: list[str], predicted: list[str]) -> float:
    classes = sorted({tag for cell in truth for tag in cell.split()})
    binarizer = MultiLabelBinarizer(classes=classes)
    y_true = binarizer.fit_transform([cell.split() for cell in truth])
    with pytest.warns(UserWarning):  # unknown labels are ignored, with a warning
        y_pred = binarizer.transform([cell.split() for cell in predicted])
    return f1_score(y_true, y_pred, average="micro")


def yaw_box(conf: float, *box: float | str) -> str:
    """A Lyft box ``conf x y z width length height yaw class`` as prediction-string text."""
    return " ".join(str(v) for v in (conf, *box))


# ----------------------------------------------------------------- cases


def case_3d() -> Case:
    car1 = (10.0, 20.0, 0.0, 2.0, 4.0, 1.5, 0.3, "car")
    walker = (30.0, 5.0, 0.0, 0.7, 0.8, 1.8, 0.0, "pedestrian")
    car2 = (50.0, 50.0, 1.0, 2.0, 4.0, 2.0, 1.0, "car")
    rows = [("s1", [car1, walker]), ("s2", [car2])]
    answers = pd.DataFrame(
        {
            "Id": [r[0] for r in rows],
            "PredictionString": [" ".join(yaw_box(1.0, *b) for b in r[1]) for r in rows],
        }
    )
    perfect = pd.DataFrame(
        {
            "Id": ["s1", "s2"],
            "PredictionString": [
                f"{yaw_box(0.9, *car1)} {yaw_box(0.8, *walker)}",
                yaw_box(0.7, *car2),
            ],
        }
    )
    # car 1 moved 0.4 m along its length: IoU = 3.6 / 4.4 = 0.818, a hit for thresholds
    # 0.50..0.80 only; the pedestrian is missed; the bus (even with a negative size) is ignored
    shift = (10.0 + 0.4 * math.cos(0.3), 20.0 + 0.4 * math.sin(0.3))
    moved = yaw_box(0.9, *shift, 0.0, 2.0, 4.0, 1.5, 0.3, "car")
    imperfect = pd.DataFrame(
        {
            "Id": ["s1", "s2"],
            "PredictionString": [f"{moved} 0.5 1 1 1 -2 2 2 0 bus", yaw_box(0.7, *car2)],
        }
    )
    expected = ((0.5 * 7 + 0.0 * 3) / 10 + 1.0) / 2
    return Case(
        answers,
        perfect,
        imperfect,
        expected,
        "Id,PredictionString\ns1,1.0 10 20 0 2 4 1.5 0.3\ns2,\n",
        1.0,
    )


def case_ai4code() -> Case:
    answers = pd.DataFrame({"id": ["nb1", "nb2"], "cell_order": ["a1 b2 c3 d4", "x9 y8 z7"]})
    imperfect = pd.DataFrame({"id": ["nb1", "nb2"], "cell_order": ["b2 a1 c3 d4", "z7 y8 x9"]})
    expected = 1 - 4 * (1 + 3) / (4 * 3 + 3 * 2)
    malformed = "id,cell_order\nnb1,a1 b2 c3\nnb2,x9 y8 z7\n"  # a cell is missing
    return Case(answers, answers.copy(), imperfect, expected, malformed, 1.0)


def case_alaska() -> Case:
    labels = np.array([0, 1, 0, 1, 1, 0, 0, 1, 0, 1])
    ids = [f"{i:04d}.jpg" for i in range(1, 11)]
    answers = pd.DataFrame({"Id": ids, "Label": labels})
    perfect = pd.DataFrame({"Id": ids, "Label": labels * 3.5 - 1.0})  # any increasing score
    scores = np.array([0.1, 0.9, 0.8, 0.3, 0.7, 0.2, 0.6, 0.65, 0.05, 0.95])
    imperfect = pd.DataFrame({"Id": ids, "Label": scores})
    malformed = "Id,Label\n" + "".join(f"{i},high\n" for i in ids)
    return Case(answers, perfect, imperfect, alaska_weighted_auc(labels, scores), malformed, 1.0)


def case_billion_word() -> Case:
    sentences = [
        'The deal , he said , is "done" .',
        "It rained all day in Paris .",
        "No one came .",
    ]
    answers = pd.DataFrame({"id": [0, 1, 2], "sentence": sentences})
    guesses = ['The deal , he said , is "done" .', "It rained day in Paris .", "No one ."]
    imperfect = pd.DataFrame({"id": [0, 1, 2], "sentence": guesses})
    expected = float(np.mean([levenshtein(a, b) for a, b in zip(sentences, guesses, strict=True)]))
    malformed = "id,sentence\n0,\n1,It rained .\n2,No one came .\n"  # empty sentence
    return Case(answers, answers.copy(), imperfect, expected, malformed, 0.0)


def case_bms() -> Case:
    truth = ["InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3", "InChI=1S/H2O/h1H2", "InChI=1S/CH4/h1H4"]
    ids = ["000a1", "000b2", "000c3"]
    answers = pd.DataFrame({"image_id": ids, "InChI": truth})
    guesses = ["InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H2", "", "NA"]  # blank and NA read as "nan"
    imperfect = pd.DataFrame({"image_id": ids, "InChI": guesses})
    expected = float(
        np.mean(
            [
                levenshtein(truth[0], guesses[0]),
                levenshtein(truth[1], "nan"),
                levenshtein(truth[2], "nan"),
            ]
        )
    )
    malformed = "image_id,InChi\n" + "".join(f"{i},InChI=1S/H2O/h1H2\n" for i in ids)
    return Case(answers, answers.copy(), imperfect, expected, malformed, 0.0)


def case_classes(
    id_col: str,
    target: str,
    ids: list[str],
    truth: list[int],
    guess: list[int],
    scorer: Callable[[list[int], list[int]], float],
    best: float = 1.0,
) -> Case:
    answers = pd.DataFrame({id_col: ids, target: truth})
    imperfect = pd.DataFrame({id_col: ids, target: guess})
    malformed = f"{id_col},{target}\n" + "".join(f"{i},2.5\n" for i in ids)
    return Case(answers, answers.copy(), imperfect, scorer(truth, guess), malformed, best)


def macro_f1(truth: list[int], guess: list[int]) -> float:
    return f1_score(truth, guess, average="macro")


def case_chaii() -> Case:
    answers = pd.DataFrame(
        {"id": ["q1", "q2", "q3"], "PredictionString": ["नई दिल्ली", "१९४७", "சென்னை நகரம்"]}
    )
    guesses = ["नई दिल्ली शहर", "", "சென்னை"]
    imperfect = pd.DataFrame({"id": ["q1", "q2", "q3"], "PredictionString": guesses})
    expected = (2 / 3 + 0.0 + 1 / 2) / 3
    malformed = "id,PredictionString\nq1,a\nq1,b\nq3,c\n"  # duplicate id, q2 missing
    return Case(answers, answers.copy(), imperfect, expected, malformed, 1.0)


def case_champs() -> Case:
    answers = pd.DataFrame(
        {
            "id": [10, 11, 12, 13, 14],
            "molecule_name": ["dsgdb9nsd_000001"] * 3 + ["dsgdb9nsd_000002"] * 2,
            "atom_index_0": [1, 2, 3, 1, 2],
            "atom_index_1": [0, 0, 0, 0, 0],
            "type": ["1JHC", "1JHC", "2JHH", "1JHC", "3JHN"],
            "scalar_coupling_constant": [84.8, 85.1, -11.2, 83.9, 1.5],
        }
    )
    guess = [84.0, 86.1, -11.2, 83.9, 2.0]
    imperfect = answers[["id"]].assign(scalar_coupling_constant=guess)
    errors = np.abs(np.array(guess) - answers["scalar_coupling_constant"].to_numpy())
    types = answers["type"].to_numpy()
    expected = float(
        np.mean([math.log(max(errors[types == t].mean(), 1e-9)) for t in sorted(set(types))])
    )
    malformed = "id,scalar_coupling_constant\n10,1\n11,abc\n12,1\n13,1\n14,1\n"
    return Case(
        answers,
        answers[["id", "scalar_coupling_constant"]],
        imperfect,
        expected,
        malformed,
        math.log(1e-9),
    )


def case_tag_lists(id_col: str, target: str, extra: dict[str, list[str]]) -> Case:
    ids = ["101", "102", "103", "104"]
    truth = ["c# asp.net", "python", "java spring hibernate", "php"]
    guesses = ["c# zzz-unknown", "", "java spring spring", "php python"]
    answers = pd.DataFrame({id_col: ids, **extra, target: truth})
    imperfect = pd.DataFrame({id_col: ids, target: guesses})
    malformed = f"{id_col},{target.lower()}x\n" + "".join(f"{i},php\n" for i in ids)
    return Case(
        answers,
        answers[[id_col, target]],
        imperfect,
        micro_f1_like_mlebench(truth, guesses),
        malformed,
        1.0,
    )


def case_freesound() -> Case:
    classes = list(get_task("freesound-audio-tagging-2019").submission.target_columns)
    rng = np.random.default_rng(0)
    truth = np.zeros((5, len(classes)), dtype=int)
    truth[0, [1, 5]] = 1
    truth[1, 7] = 1
    truth[2, [0, 2, 79]] = 1
    truth[3, 40] = 1  # row 4 has no label: skipped by the metric
    ids = [f"{i:08x}.wav" for i in range(5)]
    answers = pd.DataFrame(truth, columns=classes).assign(fname=ids)[["fname", *classes]]
    scores = rng.random(truth.shape).round(3)
    imperfect = pd.DataFrame(scores, columns=classes).assign(fname=ids)[["fname", *classes]]
    keep = truth.sum(axis=1) > 0
    expected = label_ranking_average_precision_score(
        truth[keep] > 0, scores[keep], sample_weight=truth[keep].sum(axis=1)
    )
    broken = imperfect.astype(object)
    broken.iloc[2, 5] = "nan"
    return Case(answers, answers.copy(), imperfect, expected, broken.to_csv(index=False), 1.0)


def case_quest() -> Case:
    classes = list(get_task("google-quest-challenge").submission.target_columns)
    rng = np.random.default_rng(1)
    truth = rng.choice([0.0, 1 / 3, 0.5, 2 / 3, 1.0], size=(8, len(classes)))
    truth[0], truth[1] = 0.0, 1.0  # no constant answer column
    ids = [39, 46, 70, 132, 200, 245, 251, 300]
    answers = pd.DataFrame(truth, columns=classes).assign(qa_id=ids)[["qa_id", *classes]]
    guess = rng.random(truth.shape)
    imperfect = pd.DataFrame(guess, columns=classes).assign(qa_id=ids)[["qa_id", *classes]]
    expected = float(np.mean([spearmanr(guess[:, j], truth[:, j]).correlation for j in range(30)]))
    constant = imperfect.copy()
    constant[classes[3]] = 0.5  # no Spearman correlation for a constant column
    return Case(answers, answers.copy(), imperfect, expected, constant.to_csv(index=False), 1.0)


def case_contrails() -> Case:
    h, w = 4, 5
    truth = ["2 3 7 2", "-", "1 4"]
    ids = ["1002653297254493116", "1005310838114010045", "1006338000000000001"]
    answers = pd.DataFrame({"record_id": ids, "encoded_pixels": truth, "height": h, "width": w})
    guesses = ["2 2 8 5", "18 5", "-"]  # the run past the image end is cut off
    imperfect = answers.assign(encoded_pixels=guesses)
    t = [dense_mask("" if v == "-" else v, h, w) for v in truth]
    p = [dense_mask("" if v == "-" else v, h, w) for v in guesses]
    inter = sum(int((a & b).sum()) for a, b in zip(t, p, strict=True))
    expected = 2 * inter / (sum(int(a.sum()) for a in t) + sum(int(b.sum()) for b in p))
    malformed = answers.assign(encoded_pixels=["7 2 2 3", "-", "-"]).to_csv(index=False)  # unsorted
    return Case(answers, answers.copy(), imperfect, expected, malformed, 1.0)


def case_hotel() -> Case:
    answers = pd.DataFrame(
        {
            "image": ["a.jpg", "b.jpg", "c.jpg", "d.jpg"],
            "chain": [5, 0, 5, 3],
            "hotel_id": [36363, 117, 5, 800],
            "timestamp": ["2018-04-12 01:40:40"] * 4,
        }
    )
    guesses = ["36363 1 2", "9 9 117", "1 2 3 4 5", ""]
    imperfect = answers[["image"]].assign(hotel_id=guesses)
    expected = float(
        np.mean(
            [
                ap_at_k({str(t)}, g.split(" "), 5)
                for t, g in zip(answers["hotel_id"], guesses, strict=True)
            ]
        )
    )
    malformed = "image,hotel_id\na.jpg,1\nb.jpg,2\nc.jpg,3\n"  # d.jpg missing
    return Case(answers, answers[["image", "hotel_id"]], imperfect, expected, malformed, 1.0)


def case_hubmap() -> Case:
    ids = ["aa05346ff", "afa5e8098", "b2dc8411c"]
    truth = ["3 4 20 5", "", "50 10"]
    answers = pd.DataFrame({"id": ids, "predicted": truth})
    guesses = ["3 2 19 3 40 2", "", "NA"]  # image 2 empty in both (Dice 1), NA = empty mask
    imperfect = answers.assign(predicted=guesses)
    dices = []
    for a, b in zip(truth, ["3 2 19 3 40 2", "", ""], strict=True):
        t, p = dense_mask(a, 10, 10), dense_mask(b, 10, 10)
        total = t.sum() + p.sum()
        dices.append(1.0 if total == 0 else 2 * (t & p).sum() / total)
    malformed = "id,predicted\naa05346ff,1 5 3 2\nafa5e8098,\nb2dc8411c,\n"  # overlapping runs
    return Case(answers, answers.copy(), imperfect, float(np.mean(dices)), malformed, 1.0)


def case_icecube() -> Case:
    answers = pd.DataFrame(
        {"event_id": [2092, 7344, 9482], "azimuth": [0.5, 3.0, 5.9], "zenith": [1.2, 0.3, 2.9]}
    )
    guess = answers.assign(azimuth=[0.6, 1.0, 5.9], zenith=[1.2, 0.5, 2.0])

    def vector(az: np.ndarray, zen: np.ndarray) -> np.ndarray:
        return np.stack([np.sin(zen) * np.cos(az), np.sin(zen) * np.sin(az), np.cos(zen)], axis=1)

    cos = np.sum(
        vector(answers["azimuth"], answers["zenith"]) * vector(guess["azimuth"], guess["zenith"]),
        axis=1,
    )
    expected = float(np.mean(np.arccos(np.clip(cos, -1, 1))))
    malformed = "event_id,azimuth,zenith\n2092,inf,1\n7344,1,1\n9482,1,1\n"
    return Case(answers, answers.copy(), guess, expected, malformed, 0.0)


def case_inaturalist() -> Case:
    answers = pd.DataFrame(
        {"id": [268243, 268244, 268245, 268246], "predicted": [612, 55, 7, 1009]}
    )
    imperfect = answers.assign(predicted=["612", "3 55 1009", "7 1 2", "1000"])
    malformed = "id,predicted\n268243,abc\n268244,55\n268245,7\n268246,1\n"
    return Case(answers, answers.copy(), imperfect, 0.5, malformed, 0.0)


def case_iwildcam_2019() -> Case:
    ids = ["5998cfa4-23d2", "588a679f-23d2", "59279ce3-23d2", "5a2af4ab-23d2", "599fbd89-23d2"]
    case = case_classes("Id", "Category", ids, [0, 19, 0, 1, 11], [0, 19, 1, 1, 0], macro_f1)
    # MLE-bench's own sample submission format, with the pandas index as first column
    case.malformed = ",Id,Category\n" + "".join(f"{n},{i},0\n" for n, i in enumerate(ids))
    return case


CASES: dict[str, Callable[[], Case]] = {
    "3d-object-detection-for-autonomous-vehicles": case_3d,
    "AI4Code": case_ai4code,
    "alaska2-image-steganalysis": case_alaska,
    "billion-word-imputation": case_billion_word,
    "bms-molecular-translation": case_bms,
    "cassava-leaf-disease-classification": lambda: case_classes(
        "image_id",
        "label",
        ["1000015157.jpg", "1000201771.jpg", "100042118.jpg", "1000723321.jpg"],
        [3, 0, 4, 3],
        [3, 1, 4, 4],
        accuracy_score,
    ),
    "cdiscount-image-classification-challenge": lambda: case_classes(
        "_id",
        "category_id",
        ["10", "14", "21", "24", "27"],
        [1000010653, 1000018294, 1000010653, 1000004079, 1000018294],
        [1000010653, 1000010653, 1000010653, 1000004079, 1000018294],
        accuracy_score,
    ),
    "chaii-hindi-and-tamil-question-answering": case_chaii,
    "champs-scalar-coupling": case_champs,
    "facebook-recruiting-iii-keyword-extraction": lambda: case_tag_lists(
        "Id", "Tags", {"Title": ["t"] * 4, "Body": ["<p>b, with a comma</p>"] * 4}
    ),
    "freesound-audio-tagging-2019": case_freesound,
    "google-quest-challenge": case_quest,
    "google-research-identify-contrails-reduce-global-warming": case_contrails,
    "herbarium-2020-fgvc7": lambda: case_classes(
        "Id",
        "Predicted",
        ["0", "1", "2", "3", "4", "5"],
        [15504, 3, 3, 7, 7, 7],
        [15504, 3, 7, 7, 7, 9],
        macro_f1,
    ),
    "herbarium-2021-fgvc8": lambda: case_classes(
        "Id", "Predicted", ["0", "1", "2", "3"], [41213, 702, 702, 5], [41213, 702, 5, 5], macro_f1
    ),
    "herbarium-2022-fgvc9": lambda: case_classes(
        "Id",
        "Predicted",
        ["0", "1", "2", "3"],
        [12035, 877, 42, 42],
        [42, 877, 42, 12035],
        macro_f1,
    ),
    "hotel-id-2021-fgvc8": case_hotel,
    "hubmap-kidney-segmentation": case_hubmap,
    "icecube-neutrinos-in-deep-ice": case_icecube,
    "imet-2020-fgvc7": lambda: case_tag_lists("id", "attribute_ids", {}),
    "inaturalist-2019-fgvc6": case_inaturalist,
    "iwildcam-2019-fgvc6": case_iwildcam_2019,
    "iwildcam-2020-fgvc7": lambda: case_classes(
        "Id",
        "Category",
        ["8b2e1c20", "8b2f3b9e", "8b30a1b2"],
        [372, 0, 5],
        [372, 0, 0],
        accuracy_score,
    ),
}


# ----------------------------------------------------------------- raw-grader cases


@dataclass
class RawCase:
    """Synthetic files of a ``grader: raw`` competition, in its real format."""

    answers: pd.DataFrame  # the private answers file as MLE-bench prepares it
    sample: pd.DataFrame  # the public sample submission
    perfect: pd.DataFrame  # a submission that reproduces the answers
    imperfect: pd.DataFrame  # a deliberately worse submission ...
    expected: float  # ... and its score, computed independently here
    malformed: str  # CSV text of a submission that cannot be graded ...
    complaint: str  # ... and a fragment of the message saying why
    best: float  # the metric's best value


# Kaggle's sample submission: the same 12 articles for everyone, with leading zeros
HM_POPULAR = (
    "0706016001 0706016002 0372860001 0610776002 0759871002 0464297007 "
    "0372860002 0610776001 0399223001 0706016003 0720125001 0156231001"
)


def customer(n: int) -> str:
    """A 64-hex-digit customer id, as in the H&M data."""
    return hashlib.sha256(f"customer {n}".encode()).hexdigest()


def raw_case_hm() -> RawCase:
    customers = [customer(n) for n in range(6)]
    # answers: only the buyers of the test week; article ids without leading zeros, one per
    # purchase (a repeated purchase repeats the id)
    bought = {
        customers[0]: "706016001 706016002",
        customers[2]: "372860001",
        customers[3]: "610776002 759871002 610776002",
    }
    answers = pd.DataFrame({"customer_id": list(bought), "prediction": list(bought.values())})
    sample = pd.DataFrame({"customer_id": customers, "prediction": HM_POPULAR})
    perfect = sample.assign(prediction=[bought.get(c, "706016001") for c in customers])
    ranked = {
        customers[0]: "706016002 111111111 706016001",
        customers[2]: "0372860001",  # the leading zero makes it a miss, as in MLE-bench
        customers[3]: "759871002",
    }
    imperfect = sample.assign(prediction=[ranked.get(c, "") for c in customers])
    expected = float(
        np.mean([ap_at_k(set(bought[c].split(" ")), ranked[c].split(" "), 12) for c in bought])
    )
    # unscored customers (1, 4, 5) may be left out; scored ones (0, 2, 3) may not
    malformed = "customer_id,prediction\n" + "".join(f"{c},706016001\n" for c in customers[:2])
    return RawCase(
        answers, sample, perfect, imperfect, expected, malformed, "scored customers", 1.0
    )


HMS_VOTES = ["seizure_vote", "lpd_vote", "gpd_vote", "lrda_vote", "grda_vote", "other_vote"]


def raw_case_hms() -> RawCase:
    eeg = [568657, 568657, 582999, 642382, 642382, 642382]
    votes = np.array(
        [
            [0, 0, 3, 0, 0, 0],
            [0, 0, 1, 0, 0, 2],
            [1, 0, 0, 0, 0, 13],
            [0, 0, 0, 0, 0, 1],
            [0, 3, 0, 0, 0, 0],
            [0, 1, 0, 1, 0, 0],
        ]
    )
    answers = pd.DataFrame(  # MLE-bench's private test.csv: the 15 columns of train.csv
        {
            "eeg_id": eeg,
            "eeg_sub_id": [0, 1, 0, 0, 1, 2],
            "eeg_label_offset_seconds": [0.0, 6.0, 0.0, 0.0, 8.0, 12.0],
            "spectrogram_id": [789577333, 789577333, 1552638400, 14960202, 14960202, 14960202],
            "spectrogram_sub_id": [0, 1, 0, 0, 1, 2],
            "spectrogram_label_offset_seconds": [0.0, 6.0, 0.0, 1008.0, 1016.0, 1020.0],
            "label_id": [1628180742, 142182171, 3811445599, 2875932463, 3066287262, 1447271428],
            "patient_id": [42516, 42516, 30539, 56885, 56885, 56885],
            "expert_consensus": ["GPD", "Other", "Other", "Other", "LPD", "LPD"],
            **{name: votes[:, k] for k, name in enumerate(HMS_VOTES)},
        }
    )
    shares = votes / votes.sum(axis=1, keepdims=True)
    perfect = pd.DataFrame({"eeg_id": eeg, **dict(zip(HMS_VOTES, shares.T, strict=True))})
    sample = perfect.assign(**dict.fromkeys(HMS_VOTES, 1 / 6))
    # half the vote shares, half uniform; the two rows of eeg 568657 exchanged
    guess = (0.5 * shares + 0.5 / 6)[[1, 0, 2, 3, 4, 5]]
    imperfect = pd.DataFrame({"eeg_id": eeg, **dict(zip(HMS_VOTES, guess.T, strict=True))})
    expected = float(np.mean(rel_entr(shares, np.clip(guess, 1e-15, 1 - 1e-15)).sum(axis=1)))
    malformed = sample.copy()
    malformed.loc[2, "other_vote"] = 0.5
    return RawCase(
        answers,
        sample,
        perfect,
        imperfect,
        expected,
        malformed.to_csv(index=False),
        "must add up to 1",
        0.0,
    )


JIGSAW_IDENTITIES = [
    "male",
    "female",
    "homosexual_gay_or_lesbian",
    "christian",
    "jewish",
    "muslim",
    "black",
    "white",
    "psychiatric_or_mental_illness",
]


def jigsaw_like_mlebench(answers: pd.DataFrame, predictions: np.ndarray) -> float:
    """MLE-bench's formula with scikit-learn: everything cut at 0.5, then ROC AUCs."""
    truth = (answers["toxicity"].to_numpy() >= 0.5).astype(int)
    guess = (np.asarray(predictions) >= 0.5).astype(int)
    kinds: list[list[float]] = [[], [], []]
    for name in JIGSAW_IDENTITIES:
        member = (answers[name] >= 0.5).to_numpy()  # NaN (not annotated) is not a mention
        subsets = (
            member,
            ((truth == 0) & member) | ((truth == 1) & ~member),
            ((truth == 1) & member) | ((truth == 0) & ~member),
        )
        for kind, subset in zip(kinds, subsets, strict=True):
            kind.append(roc_auc_score(truth[subset], guess[subset]))
    means = [(sum(v**-5 for v in values) / len(values)) ** (1 / -5) for values in kinds]
    return 0.25 * roc_auc_score(truth, guess) + 0.25 * sum(means)


def raw_case_jigsaw() -> RawCase:
    rows: list[dict[str, object]] = []
    for name in JIGSAW_IDENTITIES:  # a toxic and a harmless comment mentioning each identity
        for toxicity, share in ((0.8, 1.0), (0.2, 0.6)):
            shares = dict.fromkeys(JIGSAW_IDENTITIES, 0.0) | {name: share}
            rows.append({"toxicity": toxicity, **shares})
    rows.append({"toxicity": 0.9})  # identities not annotated: blank
    rows.append({"toxicity": 0.0})
    rows.append({"toxicity": 0.7, **dict.fromkeys(JIGSAW_IDENTITIES, 0.0), "male": 0.3})
    body = pd.DataFrame(rows)
    ids = list(range(7097320, 7097320 + len(body)))
    answers = pd.DataFrame(  # a subset of test_private_expanded.csv's 45 columns, same layout
        {
            "id": ids,
            "comment_text": [f'comment {i}, with "quotes"\nand a new line' for i in ids],
            "created_date": "2017-05-11 00:14:15.417484+00",
            "toxicity": body["toxicity"],
            "severe_toxicity": 0.0,
            "obscene": 0.0,
            "asian": np.where(body["male"].isna(), np.nan, 0.0),
            **{name: body[name] for name in JIGSAW_IDENTITIES},
            "identity_annotator_count": np.where(body["male"].isna(), 0, 4),
            "toxicity_annotator_count": 10,
        }
    )
    sample = pd.DataFrame({"id": ids, "prediction": 0.0})
    perfect = pd.DataFrame({"id": ids, "prediction": body["toxicity"]})
    guess = body["toxicity"].to_numpy().copy()
    guess[JIGSAW_IDENTITIES.index("muslim") * 2] = 0.1  # a toxic comment on muslims missed
    guess[-2] = 0.7  # a harmless comment flagged
    imperfect = pd.DataFrame({"id": ids, "prediction": guess})
    expected = jigsaw_like_mlebench(answers, guess)
    malformed = "id,prediction\n" + "".join(f"{i},{'abc' if i == ids[3] else 0.5}\n" for i in ids)
    return RawCase(
        answers, sample, perfect, imperfect, expected, malformed, "prediction must be a number", 1.0
    )


RAW_CASES: dict[str, Callable[[], RawCase]] = {
    "h-and-m-personalized-fashion-recommendations": raw_case_hm,
    "hms-harmful-brain-activity-classification": raw_case_hms,
    "jigsaw-unintended-bias-in-toxicity-classification": raw_case_jigsaw,
}


# ----------------------------------------------------------------- tests


def test_every_competition_has_a_case() -> None:
    assert sorted(CASES) == sorted(GRADED)
    assert sorted(RAW_CASES) == sorted(RAW)


@pytest.mark.parametrize("competition", ALL)
def test_task_loads(competition: str) -> None:
    task = get_task(competition)
    assert task.id == competition
    assert task.split in ("medium", "high")
    assert not task.kaggle_supported
    assert task.data["kaggle"]["competition"] == competition
    assert task.data["kaggle"]["zip_md5"]
    assert task.data["kaggle"]["prepared_md5"]
    text = task.description()
    assert "submission.csv" in text and "## Metric" in text
    assert task.grader_problem() is None
    if competition in RAW:
        assert task.grader == "raw"
        assert callable(getattr(task.module("grade"), "validate", None))
    else:
        assert (task.folder / "grade.py").is_file() == (task.grader == "module")


def _grade(task, tmp_path: Path, answers: Path, name: str, frame_or_text: pd.DataFrame | str):
    path = tmp_path / name
    if isinstance(frame_or_text, str):
        path.write_text(frame_or_text, encoding="utf-8")
    else:
        frame_or_text.to_csv(path, index=False)
    return grade_submission(task, path, answers=answers, data_source="kaggle")


@pytest.mark.parametrize("competition", GRADED)
def test_grading_end_to_end(competition: str, tmp_path: Path) -> None:
    task = get_task(competition)
    case = CASES[competition]()
    answers = tmp_path / task.answers_file
    case.answers.to_csv(answers, index=False)
    # rows in another order than the answers: grading aligns them by id
    perfect = _grade(task, tmp_path, answers, "perfect.csv", case.perfect.iloc[::-1])
    assert perfect.valid, perfect.message
    assert perfect.score == pytest.approx(case.best, abs=1e-5)

    imperfect = _grade(task, tmp_path, answers, "imperfect.csv", case.imperfect)
    assert imperfect.valid, imperfect.message
    assert imperfect.score == pytest.approx(case.expected, abs=1e-5)
    worse = (
        imperfect.score > perfect.score if task.lower_is_better else imperfect.score < perfect.score
    )
    assert worse

    malformed = _grade(task, tmp_path, answers, "malformed.csv", case.malformed)
    assert not malformed.valid
    assert malformed.score is None and malformed.message


@pytest.mark.parametrize("competition", ALL)
def test_make_says_preparation_is_not_supported(
    competition: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MLE_GYM_HOME", str(tmp_path / "home"))
    task = get_task(competition)
    with pytest.raises(DataNotPrepared, match="not yet supported"):
        gymnasium.make(task.env_id)


# ----------------------------------------------------------------- raw graders


def _raw_files(competition: str, tmp_path: Path) -> tuple[object, RawCase, Path]:
    task = get_task(competition)
    case = RAW_CASES[competition]()
    answers = tmp_path / task.answers_file
    case.answers.to_csv(answers, index=False)
    return task, case, answers


@pytest.mark.parametrize("competition", RAW)
def test_raw_grading_end_to_end(competition: str, tmp_path: Path) -> None:
    task, case, answers = _raw_files(competition, tmp_path)
    perfect = _grade(task, tmp_path, answers, "perfect.csv", case.perfect)
    assert perfect.valid, perfect.message
    assert perfect.score == pytest.approx(case.best, abs=1e-5)

    imperfect = _grade(task, tmp_path, answers, "imperfect.csv", case.imperfect)
    assert imperfect.valid, imperfect.message
    assert imperfect.score == pytest.approx(case.expected, abs=1e-5)
    worse = (
        imperfect.score > perfect.score if task.lower_is_better else imperfect.score < perfect.score
    )
    assert worse

    malformed = _grade(task, tmp_path, answers, "malformed.csv", case.malformed)
    assert not malformed.valid and malformed.score is None
    assert case.complaint in malformed.message


@pytest.mark.parametrize("competition", RAW)
def test_raw_validate_checks_the_format_against_the_sample(
    competition: str, tmp_path: Path
) -> None:
    task = get_task(competition)
    case = RAW_CASES[competition]()
    sample = tmp_path / "sample_submission.csv"
    case.sample.to_csv(sample, index=False)
    checker = FormatChecker(task, sample)
    assert checker.check(sample, "sample_submission.csv").startswith("valid")
    for name, frame in (("perfect", case.perfect), ("imperfect", case.imperfect)):
        frame.to_csv(tmp_path / f"{name}.csv", index=False)
        assert checker.check(tmp_path / f"{name}.csv", f"{name}.csv").startswith("valid")
    renamed = case.sample.rename(columns={case.sample.columns[-1]: "target"})
    renamed.to_csv(tmp_path / "renamed.csv", index=False)
    with pytest.raises(InvalidSubmission, match="header must hold exactly") as err:
        checker.check(tmp_path / "renamed.csv", "renamed.csv")
    assert "missing" in str(err.value) and "unexpected target" in str(err.value)
    extra = case.sample.assign(Unnamed=0)
    extra.to_csv(tmp_path / "extra.csv", index=False)
    with pytest.raises(InvalidSubmission, match="unexpected Unnamed"):
        checker.check(tmp_path / "extra.csv", "extra.csv")


@pytest.mark.parametrize(
    "competition",
    [
        "h-and-m-personalized-fashion-recommendations",
        "jigsaw-unintended-bias-in-toxicity-classification",
    ],
)
def test_raw_sample_submission_scores_as_on_the_leaderboard(
    competition: str, tmp_path: Path
) -> None:
    """H&M's sample never matches (leading zeros); Jigsaw's all-zero sample is a coin toss."""
    task, case, answers = _raw_files(competition, tmp_path)
    report = _grade(task, tmp_path, answers, "sample.csv", case.sample)
    assert report.valid, report.message
    assert task.leaderboard is not None
    assert report.score == pytest.approx(task.leaderboard.sample_submission_score, abs=1e-5)


def test_hm_scores_only_the_buyers_and_needs_each_customer_once(tmp_path: Path) -> None:
    task, case, answers = _raw_files("h-and-m-personalized-fashion-recommendations", tmp_path)
    buyers = case.answers["customer_id"].tolist()
    # only the buyers, in another order, plus a customer unknown to the sample: all fine
    only = case.perfect[case.perfect["customer_id"].isin(buyers)].iloc[::-1]
    only = pd.concat([only, pd.DataFrame({"customer_id": ["ffff"], "prediction": ["1"]})])
    report = _grade(task, tmp_path, answers, "buyers.csv", only)
    assert report.valid and report.score == pytest.approx(1.0)
    # ranks past 12 do not count: the right article at rank 13 scores 0 for that customer
    late = case.perfect.copy()
    late.loc[2, "prediction"] = " ".join(["999999999"] * 12 + ["372860001"])
    report = _grade(task, tmp_path, answers, "late.csv", late)
    assert report.score == pytest.approx(2 / 3, abs=1e-5)
    # a customer listed twice is refused, even an unscored one
    twice = pd.concat([case.perfect, case.perfect.iloc[[1]]])
    report = _grade(task, tmp_path, answers, "twice.csv", twice)
    assert not report.valid and "must appear once" in report.message
    # the format check wants every customer of the sample (it cannot know who is scored)
    sample = tmp_path / "sample_submission.csv"
    case.sample.to_csv(sample, index=False)
    (tmp_path / "few.csv").write_text(only.to_csv(index=False), encoding="utf-8")
    with pytest.raises(InvalidSubmission, match="missing from the submission"):
        FormatChecker(task, sample).check(tmp_path / "few.csv", "few.csv")


def test_hms_pairs_repeated_eeg_ids_in_file_order(tmp_path: Path) -> None:
    task, case, answers = _raw_files("hms-harmful-brain-activity-classification", tmp_path)
    # whole eeg_id blocks moved around, rows of one eeg_id in order: still perfect
    moved = case.perfect.iloc[[3, 4, 2, 0, 5, 1]]
    report = _grade(task, tmp_path, answers, "moved.csv", moved)
    assert report.valid and report.score == pytest.approx(0.0, abs=1e-9)
    # the answers' vote counts are turned into shares: a one-hot guess of row 1 costs log(3)
    guess = case.perfect.copy()
    guess.loc[0, HMS_VOTES] = [0, 0, 1, 0, 0, 0]
    guess.loc[1, HMS_VOTES] = [0, 0, 0, 0, 0, 1]
    report = _grade(task, tmp_path, answers, "onehot.csv", guess)
    shares = np.array([1 / 3, 2 / 3])
    cost = float(rel_entr(shares, [1e-15, 1 - 1e-15]).sum()) / 6
    assert report.valid and report.score == pytest.approx(cost, abs=1e-5)
    # as many rows as the sample, but 642382 once too often and 568657 once too rarely
    counts = case.perfect.copy()
    counts.loc[1, "eeg_id"] = 642382
    report = _grade(task, tmp_path, answers, "counts.csv", counts)
    assert not report.valid and "instead of" in report.message
    short = _grade(task, tmp_path, answers, "short.csv", case.perfect.iloc[:5])
    assert not short.valid and "5 rows but 6" in short.message
    negative = case.sample.copy()
    negative.loc[0, ["seizure_vote", "lpd_vote"]] = [-0.1, 0.1 + 1 / 6]
    report = _grade(task, tmp_path, answers, "negative.csv", negative)
    assert not report.valid and "[0, 1]" in report.message


def test_jigsaw_matches_ids_and_ignores_the_side_of_the_threshold(tmp_path: Path) -> None:
    task, case, answers = _raw_files("jigsaw-unintended-bias-in-toxicity-classification", tmp_path)
    # any score on the right side of 0.5 is perfect; rows in any order
    sided = case.perfect.assign(prediction=np.where(case.perfect["prediction"] >= 0.5, 0.5, 0.49))
    report = _grade(task, tmp_path, answers, "sided.csv", sided.iloc[::-1])
    assert report.valid and report.score == pytest.approx(1.0)
    blank = case.perfect.astype(str)
    blank.loc[4, "prediction"] = ""
    report = _grade(task, tmp_path, answers, "blank.csv", blank)
    assert not report.valid and "data row 5" in report.message
    report = _grade(task, tmp_path, answers, "dup.csv", case.perfect.iloc[[*range(20), 0]])
    assert not report.valid and "repeated" in report.message
    report = _grade(task, tmp_path, answers, "short.csv", case.perfect.iloc[1:])
    assert not report.valid and "1 id(s) of sample_submission.csv are missing" in report.message
