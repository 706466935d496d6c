"""Data preparation for movie-review-sentiment-analysis-kernels-only.

Kaggle's zip holds ``train.tsv.zip`` (156,060 labelled phrases: ``PhraseId``,
``SentenceId``, ``Phrase``, ``Sentiment`` 0-4), ``test.tsv.zip`` (unlabelled,
unused here) and ``sampleSubmission.csv``. MLE-bench reads ``train.tsv`` with
pandas' defaults and splits it with scikit-learn's
``train_test_split(test_size=0.3, random_state=0)``: 109,242 phrases stay for
training, 46,818 become the test set. Written files:

* ``public/train.tsv.zip`` — a zip holding ``train.tsv`` (the kept phrases);
* ``public/test.tsv.zip`` — a zip holding ``test.tsv`` (held-out phrases
  without ``Sentiment``);
* ``public/sampleSubmission.csv`` — ``PhraseId,Sentiment`` with every
  sentiment 2 (neutral);
* ``private/answers.csv`` — the held-out rows with all four columns
  (comma-separated).

``replica(public_dir, private_dir, seed)`` generates an offline stand-in with
the same schema from a seeded phrase-structure grammar and goes through the
same split (see the replica section below).
"""

from __future__ import annotations

import io
import math
import random
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from mle_gym.authoring import train_test_split_like_sklearn

ID = "PhraseId"
TARGET = "Sentiment"
COLUMNS = [ID, "SentenceId", "Phrase", TARGET]
TEST_SIZE = 0.3
MAX_TSV_BYTES = 1 << 30


