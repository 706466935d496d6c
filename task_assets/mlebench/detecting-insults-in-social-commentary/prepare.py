"""Data preparation for detecting-insults-in-social-commentary.

``prepare(raw_dir, public_dir, private_dir)`` follows MLE-bench: no split is
made. Kaggle's zip already holds the labelled test set of the competition
(``test_with_solutions.csv``: Insult, Date, Comment, Usage; 2,647 rows), which
becomes the private answers byte for byte, and Kaggle's ``train.csv`` (3,947
rows) is published unchanged. From the answers MLE-bench derives

* ``private/gold_submission.csv`` — Insult, Date, Comment;
* ``public/test.csv`` — Date, Comment (the answers without labels);
* ``public/sample_submission_null.csv`` — Insult, Date, Comment with Insult 0.

The later "verification" files of the competition are ignored. There is no id
column: submissions are matched to the answers on the ``Comment`` text.

``replica(public_dir, private_dir, seed)`` writes synthetic comments with the
same files and formats through the same code.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from mle_gym.authoring import read_csv_exact

log = logging.getLogger(__name__)

LABEL = "Insult"
DATE = "Date"
COMMENT = "Comment"
USAGE = "Usage"


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Prepare Kaggle's files (extracted competition zip in ``raw_dir``)."""
    shutil.copyfile(raw_dir / "train.csv", public_dir / "train.csv")
    shutil.copyfile(raw_dir / "test_with_solutions.csv", private_dir / "test.csv")

    answers = read_csv_exact(private_dir / "test.csv")
    gold = answers[[LABEL, DATE, COMMENT]]
    gold.to_csv(private_dir / "gold_submission.csv", index=False)
    gold.drop(columns=[LABEL]).to_csv(public_dir / "test.csv", index=False)
    sample = gold.copy()
    sample[LABEL] = 0
    sample.to_csv(public_dir / "sample_submission_null.csv", index=False)

    if not answers[COMMENT].is_unique:
        log.warning(
            "%d test comments occur more than once; Comment is the submission key, so those "
            "rows cannot be told apart when grading",
            int(answers[COMMENT].duplicated(keep=False).sum()),
        )


# ---------------------------------------------------------------------------
# Offline replica
# ---------------------------------------------------------------------------
#
# Comments are assembled from invented sentence templates. Every comment has a
# hidden "kind" that fixes its label: insults aimed at the person being
# answered (with or without name-calling), and neutral remarks, including the
# hard cases of the real data: rude words aimed at people outside the
# conversation, swearing that insults nobody, polite disagreement in the second
# person and friendly teasing. Around the core sentence come neutral filler
# sentences, casing and spelling noise, @-mentions and the escaped characters
# (``\xa0``, ``\n``) of Kaggle's files; a few labels are flipped.

N_TRAIN = 3947
N_TEST = 2647
PUBLIC_TEST_SHARE = 0.3
LABEL_NOISE = 0.09
DATE_MISSING = 0.2

# (kind, label, weight)
_KINDS = [
    ("direct", 1, 0.13),
    ("subtle", 1, 0.09),
    ("plain", 0, 0.43),
    ("reply", 0, 0.16),
    ("third_party", 0, 0.09),
    ("swearing", 0, 0.065),
    ("banter", 0, 0.035),
]

