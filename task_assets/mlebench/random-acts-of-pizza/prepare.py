"""Data preparation for random-acts-of-pizza.

``prepare(raw_dir, public_dir, private_dir)`` reproduces MLE-bench's split.
Kaggle's zip holds ``train.json`` (4,040 labelled requests, 32 fields each) and
``test.json`` (1,631 unlabelled requests, 17 fields: only what was known when
the request was posted). MLE-bench discards Kaggle's test set and splits
Kaggle's train list with scikit-learn's ``train_test_split`` semantics
(``random_state=0``), with the test share Kaggle used:
``1631 / (4040 + 1631)``, which gives 2,878 train and 1,162 test requests.

Written files:

* ``public/train.json`` — the new train requests, all fields (``json.dump``
  with ``indent=4``), and ``public/train.zip`` holding it;
* ``public/test.json`` — the new test requests reduced to the fields of
  Kaggle's ``test.json`` (in that file's key order), and ``public/test.zip``;
* ``public/sampleSubmission.csv`` — ``request_id,requester_received_pizza``
  with 0 everywhere;
* ``private/test.csv`` — the same two columns with the true outcome as 0/1.

``replica(public_dir, private_dir, seed)`` generates synthetic requests with
Kaggle's fields and value formats and runs them through the same code.
"""

from __future__ import annotations

import json
import tempfile
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from mle_gym.authoring import extract_zip, train_test_split_like_sklearn

ID = "request_id"
TARGET = "requester_received_pizza"
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def _load_requests(raw_dir: Path, name: str) -> list[dict[str, Any]]:
    """A JSON list of requests from the raw folder (unzipping ``<name>.zip`` if needed)."""
    path = raw_dir / name
    if not path.is_file() and (raw_dir / f"{name}.zip").is_file():
        extract_zip(raw_dir / f"{name}.zip", raw_dir)
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def _check_fields(requests: list[dict[str, Any]], what: str) -> list[str]:
    """The first request's keys, after checking every request has the same set."""
    fields = list(requests[0].keys())
    wanted = set(fields)
    odd = sum(1 for r in requests if set(r.keys()) != wanted)
    if odd:
        raise ValueError(f"{what}: {odd} request(s) have fields other than the first one's")
    return fields


def _write_json_and_zip(requests: list[dict[str, Any]], folder: Path, stem: str) -> None:
    """``<stem>.json`` as MLE-bench writes it, plus ``<stem>.zip`` containing that file."""
    path = folder / f"{stem}.json"
    with open(path, "w", encoding="utf-8") as f:
        json.dump(requests, f, indent=4)
    info = zipfile.ZipInfo(f"{stem}.json", date_time=_ZIP_TIME)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    with zipfile.ZipFile(folder / f"{stem}.zip", "w") as zf:
        zf.writestr(info, path.read_bytes())


def split_and_write(
    old_train: list[dict[str, Any]],
    old_test: list[dict[str, Any]],
    public_dir: Path,
    private_dir: Path,
) -> None:
    """MLE-bench's split of Kaggle's train list, and the files it writes."""
    _check_fields(old_train, "train.json")
    test_fields = _check_fields(old_test, "test.json")
    test_ratio = len(old_test) / (len(old_train) + len(old_test))
    positions = pd.DataFrame({"position": np.arange(len(old_train))})
    train_pos, test_pos = train_test_split_like_sklearn(
        positions, test_size=test_ratio, random_state=0
    )
    new_train = [old_train[i] for i in train_pos["position"]]
    new_test = [old_train[i] for i in test_pos["position"]]

    _write_json_and_zip(new_train, public_dir, "train")
    _write_json_and_zip(
        [{key: request[key] for key in test_fields} for request in new_test], public_dir, "test"
    )
    answers = pd.DataFrame(
        {
            ID: [request[ID] for request in new_test],
            TARGET: [int(request[TARGET]) for request in new_test],
        }
    )
    answers.to_csv(private_dir / "test.csv", index=False)
    sample = answers.copy()
    sample[TARGET] = 0
    sample.to_csv(public_dir / "sampleSubmission.csv", index=False)


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Prepare Kaggle's files (extracted competition zip in ``raw_dir``)."""
    split_and_write(
        _load_requests(raw_dir, "train.json"),
        _load_requests(raw_dir, "test.json"),
        public_dir,
        private_dir,
    )


