"""Whole numbers written in words: `five`, `twenty-one`, `one hundred and five`, `五`, `十二`,
`三百零五`.

Students and chat models state a count in words as often as in digits ("So the answer is
five.", "答：共有五个。"), and a parser reads the word as a name. English number words follow
the usual grammar (units and teens, tens with an optional unit, hundreds, then thousand,
million and billion groups; "and" and hyphens allowed between them); Chinese numerals are read
by `scoring.parse.lexicon.cjk_integer`, with 万 groups in front. A word sequence that is not a
well-formed number (`five five`, `二三`) reads as nothing.

In running text a Chinese numeral is a number only where it counts something: before a measure
word or unit (`五个`, `十二米`), or closing its clause (`答案是五。`); 一 inside a word (`一共`,
`统一`, `第一`) is not one. An English number word is one wherever it stands as a word, but for
"one" as a pronoun: after a determiner or an adjective that follows one ("the boxed one",
"each one", "this one") or before "of" / "another" ("one of them").
"""

from __future__ import annotations

import re

from scoring.parse.lexicon import CJK_UNIT, cjk_integer, punctuation

_UNITS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
_TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_SCALES = {"thousand": 1000, "million": 10**6, "billion": 10**9}
_WORD = "|".join(sorted([*_UNITS, *_TENS, "hundred", *_SCALES], key=len, reverse=True))
_EN_PHRASE = re.compile(
    r"(?<![A-Za-z-])(?:minus\s+|negative\s+)?(?:"
    + _WORD
    + r")(?:(?:\s+and\s+|\s+|-)(?:"
    + _WORD
    + r"))*(?![A-Za-z-])",
    re.IGNORECASE,
)
_PRONOUN_ONE = re.compile(
    r"(?:\b(?:the|this|that|which|each|every|no|any|another|some|a|an)\s+(?:[a-z]+\s+)?)$",
    re.IGNORECASE,
)
_OF_AFTER = re.compile(r"\s+(?:of|another)\b", re.IGNORECASE)
_CJK_RUN = re.compile(r"负?[零〇一二两三四五六七八九十百千万]+")
# What may close a Chinese numeral that counts: a unit or measure word, the end of the text, or
# punctuation; what may come before it: the start, punctuation, or a word that states a value.
_CJK_AFTER = re.compile(r"\s*(?:" + CJK_UNIT + r")(?!之)|\s*(?:$|[。，,.；;！!？?、)）\s])")
_CJK_BEFORE = re.compile(r"(?:^|[\s:：，,。；;（(]|是|为|有|共|得|约|计|于|要|需|剩|买|用)$")
_END_PUNCT = punctuation.trailing_marks(
    punctuation.FULL_STOPS, punctuation.EXCLAMATIONS, punctuation.COMMAS, punctuation.SEMICOLONS
)


def _below_thousand(words: list[str], i: int) -> tuple[int, int] | None:
    """(value, next index) of a number below 1000 starting at `words[i]`, or None."""
    if i >= len(words):
        return None
    value, j = 0, i
    if words[j] in _UNITS and j + 1 < len(words) and words[j + 1] == "hundred":
        if not 1 <= _UNITS[words[j]] <= 9:
            return None
        value, j = _UNITS[words[j]] * 100, j + 2
        if j < len(words) and words[j] == "and":
            j += 1
        if j >= len(words) or words[j] not in _UNITS and words[j] not in _TENS:
            return (value, j) if words[j - 1] != "and" else None
    if j < len(words) and words[j] in _TENS:
        value += _TENS[words[j]]
        j += 1
        if j < len(words) and words[j] in _UNITS and 1 <= _UNITS[words[j]] <= 9:
            value += _UNITS[words[j]]
            j += 1
        return value, j
    if j < len(words) and words[j] in _UNITS:
        if value and _UNITS[words[j]] == 0:
            return None
        return value + _UNITS[words[j]], j + 1
    return (value, j) if value else None


def english_integer(text: str) -> int | None:
    """The whole number an English phrase writes (`one hundred and five`), or None."""
    words = [w for w in re.split(r"[\s-]+", text.strip().lower()) if w]
    sign = 1
    if words and words[0] in ("minus", "negative"):
        sign, words = -1, words[1:]
    if not words:
        return None
    total, i, last_scale = 0, 0, None
    while i < len(words):
        group = _below_thousand(words, i)
        if group is None:
            return None
        value, i = group
        if i < len(words) and words[i] in _SCALES:
            scale = _SCALES[words[i]]
            if last_scale is not None and scale >= last_scale or value == 0:
                return None
            total, last_scale, i = total + value * scale, scale, i + 1
            if i < len(words) and words[i] == "and":
                i += 1
            continue
        if i != len(words):
            return None
        total += value
    return sign * total


def chinese_integer(text: str) -> int | None:
    """A whole number in Chinese numerals, 万 groups included (`三百零五`, `一万二千`), or None."""
    text = text.strip()
    sign = -1 if text.startswith("负") else 1
    text = text.removeprefix("负")
    if not text:
        return None
    if "万" in text:
        high, _, low = text.partition("万")
        top = cjk_integer(high) if high else 1
        rest = cjk_integer(low.removeprefix("零")) if low else 0
        return None if top is None or rest is None else sign * (top * 10000 + rest)
    value = cjk_integer(text)
    return None if value is None else sign * value


def number_in_words(text: str) -> int | None:
    """The number a text that is nothing but a number in words states (`Five.`, `三百零五`)."""
    text = _END_PUNCT.sub("", text.strip())
    if not text or len(text) > 80:
        return None
    if re.fullmatch(_CJK_RUN.pattern, text):
        return chinese_integer(text)
    return english_integer(text) if re.fullmatch(r"[A-Za-z\s-]+", text) else None


def numbers_in_words(text: str) -> list[tuple[int, int, int]]:
    """(start, end, value) of each number written in words in running text, in order (the
    module docstring says where a Chinese numeral counts)."""
    found = []
    for m in _EN_PHRASE.finditer(text):
        value = english_integer(m.group())
        if m.group().lower() == "one" and (
            _PRONOUN_ONE.search(text[: m.start()]) or _OF_AFTER.match(text, m.end())
        ):
            continue
        if value is not None:
            found.append((m.start(), m.end(), value))
    for m in _CJK_RUN.finditer(text):
        if not (_CJK_AFTER.match(text, m.end()) and _CJK_BEFORE.search(text[: m.start()])):
            continue
        value = chinese_integer(m.group())
        if value is not None:
            found.append((m.start(), m.end(), value))
    return sorted(found)