_WORDS: dict[str, list[str]] = {
    "insult_noun": [
        "idiot",
        "moron",
        "clown",
        "loser",
        "fool",
        "troll",
        "hypocrite",
        "coward",
        "dimwit",
        "halfwit",
        "imbecile",
        "jackass",
        "buffoon",
        "simpleton",
        "nitwit",
        "bozo",
        "creep",
        "liar",
        "parasite",
        "numbskull",
        "airhead",
        "bonehead",
        "crybaby",
        "windbag",
        "dunce",
        "dope",
        "twit",
        "muppet",
        "knucklehead",
        "blockhead",
    ],
    "insult_adj": [
        "stupid",
        "pathetic",
        "brainless",
        "clueless",
        "ignorant",
        "dumb",
        "worthless",
        "miserable",
        "delusional",
        "spineless",
        "gutless",
        "sad",
        "dense",
        "lame",
        "useless",
        "smug",
        "whiny",
        "gullible",
        "petty",
        "shameless",
        "hopeless",
        "mindless",
    ],
    "swear": ["damn", "freaking", "bloody", "crappy", "effing", "darn"],
    "name": [
        "Mike",
        "Sarah",
        "jdog88",
        "Kris",
        "Tom",
        "Linda",
        "bigred",
        "Alan",
        "Pat",
        "Gordon",
        "Ray",
        "Dee",
        "truthseeker",
        "Vic",
        "Marco",
        "Jen",
        "Sam",
        "Terry",
        "Nina",
        "Bob",
    ],
    "public_figure": [
        "the senator",
        "the governor",
        "the mayor",
        "the coach",
        "the president",
        "the congressman",
        "the CEO",
        "the referee",
        "the commissioner",
        "the candidate",
    ],
    "group": [
        "the owners",
        "the refs",
        "the pundits",
        "the networks",
        "the regulators",
        "the unions",
        "the lawyers",
        "politicians",
        "bankers",
        "lobbyists",
    ],
    "topic": [
        "the budget",
        "the new stadium",
        "gas prices",
        "the election",
        "health care",
        "the trade deadline",
        "the school board",
        "tax reform",
        "the playoffs",
        "immigration",
        "the housing market",
        "the draft",
        "unemployment",
        "the city council",
        "energy policy",
        "the debate",
    ],
    "team": [
        "Lakers",
        "Heat",
        "Celtics",
        "Yankees",
        "Giants",
        "Packers",
        "Bulls",
        "Rangers",
        "Kings",
        "Sox",
    ],
    "good_adj": [
        "great",
        "solid",
        "impressive",
        "decent",
        "smart",
        "reasonable",
        "fair",
        "strong",
        "sharp",
        "interesting",
    ],
    "thing": [
        "article",
        "link",
        "update",
        "story",
        "video",
        "info",
        "report",
        "analysis",
        "interview",
        "summary",
    ],
    "time": ["tonight", "last week", "this season", "yesterday", "in the second half", "this year"],
}
_TEMPLATES: dict[str, list[str]] = {
    "direct": [
        "you are a {insult_adj} {insult_noun}",
        "you're such a {insult_noun}",
        "shut up you {insult_adj} {insult_noun}",
        "nobody cares what a {insult_noun} like you thinks",
        "{name}, you are the biggest {insult_noun} on this site",
        "get a life, you {insult_noun}",
        "learn to read, you {insult_adj} {insult_noun}",
        "you must be the most {insult_adj} person alive",
        "what a {insult_adj} {insult_noun} you are",
        "go away {insult_noun}",
        "you {insult_adj} {insult_noun}, read the {thing} before you post",
        "only a {insult_noun} like you would say that about {topic}",
        "your comment proves you are a {insult_noun}",
        "typical {insult_noun}, you never have a point",
        "hey {insult_noun}, nobody asked you",
        "you really are {insult_adj}, aren't you",
    ],
    "subtle": [
        "you clearly never learned how to think",
        "your comments are a waste of everyone's time",
        "did your mommy write that for you",
        "you have the brain of a goldfish",
        "go back under your bridge",
        "i would explain it to you but you would not understand anyway",
        "you should stick to coloring books",
        "were you dropped on your head as a kid",
        "you embarrass yourself every time you type",
        "your parents must be so proud of you, not",
        "{name}, do everyone a favor and stop posting",
        "you couldn't find {topic} on a map",
        "keep talking, it shows how little you know",
        "you are the reason this forum needs an ignore button",
    ],
    "plain": [
        "the {team} looked {good_adj} {time}",
        "i think {topic} will be the big issue this fall",
        "thanks for the {thing}, very {good_adj}",
        "has anyone seen the latest numbers on {topic}",
        "the {thing} about {topic} was {good_adj}",
        "{topic} is going to cost us all more in the long run",
        "i watched the {team} game {time} and it was close",
        "not sure what to think about {topic} yet",
        "this {thing} misses the real story on {topic}",
        "my town voted on {topic} {time}",
        "the {team} need a better bench",
        "good to see people talking about {topic}",
        "can someone post a link to the full {thing}",
        "i remember when {topic} was not even a question",
        "the {team} will win it all if they stay healthy",
    ],
    "reply": [
        "you make a {good_adj} point about {topic}",
        "{name}, you are right about {topic}",
        "you should read the {thing} before deciding",
        "i see what you mean, but {topic} is more complicated",
        "you might be surprised how {good_adj} the {team} are",
        "thank you {name}, that {thing} helped",
        "you and i disagree on {topic} but fair enough",
        "are you going to the {team} game {time}",
        "you have a {good_adj} take on this",
        "i hope you are right about {topic}",
        "did you see the {thing} on {topic}",
    ],
    "third_party": [
        "{public_figure} is a {insult_adj} {insult_noun}",
        "{group} are a bunch of {insult_noun}s",
        "only a {insult_noun} would vote for {public_figure}",
        "{public_figure} handled {topic} like a {insult_noun}",
        "{group} are {insult_adj} and everybody knows it",
        "what a {insult_adj} call by {public_figure} {time}",
        "{public_figure} looks like a {insult_noun} on tv",
    ],
    "banter": [
        "you {insult_noun}, see you at the {team} game {time}",
        "haha you are such a {insult_noun}, love it",
        "you big {insult_noun}, that {thing} made my day",
        "{name} you {insult_adj} goof, i owe you a beer",
        "ok you {insult_noun}, you win this one",
    ],
    "swearing": [
        "this {swear} weather is killing me",
        "what a {swear} game {time}",
        "the {team} played like {swear} garbage",
        "{topic} is a {swear} mess",
        "holy crap, {topic} again",
        "damn, the {team} actually won",
        "my {swear} internet keeps dropping",
        "that {thing} was {swear} hilarious",
    ],
}