# ---------------------------------------------------------------------------
# Offline replica
# ---------------------------------------------------------------------------
#
# Each synthetic requester gets an account history (age, comments, posts,
# karma, subreddits, earlier activity on the pizza subreddit) and writes a
# request whose text is assembled from invented sentence pools: a reason
# (hard times, family, studies, celebration, plain craving), optional offers
# of proof, promises to pay it forward and thanks, plus small talk. Success is
# drawn from a logistic model of those features (the community favoured early,
# active, established requesters with a concrete, verifiable story) with
# plenty of unexplained noise. Then the after-the-fact fields are derived: vote
# counts and comments, edits thanking the giver (removed from the edit-aware
# text), the flair of those who received a pizza and, for part of the
# successes, the giver's name -- the leak of the real data.

N_TRAIN = 4040
N_TEST = 1631
SUCCESS_RATE = 0.246
SIGNAL_SCALE = 1.5
GIVER_KNOWN = 0.3  # share of successful requests whose giver is named
T_START = 1291766400  # 2010-12-08
T_END = 1380412800  # 2013-09-29
T_RETRIEVAL = 1380544000  # 2013-09-30

TRAIN_FIELDS = [
    "giver_username_if_known",
    "number_of_downvotes_of_request_at_retrieval",
    "number_of_upvotes_of_request_at_retrieval",
    "post_was_edited",
    "request_id",
    "request_number_of_comments_at_retrieval",
    "request_text",
    "request_text_edit_aware",
    "request_title",
    "requester_account_age_in_days_at_request",
    "requester_account_age_in_days_at_retrieval",
    "requester_days_since_first_post_on_raop_at_request",
    "requester_days_since_first_post_on_raop_at_retrieval",
    "requester_number_of_comments_at_request",
    "requester_number_of_comments_at_retrieval",
    "requester_number_of_comments_in_raop_at_request",
    "requester_number_of_comments_in_raop_at_retrieval",
    "requester_number_of_posts_at_request",
    "requester_number_of_posts_at_retrieval",
    "requester_number_of_posts_on_raop_at_request",
    "requester_number_of_posts_on_raop_at_retrieval",
    "requester_number_of_subreddits_at_request",
    "requester_received_pizza",
    "requester_subreddits_at_request",
    "requester_upvotes_minus_downvotes_at_request",
    "requester_upvotes_minus_downvotes_at_retrieval",
    "requester_upvotes_plus_downvotes_at_request",
    "requester_upvotes_plus_downvotes_at_retrieval",
    "requester_user_flair",
    "requester_username",
    "unix_timestamp_of_request",
    "unix_timestamp_of_request_utc",
]
TEST_FIELDS = [
    "giver_username_if_known",
    "request_id",
    "request_text_edit_aware",
    "request_title",
    "requester_account_age_in_days_at_request",
    "requester_days_since_first_post_on_raop_at_request",
    "requester_number_of_comments_at_request",
    "requester_number_of_comments_in_raop_at_request",
    "requester_number_of_posts_at_request",
    "requester_number_of_posts_on_raop_at_request",
    "requester_number_of_subreddits_at_request",
    "requester_subreddits_at_request",
    "requester_upvotes_minus_downvotes_at_request",
    "requester_upvotes_plus_downvotes_at_request",
    "requester_username",
    "unix_timestamp_of_request",
    "unix_timestamp_of_request_utc",
]

