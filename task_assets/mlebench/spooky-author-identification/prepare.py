"""Data preparation for spooky-author-identification.

``prepare(raw_dir, public_dir, private_dir)`` reproduces MLE-bench's split.
Kaggle's zip holds nested zips; only ``train.zip`` (``train.csv``: id, text,
author; 19,579 sentences) is used. It is split 90/10 with scikit-learn's
``train_test_split(test_size=0.1, random_state=0)`` semantics: 17,621 train and
1,958 test sentences.

Written files:

* ``public/train.csv`` — id, text, author;
* ``public/test.csv`` — id, text;
* ``public/sample_submission.csv`` — id, EAP, HPL, MWS with the constant
  probabilities of Kaggle's own sample submission;
* ``private/test.csv`` — id, EAP, HPL, MWS: the true author one-hot (0/1).

``replica(public_dir, private_dir, seed)`` generates sentences by three
invented "authors" with the real schema and runs them through the same code.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from mle_gym.authoring import extract_zip, read_csv_exact, train_test_split_like_sklearn

ID = "id"
TEXT = "text"
TARGET = "author"
CLASSES = ["EAP", "HPL", "MWS"]
SAMPLE_PROBABILITIES = {
    "EAP": 0.403493538995863,
    "HPL": 0.287808366106543,
    "MWS": 0.308698094897594,
}


def split_and_write(old_train: pd.DataFrame, public_dir: Path, private_dir: Path) -> None:
    """MLE-bench's split of the labelled sentences, and the files it writes."""
    new_train, new_test = train_test_split_like_sklearn(old_train, test_size=0.1, random_state=0)
    answers = pd.DataFrame({ID: new_test[ID].to_numpy()})
    for author in CLASSES:
        answers[author] = (new_test[TARGET] == author).to_numpy().astype(np.int64)
    sample = answers.copy()
    for author, probability in SAMPLE_PROBABILITIES.items():
        sample[author] = probability

    new_train.to_csv(public_dir / "train.csv", index=False)
    new_test.drop(columns=[TARGET]).to_csv(public_dir / "test.csv", index=False)
    sample.to_csv(public_dir / "sample_submission.csv", index=False)
    answers.to_csv(private_dir / "test.csv", index=False)


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Prepare Kaggle's files (extracted competition zip in ``raw_dir``)."""
    if (raw_dir / "train.zip").is_file():
        extract_zip(raw_dir / "train.zip", raw_dir)
    split_and_write(read_csv_exact(raw_dir / "train.csv"), public_dir, private_dir)


# ---------------------------------------------------------------------------
# Offline replica
# ---------------------------------------------------------------------------
#
# Three invented writers stand in for the three authors. Each sentence is built
# from one of a handful of clause templates whose slots (nouns, adjectives,
# verbs, adverbs, subjects, openers) are filled either from the writer's own
# word lists or from a pool shared by all (which now and then borrows a word
# from another writer). The writers also differ in sentence length, preferred
# templates and punctuation: "EAP" reasons and qualifies (semicolons, "indeed"),
# "HPL" piles up long clauses of dread, "MWS" speaks of feelings in the first
# person with exclamations. Word choice alone never settles the author.

N_ROWS = 19579
AUTHOR_SHARES = np.array([7900, 5635, 6044]) / 19579
OWN_WORD = 0.15  # chance that a slot takes the writer's own vocabulary
BORROW = 0.35  # chance that a shared-pool slot borrows another writer's word
OPENER = 0.12  # chance of a writer's typical opening words