_FILLERS = [
    "just saying",
    "lol",
    "whatever",
    "seriously",
    "think about it",
    "look it up",
    "end of story",
    "wow",
    "same as always",
    "try again",
    "what a joke",
    "sigh",
    "go figure",
    "case closed",
    "nice try",
    "read the {thing}",
    "we will see {time}",
    "{topic} matters more",
    "the {team} fans know",
    "not the first time",
    "i have seen it all before",
    "unbelievable",
]

_ESCAPES = ["\\xa0", "\\xa0 ", "\\n", "\\n\\n", "\\\\n", "\\\\n\\\\n"]
_DATE_START = np.datetime64("2012-03-18T00:00:00")
_DATE_SPAN_S = 95 * 24 * 3600


def _fill(template: str, rng: np.random.Generator) -> str:
    """Replace each ``{slot}`` of ``template`` by a random word of that slot."""
    out = template
    while "{" in out:
        start = out.index("{")
        end = out.index("}", start)
        words = _WORDS[out[start + 1 : end]]
        out = out[:start] + words[int(rng.integers(len(words)))] + out[end + 1 :]
    return out


def _sentence(text: str, rng: np.random.Generator) -> str:
    """Capitalise (usually) and end a sentence with some punctuation."""
    if rng.random() < 0.75:
        text = text[0].upper() + text[1:]
    ending = rng.choice([".", ".", ".", "!", "!!", "?", "...", ""])
    if text.startswith(("did ", "Did ", "were ", "Were ", "are ", "Are ", "has ", "Has ")):
        ending = rng.choice(["?", "??", "?!"])
    return text + str(ending)


def _typo(text: str, rng: np.random.Generator) -> str:
    """Drop or double one letter of a longer word."""
    words = text.split(" ")
    long_words = [i for i, w in enumerate(words) if len(w) > 4 and w.isalpha()]
    if not long_words:
        return text
    i = long_words[int(rng.integers(len(long_words)))]
    w = words[i]
    k = int(rng.integers(1, len(w) - 1))
    words[i] = w[:k] + w[k + 1 :] if rng.random() < 0.5 else w[:k] + w[k] + w[k:]
    return " ".join(words)