# Story pools: (sentences, logit effect). One reason per request.
_REASONS: dict[str, tuple[list[str], float]] = {
    "money": (
        [
            "I got laid off two weeks ago and my last paycheck went to rent.",
            "Payday is not until Friday and I have about three dollars left in my account.",
            "My hours at work got cut and after bills there is nothing left for food.",
            "I just paid rent and the utilities and my bank account is basically empty.",
            "Lost my job last month and I am still waiting on the first unemployment check.",
            "Car broke down and the repair ate every cent I had saved for groceries.",
        ],
        0.45,
    ),
    "family": (
        [
            "My wife and I have two kids and the fridge is looking pretty sad until payday.",
            "I am a single dad and I would love to surprise my daughter with a pizza night.",
            "My son has been sick all week and a pizza would really cheer him up.",
            "We just had a baby and nobody in the house has had time to cook.",
            "My mom is in the hospital and I have been taking care of my little brothers.",
        ],
        0.4,
    ),
    "student": (
        [
            "I am a college student in the middle of finals week and living on ramen.",
            "Studying for exams all weekend and my meal plan ran out early.",
            "Grad student here, the stipend does not arrive until the first of the month.",
            "I have three papers due this week and have not had a real meal in days.",
        ],
        0.1,
    ),
    "celebration": (
        [
            "Today is my birthday and I am spending it alone in a new city.",
            "I just got accepted into nursing school and would love to celebrate.",
            "My girlfriend and I just moved into our first apartment, no furniture yet.",
            "I finally finished my last chemo treatment today.",
        ],
        0.05,
    ),
    "craving": (
        [
            "I have been craving pizza all day and just cannot stop thinking about it.",
            "Bored at home on a Saturday night and a pizza sounds amazing right now.",
            "Just want a pizza to go with the game tonight.",
            "Watching movies with friends and we are all hungry.",
            "I really want some pizza, been a long week.",
        ],
        -0.7,
    ),
}
_PROOF = (
    [
        "I can post a picture of my empty fridge on imgur if anyone wants proof.",
        "Happy to show a screenshot of my bank balance as verification.",
        "I can send a photo of my student ID or my layoff letter.",
        "Proof is available, just send me a message.",
    ],
    0.55,
)
_PAY_FORWARD = (
    [
        "I promise to pay it forward as soon as I get back on my feet.",
        "I will definitely return the favor to someone here when my check comes in.",
        "Once I am working again I will pay it forward, you have my word.",
    ],
    0.4,
)
_THANKS = (
    [
        "Thank you so much for reading this.",
        "Thanks in advance, this community is amazing.",
        "Thank you for considering my request.",
        "Either way, thanks for being such a kind community.",
    ],
    0.2,
)
_SMALL_TALK = [
    "I have been lurking here for a while.",
    "Any kind of pizza would be great, I am not picky.",
    "Pepperoni is my favorite but anything works.",
    "There is a Dominos and a Papa Johns near me.",
    "It has been a rough couple of weeks.",
    "Not really sure how this works but here goes.",
    "I would be really grateful.",
    "Long time reader, first time asking.",
    "I know there are people with bigger problems out there.",
    "Sorry for the long post.",
    "Hope everyone is having a better week than me.",
    "Cheese pizza would make my whole week.",
]
_TITLES = {
    "money": [
        "Broke until payday",
        "Lost my job, could use a pizza",
        "Rent took everything this month",
        "Out of money until Friday",
    ],
    "family": [
        "Would love to feed my kids tonight",
        "Single parent, rough week",
        "Family could use a pizza night",
    ],
    "student": [
        "Finals week and out of food",
        "Broke college student",
        "Grad student, stipend late",
    ],
    "celebration": ["It's my birthday", "Celebrating some good news", "First night in a new place"],
    "craving": ["Craving pizza", "Pizza for game night?", "Pizza would be awesome", "Hungry"],
}
_PLACES = ["USA", "Ohio", "Texas", "UK", "Canada", "California", "Florida", "NY", "Michigan"]
_EDIT_THANKS = [
    "EDIT: Received! Thank you so much {giver}, you are amazing!",
    "EDIT: Got my pizza, thanks {giver}! Will pay it forward.",
    "EDIT 2: Pizza has arrived, the kids are thrilled. Thank you {giver}!",
]
_EDIT_OTHER = [
    "EDIT: fixed formatting.",
    "EDIT: still hoping, thanks for the kind messages.",
    "EDIT: added proof in the comments.",
]
_SUBREDDITS = [
    "AskReddit",
    "pics",
    "funny",
    "gaming",
    "videos",
    "IAmA",
    "WTF",
    "todayilearned",
    "aww",
    "Music",
    "movies",
    "worldnews",
    "politics",
    "technology",
    "science",
    "AdviceAnimals",
    "trees",
    "fffffffuuuuuuuuuuuu",
    "Assistance",
    "Frugal",
    "food",
    "cooking",
    "college",
    "Jobs",
    "personalfinance",
    "Minecraft",
    "leagueoflegends",
    "nfl",
    "nba",
    "soccer",
    "DIY",
    "books",
]
_NAME_PARTS = [
    "pizza",
    "hungry",
    "broke",
    "lazy",
    "happy",
    "sad",
    "dark",
    "blue",
    "red",
    "green",
    "night",
    "day",
    "cat",
    "dog",
    "wolf",
    "bear",
    "fox",
    "owl",
    "crow",
    "moon",
    "sun",
    "star",
    "rain",
    "snow",
    "fire",
    "ice",
    "stone",
    "iron",
    "jay",
    "sam",
    "max",
    "kit",
    "ace",
    "zed",
]