_OWN: dict[str, dict[str, list[str]]] = {
    "EAP": {
        "N": [
            "inquiry",
            "deduction",
            "riddle",
            "cipher",
            "casket",
            "cellar",
            "lantern",
            "tapestry",
            "gentleman",
            "prefect",
            "manuscript",
            "puzzle",
            "tomb",
            "mask",
            "clock",
            "portrait",
            "letter",
            "treasure",
            "intellect",
            "analysis",
            "conjecture",
            "apartment",
            "draught",
            "sentiment",
            "particular",
        ],
        "A": [
            "peculiar",
            "singular",
            "acute",
            "precise",
            "minute",
            "remarkable",
            "lurid",
            "ghastly",
            "feeble",
            "elaborate",
            "curious",
            "ingenious",
            "prodigious",
            "sepulchral",
            "evident",
            "unusual",
        ],
        "V": [
            "perceived",
            "observed",
            "deduced",
            "examined",
            "discovered",
            "reasoned",
            "remarked",
            "ascertained",
            "concluded",
            "surmised",
            "detected",
            "inferred",
        ],
        "D": ["precisely", "minutely", "evidently", "assuredly", "scarcely", "thoroughly"],
        "S": ["I", "he", "we", "my friend", "the stranger", "Dupont"],
        "O": ["Indeed,", "Now,", "In truth,", "I say,", "It is clear that", "Upon reflection,"],
    },
    "HPL": {
        "N": [
            "abyss",
            "monolith",
            "ritual",
            "cult",
            "idol",
            "ruin",
            "cavern",
            "city",
            "carvings",
            "marsh",
            "hills",
            "gulf",
            "antiquity",
            "geometry",
            "blasphemy",
            "madness",
            "whispers",
            "temple",
            "symbols",
            "aeons",
            "vaults",
            "spires",
            "outline",
            "thing",
        ],
        "A": [
            "nameless",
            "ancient",
            "hideous",
            "monstrous",
            "unhallowed",
            "primal",
            "daemoniac",
            "furtive",
            "decadent",
            "noxious",
            "colossal",
            "abnormal",
            "alien",
            "titanic",
            "unseen",
            "accursed",
        ],
        "V": [
            "glimpsed",
            "whispered",
            "crawled",
            "loomed",
            "festered",
            "brooded",
            "hinted",
            "shuddered",
            "lurked",
            "gibbered",
            "throbbed",
            "leered",
        ],
        "D": ["hideously", "faintly", "utterly", "vaguely", "furtively", "unaccountably"],
        "S": ["I", "they", "the old man", "we", "the natives", "Gilman"],
        "O": ["Of the rest", "What I saw", "Beyond the hills", "It was then that", "Somehow"],
    },
    "MWS": {
        "N": [
            "heart",
            "tears",
            "affection",
            "misery",
            "friend",
            "sorrow",
            "hope",
            "despair",
            "nature",
            "mountains",
            "lake",
            "sunshine",
            "countenance",
            "benevolence",
            "happiness",
            "companion",
            "child",
            "father",
            "sister",
            "wretchedness",
            "solitude",
            "feelings",
            "cottage",
        ],
        "A": [
            "beloved",
            "wretched",
            "gentle",
            "tender",
            "melancholy",
            "dear",
            "lovely",
            "miserable",
            "amiable",
            "desolate",
            "cheerful",
            "unhappy",
            "noble",
            "serene",
            "beautiful",
            "bitter",
        ],
        "V": [
            "wept",
            "loved",
            "endured",
            "consoled",
            "suffered",
            "rejoiced",
            "mourned",
            "cherished",
            "wandered",
            "longed",
            "embraced",
            "pitied",
        ],
        "D": ["tenderly", "bitterly", "eagerly", "deeply", "gently", "fondly"],
        "S": ["I", "she", "he", "my friend", "Raymond", "my poor sister"],
        "O": ["Alas!", "Oh,", "Yet", "My dear friend,", "How shall I describe how"],
    },
}
_SHARED: dict[str, list[str]] = {
    "N": [
        "night",
        "door",
        "house",
        "moment",
        "man",
        "hand",
        "eyes",
        "voice",
        "time",
        "world",
        "room",
        "light",
        "window",
        "street",
        "face",
        "years",
        "place",
        "day",
        "shadow",
        "water",
        "wind",
        "wall",
        "death",
        "life",
        "mind",
        "earth",
    ],
    "A": [
        "dark",
        "strange",
        "old",
        "great",
        "little",
        "silent",
        "cold",
        "long",
        "deep",
        "pale",
        "certain",
        "whole",
    ],
    "V": [
        "saw",
        "felt",
        "found",
        "heard",
        "thought",
        "knew",
        "turned",
        "returned",
        "left",
        "remained",
    ],
    "D": ["slowly", "again", "suddenly", "once", "still", "quite"],
    "S": ["I", "he", "she", "we", "they", "it"],
    "P": ["in", "upon", "beneath", "beyond", "within", "across", "toward", "from"],
}
# Clause templates: {S} subject, {V} verb, {A} adjective, {N} noun, {D} adverb, {P} preposition.
_TEMPLATES = [
    "{S} {V} the {A} {N}",
    "{S} {V} the {A} {N} {P} the {N}",
    "the {N} of the {A} {N} {V} {P} the {N}",
    "there was a {A} {N} {P} the {N}",
    "{S} had never {V} so {A} a {N}",
    "{P} the {N} {S} {V} a {N} more {A} than the {N} itself",
    "{S} {V} the {N}, {A} and {A}, {P} the {A} {N}",
    "{S} {D} {V} that the {N} was {A}",
    "the {A} {N} {V} {D}",
]
_STYLE = {
    # template weights, mean extra clauses, joiners, endings
    "EAP": ([3, 2, 2, 3, 1, 1, 1, 3, 1], 0.9, ["; ", "; and ", ", and ", ", but "], [".", "."]),
    "HPL": ([1, 3, 3, 2, 1, 3, 2, 1, 2], 1.5, [", and ", ", which ", " and ", ", where "], ["."]),
    "MWS": ([3, 1, 1, 1, 3, 1, 1, 2, 2], 0.6, [", and ", "; ", ", yet "], [".", ".", "!"]),
}