def _comment(kind: str, rng: np.random.Generator) -> str:
    """One comment of ``kind``, wrapped in double quotes as in Kaggle's files."""
    templates = _TEMPLATES[kind]
    parts = [_sentence(_fill(templates[int(rng.integers(len(templates)))], rng), rng)]
    for _ in range(int(rng.choice([0, 0, 1, 1, 2, 3]))):
        filler = _sentence(_fill(_FILLERS[int(rng.integers(len(_FILLERS)))], rng), rng)
        parts.insert(int(rng.integers(len(parts) + 1)), filler)
    if rng.random() < 0.3:  # a second remark of the same tone
        parts.append(_sentence(_fill(templates[int(rng.integers(len(templates)))], rng), rng))
    if rng.random() < 0.06:
        parts = [p.upper() for p in parts]
    glue = [" ", " ", "  ", _ESCAPES[int(rng.integers(len(_ESCAPES)))]]
    text = parts[0]
    for part in parts[1:]:
        text += str(glue[int(rng.integers(len(glue)))]) + part
    if rng.random() < 0.15:
        text = _typo(text, rng)
    if rng.random() < 0.12:
        text = "@" + _WORDS["name"][int(rng.integers(len(_WORDS["name"])))] + " " + text
    text = text.replace("'", "\\u2019") if rng.random() < 0.05 else text
    return f'"{text}"'


def _dates(rng: np.random.Generator, n: int) -> list[object]:
    """Timestamps ``YYYYMMDDhhmmssZ`` in spring 2012; about a fifth missing (None)."""
    seconds = rng.integers(0, _DATE_SPAN_S, size=n)
    missing = rng.random(n) < DATE_MISSING
    stamps = (_DATE_START + seconds.astype("timedelta64[s]")).astype(str)
    return [
        None if gone else s.replace("-", "").replace("T", "").replace(":", "") + "Z"
        for s, gone in zip(stamps, missing, strict=True)
    ]


def _replica_tables(seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Kaggle's ``train.csv`` and ``test_with_solutions.csv`` as synthetic tables."""
    rng = np.random.default_rng(seed)
    names = [k for k, _, _ in _KINDS]
    labels = {k: y for k, y, _ in _KINDS}
    weights = np.array([w for _, _, w in _KINDS])
    weights = weights / weights.sum()
    total = N_TRAIN + N_TEST
    seen: set[str] = set()
    comments: list[str] = []
    insult: list[int] = []
    while len(comments) < total:
        kind = names[int(rng.choice(len(names), p=weights))]
        text = _comment(kind, rng)
        if text in seen:
            continue
        seen.add(text)
        comments.append(text)
        flip = rng.random() < LABEL_NOISE
        insult.append(labels[kind] ^ int(flip))
    frame = pd.DataFrame(
        {
            LABEL: np.array(insult, dtype=np.int64),
            DATE: pd.Series(_dates(rng, total), dtype=object),
            COMMENT: pd.Series(comments, dtype=object),
        }
    )
    train = frame.iloc[:N_TRAIN].reset_index(drop=True)
    test = frame.iloc[N_TRAIN:].reset_index(drop=True)
    public = rng.random(N_TEST) < PUBLIC_TEST_SHARE
    test[USAGE] = np.where(public, "PublicTest", "PrivateTest")
    return train, test


def replica(public_dir: Path, private_dir: Path, seed: int) -> None:
    """Generate synthetic comments and prepare them exactly like Kaggle's files.

    Writes Kaggle-style ``train.csv`` (3,947 rows) and ``test_with_solutions.csv``
    (2,647 rows, with ``Usage``) to a temporary folder and runs :func:`prepare`
    on it. About 26% of comments are insults. Comments are unique, wrapped in
    literal double quotes and carry escaped characters like the real ones;
    about a fifth of the dates are missing. Same ``seed``, same bytes.
    """
    train, test = _replica_tables(seed)
    with tempfile.TemporaryDirectory(prefix="mle_gym-insults-") as tmp:
        raw = Path(tmp)
        train.to_csv(raw / "train.csv", index=False)
        test.to_csv(raw / "test_with_solutions.csv", index=False)
        prepare(raw, public_dir, private_dir)
