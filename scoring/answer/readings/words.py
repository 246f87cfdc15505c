"""Answers that are words: yes/no verdicts and multiple-choice letters.

math-verify compares expressions; a verdict word or an option letter is not one, and a sentence
that names several letters ("D, it can't be A or B") needs reading, not parsing.
"""

from __future__ import annotations

import re

from scoring.answer.clean import bare, too_long
from scoring.parse.lexicon import (
    ANSWER_WORDS,
    NO_WORDS,
    OTHER_ANSWER_WORDS,
    YES_WORDS,
    joiners,
    punctuation,
)

_POLARITY = {w: True for w in YES_WORDS} | {w: False for w in NO_WORDS}
_LATIN_VERDICT = re.compile(
    r"^(" + "|".join(w for w in _POLARITY if w.isascii()) + r")(?:[,.;:!]|$)"
)
_CJK_VERDICT = re.compile(
    r"^("
    + "|".join(sorted((w for w in _POLARITY if not w.isascii()), key=len, reverse=True))
    + r")(?:的)?(?:[\s,.;:!，。；：！、]|$)"
)

OPTIONS = "ABCDE"
_LETTER = re.compile(r"(?<![A-Za-z\\'’*+^_/=\d])\(?([A-Z])\)?(?![A-Za-z'’]|\s*[*+^_/=\d])")
_NEGATION = re.compile(
    r"(?:\bnot|\bcannot|\bnon|n['’]t)(?:\s+be)?\s*$|(?:不是|不|非)\s*$", re.IGNORECASE
)
_CHAIN = re.compile(
    r"^\s*(?:" + joiners.joiner_alternatives(joiners.CHOICES) + r")\s*$", re.IGNORECASE
)
_ANCHOR = re.compile(
    r"(?:"
    + "|".join(ANSWER_WORDS + OTHER_ANSWER_WORDS)
    + r")\s*(?:is|est|es|ist|是|为|:|：)?\s*[:：]?",
    re.IGNORECASE,
)
# What ends the clause after an answer word: a full stop or a semicolon, in either language.
_CLAUSE_END = re.compile(
    "[" + punctuation.mark_class(punctuation.FULL_STOPS, punctuation.SEMICOLONS) + "]"
)
_GOLD_CHOICE = re.compile(r"^\(?([A-Z])\)?(?:[.:)]?\s+[A-Z][a-z].*|[.:)]\s*.*)?$")
_BOX = re.compile(r"\\boxed\s*\{\s*(?:\\text\s*\{)?\s*\(?([A-Z])\)?\s*\}?\s*\}")
MAX_WORDS = 30


def yes_no(text: str) -> bool | None:
    """True for a yes-word answer, False for a no-word, None otherwise.

    The answer is the verdict word alone or followed by punctuation and an explanation ("Yes, as
    ...", "否，不存在"); "No solution" is not a verdict. Synonyms (是/对/正确/true) share a polarity.
    """
    if too_long(text):
        return None
    text = bare(text).strip("*_ ").lower()
    m = _LATIN_VERDICT.match(text) or _CJK_VERDICT.match(text)
    return _POLARITY[m.group(1)] if m else None


def is_verdict(text: str) -> bool:
    """The whole text is one verdict word ("No", "是。"): a yes/no answer and nothing else."""
    return bare(text).strip("*_ .!。！").lower() in _POLARITY


def compare_yes_no(gold: str, pred: str) -> bool | None:
    """Two verdicts are equal when their polarity is; a verdict never matches its opposite."""
    g, p = yes_no(gold), yes_no(pred)
    return None if g is None or p is None else g == p


def _free_letters(text: str, options: str) -> list[str]:
    """Option letters in order, without those a negation rules out ("not A", "can't be A or B")."""
    found: list[str] = []
    negated_end = -1
    for m in _LETTER.finditer(text):
        if m.group(1) not in options:
            continue
        before = text[max(0, m.start() - 16) : m.start()]
        chained = negated_end >= 0 and _CHAIN.match(text[negated_end : m.start()]) is not None
        if _NEGATION.search(before) or chained:
            negated_end = m.end()
            continue
        found.append(m.group(1))
    return found


def gold_choice(text: str) -> str | None:
    """The option letter a reference names: `C`, `(C)`, `C Cecile`, `... the answer is (C) ...`."""
    if too_long(text):
        return None
    text = bare(text)  # one line: lines are joined
    if m := _GOLD_CHOICE.match(text):
        return m.group(1)
    anchors = list(_ANCHOR.finditer(text))
    if anchors and (m := _GOLD_CHOICE.match(text[anchors[-1].end() :].strip())):
        return m.group(1)
    return None


def chosen_option(text: str, options: str = OPTIONS) -> str | None:
    """The option a prediction chooses: a boxed letter, a letter after "answer", else, in a short
    answer, the first letter it does not rule out."""
    if too_long(text):
        return None
    text = bare(text)
    if boxed := [b for b in _BOX.findall(text) if b in options]:
        return boxed[-1]
    for anchor in reversed(list(_ANCHOR.finditer(text))):
        clause = _CLAUSE_END.split(text[anchor.end() :], maxsplit=1)[0]
        if letters := _free_letters(clause, options):
            return letters[0]
    if len(text.split()) <= MAX_WORDS and (letters := _free_letters(text, options)):
        return letters[0]
    return None


_SELECTION = re.compile(
    r"^\(?[A-Z]\)?(?:\s*(?:"
    + joiners.joiner_alternatives(joiners.OPTION_LIST)
    + r")?\s*\(?[A-Z]\)?)*$"
)


def option_set(text: str, options: str = OPTIONS) -> frozenset[str] | None:
    """The options a multiple-select answer names, when the answer is nothing but option letters
    and separators (`BC`, `B、C`, `A, C and D`, `(A)(C)`): None for anything else, or when a
    letter repeats or is not an option."""
    if too_long(text):
        return None
    text = bare(text).strip()
    if not _SELECTION.match(text):
        return None
    letters = re.findall(r"[A-Z]", text)
    if len(set(letters)) != len(letters) or not set(letters) <= set(options):
        return None
    return frozenset(letters)


def compare_option_sets(gold: str, pred: str) -> bool | None:
    """A multiple-select answer (several options) equals another that names the same options,
    in any order and with any separators; it never equals a different selection. Single
    letters on both sides are left to `compare_choices`, which reads a letter in a sentence."""
    g, p = option_set(gold), option_set(pred)
    if g is None or p is None or (len(g) == 1 and len(p) == 1):
        return None
    return g == p


def compare_choices(gold: str, pred: str) -> bool | None:
    """When the reference is an option letter: whether the prediction chooses that option."""
    letter = gold_choice(gold)
    if letter is None:
        return None
    chosen = chosen_option(pred, OPTIONS if letter in OPTIONS else OPTIONS + letter)
    return None if chosen is None else chosen == letter