def _slot(kind: str, author: str, rng: np.random.Generator) -> str:
    """A word for slot ``kind`` in ``author``'s sentence."""
    if kind != "P" and rng.random() < OWN_WORD:
        words = _OWN[author][kind]
    elif kind != "P" and rng.random() < BORROW:
        other = CLASSES[int(rng.integers(len(CLASSES)))]
        words = _OWN[other][kind]
    else:
        words = _SHARED[kind]
    return words[int(rng.integers(len(words)))]


def _clause(author: str, rng: np.random.Generator) -> str:
    weights = np.array(_STYLE[author][0], dtype=float)
    template = _TEMPLATES[int(rng.choice(len(_TEMPLATES), p=weights / weights.sum()))]
    out = []
    for piece in template.split("{"):
        if "}" in piece:
            kind, rest = piece.split("}", 1)
            out.append(_slot(kind, author, rng) + rest)
        else:
            out.append(piece)
    return "".join(out)


def _sentence(author: str, rng: np.random.Generator) -> str:
    _, extra_mean, joiners, endings = _STYLE[author]
    text = _clause(author, rng)
    for _ in range(int(rng.poisson(extra_mean))):
        text += joiners[int(rng.integers(len(joiners)))] + _clause(author, rng)
    if rng.random() < OPENER:
        openers = _OWN[author]["O"]
        text = openers[int(rng.integers(len(openers)))] + " " + text
    text = text[0].upper() + text[1:]
    return text + endings[int(rng.integers(len(endings)))]


def _replica_table(seed: int) -> pd.DataFrame:
    """Kaggle's ``train.csv`` (id, text, author) as a synthetic table of ``N_ROWS`` rows."""
    rng = np.random.default_rng(seed)
    numbers = rng.choice(28000, size=N_ROWS, replace=False)
    authors = rng.choice(len(CLASSES), size=N_ROWS, p=AUTHOR_SHARES)
    texts: list[str] = []
    seen: set[str] = set()
    for a in authors:
        text = _sentence(CLASSES[a], rng)
        while text in seen:
            text = _sentence(CLASSES[a], rng)
        seen.add(text)
        texts.append(text)
    return pd.DataFrame(
        {
            ID: [f"id{k:05d}" for k in numbers],
            TEXT: pd.Series(texts, dtype=object),
            TARGET: pd.Series(np.array(CLASSES, dtype=object)[authors], dtype=object),
        }
    )


def replica(public_dir: Path, private_dir: Path, seed: int) -> None:
    """Generate synthetic sentences and prepare them exactly like Kaggle's ``train.csv``.

    The table has 19,579 rows with Kaggle's columns (``id`` like ``id04821``,
    ``text``, ``author`` in EAP/HPL/MWS at the real shares) and goes through
    :func:`prepare` from a temporary raw folder, so the files and their sizes
    match MLE-bench's preparation. Same ``seed``, same bytes.
    """
    with tempfile.TemporaryDirectory(prefix="mle_gym-spooky-") as tmp:
        raw = Path(tmp)
        _replica_table(seed).to_csv(raw / "train.csv", index=False)
        prepare(raw, public_dir, private_dir)