def _base36(value: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while value:
        value, rest = divmod(value, 36)
        out = digits[rest] + out
    return out or "0"


def _usernames(rng: np.random.Generator, n: int) -> list[str]:
    """``n`` distinct invented usernames."""
    names: list[str] = []
    seen: set[str] = set()
    while len(names) < n:
        a, b = rng.choice(_NAME_PARTS, size=2)
        style = int(rng.integers(4))
        if style == 0:
            name = f"{a}{b}{int(rng.integers(1, 9999))}"
        elif style == 1:
            name = f"{str(a).capitalize()}_{str(b).capitalize()}"
        elif style == 2:
            name = f"the{a}{b}"
        else:
            name = f"{a}-{b}-{int(rng.integers(10, 99))}"
        if name not in seen:
            seen.add(name)
            names.append(name)
    return names


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def _counts(rng: np.random.Generator, n: int, zero: float, median: float, cap: int) -> np.ndarray:
    """Zero-inflated, heavy-tailed counts."""
    values = np.exp(rng.normal(np.log(median), 1.2, size=n))
    values = np.minimum(np.round(values), cap).astype(np.int64)
    return np.where(rng.random(n) < zero, 0, values)


def _pick(rng: np.random.Generator, pool: list[str]) -> str:
    return pool[int(rng.integers(len(pool)))]


def _requests(seed: int) -> list[dict[str, Any]]:
    """Every synthetic request (train fields), in the order Kaggle's files list them."""
    rng = np.random.default_rng(seed)
    n = N_TRAIN + N_TEST
    t = np.sort(rng.integers(T_START, T_END, size=n)).astype(np.int64)
    progress = (t - T_START) / (T_END - T_START)

    new_account = rng.random(n) < 0.22
    age = np.where(
        new_account, rng.exponential(2.0, size=n), np.exp(rng.normal(np.log(300), 1.0, size=n))
    )
    age = np.round(age * 86400) / 86400  # whole seconds, as Reddit reports them
    active = np.clip(np.log1p(age) / 7.0, 0.05, 1.0)
    comments = _counts(rng, n, 0.12 + 0.5 * new_account, 60 * active, 1000)
    posts = _counts(rng, n, 0.2 + 0.5 * new_account, 12 * active, 1000)
    raop_posts = np.where(rng.random(n) < 0.08 * (1 - new_account), rng.integers(1, 4, n), 0)
    raop_comments = np.where(rng.random(n) < 0.12 * (1 - new_account), rng.integers(1, 30, n), 0)
    first_raop = np.where(raop_posts + raop_comments > 0, rng.uniform(0.0, 1.0, n) * age, 0.0)
    first_raop = np.round(first_raop * 86400) / 86400
    karma_plus = np.round((comments + 3 * posts) * np.exp(rng.normal(1.2, 0.8, n))).astype(int)
    karma_minus = np.round(karma_plus * rng.uniform(0.3, 0.95, n)).astype(int)
    karma_minus = np.where(rng.random(n) < 0.03, -karma_minus // 10, karma_minus)
    n_subreddits = np.minimum(np.round(np.sqrt(comments + posts) * 1.4), len(_SUBREDDITS))

    reasons = list(_REASONS)
    reason = rng.choice(len(reasons), size=n, p=[0.3, 0.15, 0.2, 0.1, 0.25])
    proof = rng.random(n) < 0.18
    forward = rng.random(n) < 0.3
    thanks = rng.random(n) < 0.55
    n_small = rng.integers(0, 5, size=n)

    logit = SIGNAL_SCALE * (
        np.array([_REASONS[r][1] for r in reasons])[reason]
        + _PROOF[1] * proof
        + _PAY_FORWARD[1] * forward
        + _THANKS[1] * thanks
        + 0.08 * n_small
        - 0.9 * progress
        + 0.12 * np.log1p(age)
        + 0.5 * (raop_posts > 0)
        + 0.15 * np.log1p(raop_comments)
        + 0.05 * np.log1p(np.maximum(karma_minus, 0))
    ) + rng.normal(0.0, 0.6, size=n)
    lo, hi = -20.0, 20.0
    for _ in range(60):  # intercept giving the target success rate
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _sigmoid(logit + mid).mean() < SUCCESS_RATE else (lo, mid)
    success = rng.random(n) < _sigmoid(logit + (lo + hi) / 2)

    usernames = _usernames(rng, n + 400)
    requesters, givers = usernames[:n], usernames[n:]
    id_numbers = np.cumsum(rng.integers(40, 4000, size=n)) + int("d00000", 36) // 9
    offsets = rng.choice([0, 0, 0, 3600, -14400, -18000, -25200], size=n)
    out: list[dict[str, Any]] = []
    for i in range(n):
        story = reasons[reason[i]]
        body = [_pick(rng, _REASONS[story][0])]
        body += [_pick(rng, _SMALL_TALK) for _ in range(n_small[i])]
        rng.shuffle(body)
        if proof[i]:
            body.append(_pick(rng, _PROOF[0]))
        if forward[i]:
            body.append(_pick(rng, _PAY_FORWARD[0]))
        if thanks[i]:
            body.append(_pick(rng, _THANKS[0]))
        text = " ".join(body) if rng.random() < 0.6 else "\n\n".join(body)
        giver = _pick(rng, givers) if success[i] and rng.random() < GIVER_KNOWN else "N/A"
        edit_aware = text
        has_edit = rng.random() < 0.02  # silent edits (typos)
        if success[i] and rng.random() < 0.35:
            who = giver if giver != "N/A" else "kind stranger"
            text = text + "\n\n" + _pick(rng, _EDIT_THANKS).format(giver=who)
            has_edit = True
            if rng.random() < 0.04:  # the edit-aware filter misses some thanks
                edit_aware = text
        elif rng.random() < 0.06:
            text = text + "\n\n" + _pick(rng, _EDIT_OTHER)
            edit_aware = text
            has_edit = True
        # Reddit reports an edit as true or, for some posts, as the edit's timestamp.
        edited: bool | float = False
        if has_edit:
            edited = True if rng.random() < 0.8 else float(t[i] + int(rng.integers(600, 86400)))
        title = f"[{_pick(rng, ['Request', 'REQUEST', 'request'])}] {_pick(rng, _TITLES[story])}"
        if rng.random() < 0.5:
            title += f" - {_pick(rng, _PLACES)}"

        later_days = (T_RETRIEVAL - t[i]) / 86400.0
        growth = 1.0 + later_days / 365.0 * rng.uniform(0.2, 2.0)
        upvotes = int(rng.poisson(2 + 4 * success[i] + 2 * proof[i]))
        downvotes = int(rng.poisson(1.5))
        subs = rng.choice(_SUBREDDITS, size=int(n_subreddits[i]), replace=False).tolist()
        if subs and (raop_posts[i] or raop_comments[i]):
            subs[0] = "Random_Acts_Of_Pizza"
        subs = sorted(subs, key=str.lower)
        flair = None
        if success[i]:
            flair = "PIF" if rng.random() < 0.06 else "shroom"
        utc = float(t[i])
        record = {
            "giver_username_if_known": giver,
            "number_of_downvotes_of_request_at_retrieval": downvotes,
            "number_of_upvotes_of_request_at_retrieval": upvotes,
            "post_was_edited": edited,
            "request_id": f"t3_{_base36(int(id_numbers[i]))}",
            "request_number_of_comments_at_retrieval": int(
                rng.poisson(1 + 4 * success[i] + 2 * (raop_comments[i] > 0))
            ),
            "request_text": text,
            "request_text_edit_aware": edit_aware,
            "request_title": title,
            "requester_account_age_in_days_at_request": float(age[i]),
            "requester_account_age_in_days_at_retrieval": float(age[i] + later_days),
            "requester_days_since_first_post_on_raop_at_request": float(first_raop[i]),
            "requester_days_since_first_post_on_raop_at_retrieval": float(
                first_raop[i] + later_days
            ),
            "requester_number_of_comments_at_request": int(comments[i]),
            "requester_number_of_comments_at_retrieval": int(np.rint(comments[i] * growth)),
            "requester_number_of_comments_in_raop_at_request": int(raop_comments[i]),
            "requester_number_of_comments_in_raop_at_retrieval": int(
                raop_comments[i] + rng.poisson(1 + 3 * success[i])
            ),
            "requester_number_of_posts_at_request": int(posts[i]),
            "requester_number_of_posts_at_retrieval": int(np.rint(posts[i] * growth)) + 1,
            "requester_number_of_posts_on_raop_at_request": int(raop_posts[i]),
            "requester_number_of_posts_on_raop_at_retrieval": int(
                raop_posts[i] + 1 + rng.poisson(0.2 + 0.3 * success[i])
            ),
            "requester_number_of_subreddits_at_request": len(subs),
            "requester_received_pizza": bool(success[i]),
            "requester_subreddits_at_request": subs,
            "requester_upvotes_minus_downvotes_at_request": int(karma_minus[i]),
            "requester_upvotes_minus_downvotes_at_retrieval": int(
                round(karma_minus[i] * growth) + upvotes - downvotes
            ),
            "requester_upvotes_plus_downvotes_at_request": int(karma_plus[i]),
            "requester_upvotes_plus_downvotes_at_retrieval": int(
                round(karma_plus[i] * growth) + upvotes + downvotes
            ),
            "requester_user_flair": flair,
            "requester_username": requesters[i],
            "unix_timestamp_of_request": utc + float(offsets[i]),
            "unix_timestamp_of_request_utc": utc,
        }
        out.append({key: record[key] for key in TRAIN_FIELDS})
    return out


def replica(public_dir: Path, private_dir: Path, seed: int) -> None:
    """Generate synthetic requests and prepare them exactly like Kaggle's files.

    Writes a Kaggle-style ``train.json`` (4,040 requests, 32 fields) and
    ``test.json`` (1,631 requests, the 17 request-time fields) to a temporary
    folder and runs :func:`prepare`, so the public/private files and their
    sizes follow MLE-bench's split. About a quarter of the requests succeed.
    Same ``seed``, same bytes.
    """
    requests = _requests(seed)
    rng = np.random.default_rng([seed, 1])
    order = rng.permutation(len(requests))  # Kaggle's files are not in time order
    train = [requests[i] for i in order[:N_TRAIN]]
    test = [{key: requests[i][key] for key in TEST_FIELDS} for i in order[N_TRAIN:]]
    with tempfile.TemporaryDirectory(prefix="mle_gym-raop-") as tmp:
        raw = Path(tmp)
        for name, items in (("train.json", train), ("test.json", test)):
            with open(raw / name, "w", encoding="utf-8") as f:
                json.dump(items, f, indent=4)
        prepare(raw, public_dir, private_dir)