def _write_zipped(frame: pd.DataFrame, path: Path, member: str) -> None:
    """Write ``frame`` as a tab-separated member of a new zip (fixed timestamp)."""
    info = zipfile.ZipInfo(member, date_time=(1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(info, frame.to_csv(index=False, sep="\t"))


def split_and_write(phrases: pd.DataFrame, public_dir: Path, private_dir: Path) -> None:
    """Split the labelled phrases as MLE-bench does and write public/private files."""
    # scikit-learn's count for a fractional test_size (train gets the rest)
    n_test = math.ceil(TEST_SIZE * len(phrases))
    new_train, answers = train_test_split_like_sklearn(phrases, test_size=n_test, random_state=0)
    new_test = answers.drop(columns=[TARGET])
    sample = answers[[ID, TARGET]].copy()
    sample[TARGET] = 2
    answers.to_csv(private_dir / "answers.csv", index=False)
    _write_zipped(new_train, public_dir / "train.tsv.zip", "train.tsv")
    _write_zipped(new_test, public_dir / "test.tsv.zip", "test.tsv")
    sample.to_csv(public_dir / "sampleSubmission.csv", index=False)


def read_kaggle_train(raw_dir: Path) -> pd.DataFrame:
    """``train.tsv`` from the nested ``train.tsv.zip``, parsed with pandas' defaults."""
    with zipfile.ZipFile(raw_dir / "train.tsv.zip") as zf:
        info = zf.getinfo("train.tsv")
        if info.file_size > MAX_TSV_BYTES:
            raise ValueError(f"train.tsv is implausibly large ({info.file_size} bytes)")
        data = zf.read(info)
    return pd.read_csv(io.BytesIO(data), sep="\t")


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Prepare Kaggle's files (extracted competition zip in ``raw_dir``)."""
    phrases = read_kaggle_train(raw_dir)
    if list(phrases.columns) != COLUMNS:
        raise ValueError(f"train.tsv has columns {list(phrases.columns)}, expected {COLUMNS}")
    split_and_write(phrases, public_dir, private_dir)


# ---------------------------------------------------------------------------
# Offline replica
# ---------------------------------------------------------------------------
#
# Sentences are drawn from a small grammar of invented review sentences
# (noun phrases with adjectives, copular and verbal predicates, intensifiers,
# negation, contrastive clauses) over a word list whose sentiment values are
# re-drawn per seed. Every sentence is a binary parse tree; each node is a
# phrase whose sentiment composes its children's (intensifiers scale,
# negation flips and damps, the main clause of a contrast dominates) and is
# then read off on the 0-4 scale with annotator noise that grows with the
# phrase's polarity. As in the Stanford treebank behind the Kaggle data, the
# phrases of a sentence are listed in pre-order (the sentence first, then
# left before right), a phrase already seen in an earlier sentence is not
# repeated, and rows continue until the real row count is reached.

N_ROWS = 156060


class _Pcg64Random(random.Random):
    """:class:`random.Random`'s methods drawing from numpy's PCG64, not the Mersenne Twister.

    The Twister's state follows linearly from its outputs, and the public phrases
    expose many of them while the hidden labels come from the same stream. PCG64
    (what the other replica generators use) is not linear: recovering its state
    takes a research-scale computation even from raw 64-bit outputs, and a phrase
    reveals only a few bits of each draw.
    """

    _BLOCK = 4096  # 64-bit words drawn from PCG64 at a time

    def seed(self, a: int | None = None, version: int = 2) -> None:
        self._bits = np.random.PCG64(a)
        self._words: list[int] = []
        self.gauss_next = None

    def _word(self) -> int:
        if not self._words:
            self._words = self._bits.random_raw(self._BLOCK).tolist()[::-1]
        return self._words.pop()

    def random(self) -> float:
        return (self._word() >> 11) * (1.0 / 9007199254740992.0)  # 53 bits in [0, 1)

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        n = max(1, (k + 63) // 64)
        value = 0
        for _ in range(n):
            value = (value << 64) | self._word()
        return value >> (64 * n - k)


_POSITIVE_STRONG = (
    "dazzling superb masterful exhilarating luminous wonderful brilliant stunning glorious "
    "riveting exquisite transcendent"
)
_POSITIVE_MILD = (
    "charming pleasant solid likable decent amusing sweet watchable earnest graceful lively "
    "warm clever engaging sincere tender breezy handsome"
)
_NEGATIVE_MILD = (
    "flat uneven forgettable bland clumsy sluggish predictable thin messy tired slight awkward "
    "overlong muddled shallow stiff routine"
)
_NEGATIVE_STRONG = (
    "dreadful unwatchable abysmal painful insufferable atrocious lifeless dreary witless "
    "excruciating inept hollow"
)
_NEUTRAL_ADJ = (
    "long quiet french new familiar small young old animated historical romantic low-budget "
    "other british first second latest lonely rural distant elderly northern nameless"
)
_ASPECTS = (
    "film movie picture story plot script cast director performance soundtrack ending dialogue "
    "premise sequel comedy drama thriller documentary cinematography pacing screenplay ensemble "
    "lead villain heroine climax finale score editing montage opening camerawork twist "
    "romance adaptation remake narrator"
)
_CONTENT = (
    "widow detective family town journey war summer childhood marriage island city road farmer "
    "soldier teacher band village mother father brother sister daughter son friendship robbery "
    "trial voyage winter studio career novel legend murder wedding election mountain river "
    "school hospital kingdom experiment orphan stranger painter boxer chef sailor priest"
)
_PLACES_COMMON = "the city|the coast|the desert|a small town|the north|the suburbs|the countryside"
_JUDGEMENT_POSITIVE = "triumph delight gem treat pleasure joy marvel"
_JUDGEMENT_NEGATIVE = "mess bore disaster chore letdown misfire snooze"
_VERBS_POSITIVE = "delights charms shines soars works sparkles succeeds resonates"
_VERBS_NEGATIVE = "drags fails stumbles falters collapses sags disappoints grates"
_MANNER_POSITIVE = "beautifully effortlessly gracefully wonderfully"
_MANNER_NEGATIVE = "badly clumsily awkwardly miserably"
_VERBS_NEUTRAL = "follows tells features explores tracks revisits depicts chronicles"
_INTENSIFIERS = "very truly remarkably utterly thoroughly genuinely wildly"
_DOWNTONERS = "somewhat mildly fairly rather slightly"
_COPULAS = "is feels seems remains looks"
_CONTRASTS = ("but", "yet")
_CONCESSIVES = ("although", "though", "while")
_PREPOSITIONS = ("in", "from", "near", "beyond")
_ONSETS = ("b", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z")
_ONSETS += ("br", "dr", "gr", "kr", "tr", "st", "sh", "th")
_VOWELS = ("a", "e", "i", "o", "u", "a", "e", "o", "ae", "ia")
_CODAS = ["", "", "n", "r", "l", "s", "th", "x", "nd", "rk"]

# Whole-cell values pandas would read as missing or boolean; never invent these.
_RESERVED = {"none", "null", "nan", "true", "false"}

_THRESHOLDS = (-1.45, -0.45, 0.45, 1.45)  # composed score -> label 0..4


def _invented_words(rng: random.Random, n: int, taken: set[str]) -> list[str]:
    """``n`` distinct capitalised pseudo-words of two or three syllables."""
    words: list[str] = []
    while len(words) < n:
        syllables = rng.choice((2, 2, 3))
        word = "".join(
            rng.choice(_ONSETS) + rng.choice(_VOWELS) + rng.choice(_CODAS) for _ in range(syllables)
        ).capitalize()
        if word not in taken and word.lower() not in _RESERVED and 4 <= len(word) <= 11:
            taken.add(word)
            words.append(word)
    return words


class _Lexicon:
    """Word lists with per-seed sentiment values and per-seed invented proper names."""

    def __init__(self, rng: random.Random) -> None:
        def draw(words: str, centre: float, spread: float) -> dict[str, float]:
            return {w: rng.gauss(centre, spread) for w in words.split()}

        self.adjectives = {
            **draw(_POSITIVE_STRONG, 1.75, 0.3),
            **draw(_POSITIVE_MILD, 0.9, 0.25),
            **draw(_NEGATIVE_MILD, -0.9, 0.25),
            **draw(_NEGATIVE_STRONG, -1.75, 0.3),
        }
        self.judgements = {
            **draw(_JUDGEMENT_POSITIVE, 1.3, 0.3),
            **draw(_JUDGEMENT_NEGATIVE, -1.3, 0.3),
        }
        self.verbs = {**draw(_VERBS_POSITIVE, 1.0, 0.3), **draw(_VERBS_NEGATIVE, -1.0, 0.3)}
        self.manner = {**draw(_MANNER_POSITIVE, 0.8, 0.2), **draw(_MANNER_NEGATIVE, -0.8, 0.2)}
        self.intensifiers = draw(_INTENSIFIERS, 1.5, 0.12)
        self.downtoners = draw(_DOWNTONERS, 0.55, 0.1)
        taken: set[str] = set()
        self.people = _invented_words(rng, 900, taken)
        self.places = _invented_words(rng, 250, taken)
        self.neutral_adjectives = _NEUTRAL_ADJ.split()
        self.aspects = _ASPECTS.split()
        self.content = _CONTENT.split()
        self.common_places = _PLACES_COMMON.split("|")
        self.neutral_verbs = _VERBS_NEUTRAL.split()
        self.copulas = _COPULAS.split()


# A tree node is (tokens, score, children); leaves have no children.
_Node = tuple[list[str], float, list]


def _leaf(word: str, score: float = 0.0) -> _Node:
    return ([word], score, [])


def _join(left: _Node, right: _Node, score: float) -> _Node:
    return ([*left[0], *right[0]], score, [left, right])


def _saturate(score: float) -> float:
    """Sentiment piles up sub-linearly: many mild words never make an extreme phrase."""
    return 2.4 * math.tanh(score / 2.4)


def _phrase(words: str) -> _Node:
    """A fixed multi-word neutral phrase as a right-branching tree."""
    tokens = words.split()
    node = _leaf(tokens[-1])
    for token in reversed(tokens[:-1]):
        node = _join(_leaf(token), node, 0.0)
    return node


class _Grammar:
    """Random binary parse trees of short invented review sentences."""

    def __init__(self, rng: random.Random, lexicon: _Lexicon) -> None:
        self.rng = rng
        self.lex = lexicon

    def _pick(self, table: dict[str, float]) -> _Node:
        word = self.rng.choice(sorted(table))
        return _leaf(word, table[word])

    def _determiner(self, head: _Node, choices: tuple[str, ...]) -> _Node:
        det = self.rng.choice(choices)
        if det == "a" and head[0][0][0] in "aeiou":
            det = "an"
        return _join(_leaf(det), head, head[1])

    def adjective_phrase(self) -> _Node:
        rng, lex = self.rng, self.lex
        node = self._pick(lex.adjectives)
        roll = rng.random()
        if roll < 0.2:
            adverb = self._pick(lex.intensifiers)
            node = _join(adverb, node, _saturate(node[1] * adverb[1]))
        elif roll < 0.3:
            adverb = self._pick(lex.downtoners)
            node = _join(adverb, node, node[1] * adverb[1])
        return node

    def place(self) -> _Node:
        rng, lex = self.rng, self.lex
        where = _leaf(rng.choice(lex.places)) if rng.random() < 0.6 else None
        where = where or _phrase(rng.choice(lex.common_places))
        return _join(_leaf(rng.choice(_PREPOSITIONS)), where, 0.0)

    def content_phrase(self, polar_rate: float) -> _Node:
        """Who or what a film is about: mostly neutral."""
        rng, lex = self.rng, self.lex
        if rng.random() < 0.3:
            node = _leaf(rng.choice(lex.people))
        else:
            node = _leaf(rng.choice(lex.content))
            if rng.random() < polar_rate:
                adj = self.adjective_phrase()
                node = _join(adj, node, 0.8 * adj[1])
            elif rng.random() < 0.45:
                node = _join(_leaf(rng.choice(lex.neutral_adjectives)), node, 0.0)
            node = self._determiner(node, ("a", "a", "the", "an old", "one"))
        if rng.random() < 0.35:
            where = self.place()
            node = _join(node, where, node[1])
        return node

    def subject(self) -> _Node:
        rng, lex = self.rng, self.lex
        head = _leaf(rng.choice(lex.aspects))
        roll = rng.random()
        if roll < 0.25:
            adj = self.adjective_phrase()
            head = _join(adj, head, 0.8 * adj[1])
        elif roll < 0.4:
            head = _join(_leaf(rng.choice(lex.neutral_adjectives)), head, 0.0)
        if rng.random() < 0.25:
            owner = _join(_leaf(rng.choice(lex.people)), _leaf("'s"), 0.0)
            return _join(owner, head, head[1])
        return self._determiner(head, ("the", "the", "the", "this", "its"))

    def predicate(self) -> _Node:
        rng, lex = self.rng, self.lex
        roll = rng.random()
        if roll < 0.34:
            core = self._negate(self.adjective_phrase())
            return _join(_leaf(rng.choice(lex.copulas)), core, core[1])
        if roll < 0.52:
            verb = self._pick(lex.verbs)
            negated = rng.random() < 0.18
            if negated:  # "does n't work": the bare form, same sentiment
                verb = _leaf(verb[0][0].removesuffix("s"), verb[1])
            core = verb
            if rng.random() < 0.35:
                manner = self._pick(lex.manner)
                core = _join(core, manner, _saturate(core[1] + manner[1]))
            if not negated:
                return core
            negation = _join(_leaf("does"), _leaf("n't"), 0.0)
            return _join(negation, core, -0.6 * core[1])
        if roll < 0.62:
            noun = self._pick(lex.judgements)
            if rng.random() < 0.3:
                adj = self.adjective_phrase()
                noun = _join(adj, noun, _saturate(adj[1] + noun[1]))
            noun = self._determiner(noun, ("a", "a", "a", "the"))
            return _join(_leaf("is"), noun, noun[1])
        content = self.content_phrase(polar_rate=0.25)
        return _join(_leaf(rng.choice(lex.neutral_verbs)), content, 0.7 * content[1])

    def _negate(self, core: _Node) -> _Node:
        """Now and then "not", "never" or "hardly" before an adjective: flips and damps it."""
        rng = self.rng
        if rng.random() >= 0.18:
            return core
        return _join(_leaf(rng.choice(("not", "never", "hardly"))), core, -0.6 * core[1])

    def clause(self) -> _Node:
        subject, predicate = self.subject(), self.predicate()
        return _join(subject, predicate, _saturate(0.6 * subject[1] + predicate[1]))

    def sentence(self) -> _Node:
        rng = self.rng
        roll = rng.random()
        if roll < 0.45:
            body = self.clause()
        elif roll < 0.68:
            first, second = self.clause(), self.clause()
            conj = _join(_leaf(rng.choice(_CONTRASTS)), second, second[1])
            tail = _join(_leaf(","), conj, conj[1])
            body = _join(first, tail, _saturate(0.3 * first[1] + second[1]))
        elif roll < 0.84:
            minor, main = self.clause(), self.clause()
            sub = _join(_leaf(rng.choice(_CONCESSIVES)), minor, minor[1])
            sub = _join(sub, _leaf(","), sub[1])
            body = _join(sub, main, _saturate(0.3 * minor[1] + main[1]))
        else:
            first, second = self.clause(), self.clause()
            conj = _join(_leaf("and"), second, second[1])
            body = _join(first, conj, _saturate(first[1] + second[1]))
        return _join(body, _leaf("."), body[1])


def _label(rng: random.Random, score: float) -> int:
    """Sentiment 0-4 for a composed score; polar phrases are judged less consistently."""
    noisy = score + rng.gauss(0.0, 0.1 + 0.4 * min(abs(score), 2.5))
    label = sum(noisy > t for t in _THRESHOLDS)
    if abs(score) > 0.2 and rng.random() < 0.1:  # annotators disagree now and then
        label += rng.choice((-1, 1))
    return min(4, max(0, label))


def _capitalize_left_edge(tree: _Node) -> None:
    """Capitalise the sentence's first word in every phrase that starts with it."""
    node = tree
    while True:
        node[0][0] = node[0][0][:1].upper() + node[0][0][1:]
        if not node[2]:
            return
        node = node[2][0]


def _preorder(node: _Node) -> list[_Node]:
    out, stack = [], [node]
    while stack:
        current = stack.pop()
        out.append(current)
        stack.extend(reversed(current[2]))
    return out


def _replica_table(seed: int) -> pd.DataFrame:
    """The full labelled replica: ``N_ROWS`` phrases in Kaggle's train.tsv columns."""
    rng = _Pcg64Random(seed)
    grammar = _Grammar(rng, _Lexicon(rng))
    seen: set[str] = set()
    sentence_ids: list[int] = []
    phrases: list[str] = []
    labels: list[int] = []
    sentence = 0
    while len(phrases) < N_ROWS:
        sentence += 1
        tree = grammar.sentence()
        _capitalize_left_edge(tree)
        for node in _preorder(tree):
            text = " ".join(node[0])
            if text in seen:
                continue
            seen.add(text)
            sentence_ids.append(sentence)
            phrases.append(text)
            labels.append(_label(rng, node[1]))
            if len(phrases) == N_ROWS:
                break
    return pd.DataFrame(
        {
            ID: range(1, N_ROWS + 1),
            "SentenceId": sentence_ids,
            "Phrase": pd.Series(phrases, dtype=object),
            TARGET: labels,
        }
    )


def replica(public_dir: Path, private_dir: Path, seed: int) -> None:
    """Generate an invented phrase-sentiment corpus and write it like :func:`prepare` does.

    156,060 phrases (Kaggle's count) with ``PhraseId`` 1..N, ``SentenceId``
    increasing, space-separated tokens and labels 0-4, mostly neutral. Same
    ``seed``, same bytes.
    """
    split_and_write(_replica_table(seed), public_dir, private_dir)
