"""Where a solution states its final answer (docs/architecture.md 4.7): marked forms first, then guesses.

A stated answer (boxed, "Final Answer:", 【...】 after 最终答案, "# Answer", "the answer is",
"Answer:", 答案：) beats any number found in the prose around it. Only a solution that states
none falls back to guesses, and those are marked unanchored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from scoring.answer.clean import bare, is_prose, readable
from scoring.parse.enumeration import enumeration_start
from scoring.parse.lexicon import (
    AMOUNT_UNITS,
    ANSWER_WORDS,
    DIGIT,
    FINAL_ANSWER_WORDS,
    LEAD_WORDS,
    LOOSE_GROUPED,
    NO_WORDS,
    OTHER_ANSWER_WORDS,
    PERCENT_SIGN,
    UNESCAPED_DOLLAR,
    YES_WORDS,
    chinese_clock_times,
    delimiters,
    joiners,
    latex,
    operators,
    punctuation,
    relations,
)
from scoring.parse.lexicon.labels import CJK_STEP, STEP_LABEL, STEP_NUMERAL
from scoring.parse.mathspans import math_spans, strip_math
from scoring.parse.number_words import numbers_in_words

_BOXED = re.compile(latex.BOX + r"\s*\{")
_CN_FINAL = re.compile(r"最终答案\s*[:：]?\s*【")
_LAST_BRACKET = re.compile(r"【([^【】]*)】\s*[。.]?\s*$")
# "Final answer:" and its Chinese, 最终答案：/最终答案是 (the 【...】 form is `_CN_FINAL`)
_FINAL = re.compile(
    r"(?:"
    + "|".join(FINAL_ANSWER_WORDS)
    + r")\s*(?:is|是|为)?\s*[:：]?\s*(?:the final answer is\s*)?",
    re.IGNORECASE,
)
_HASH_ANSWER = re.compile(r"^#\s*Answer\s*$", re.IGNORECASE | re.MULTILINE)
_ANSWER_IS = re.compile(r"\bthe (?:final )?answer is\s*[:：]?\s*", re.IGNORECASE)
# "Answer:" opening a line (markdown emphasis allowed) or a sentence ("So 91 is prime. Answer:
# Yes"), in the languages of the public suites
_ANSWER_COLON = re.compile(
    r"(?:^|(?<=["
    + punctuation.mark_class(punctuation.LATIN_SENTENCE_ENDS, punctuation.CJK_SENTENCE_ENDS)
    + r"])[ \t]+)[\s*#_>]*(?:"
    + "|".join(ANSWER_WORDS + OTHER_ANSWER_WORDS)
    + r")(?:[\s*_]*[:：][\s*_]*|[ \t]+(?=\$|\\[(\[]))",
    re.IGNORECASE | re.MULTILINE,
)
_CN_ANSWER = re.compile(r"答案(?:是|为)\s*[:：]?\s*")
_GSM8K = re.compile(r"####\s*(.+)")
# A number written in prose: a fraction (its sign too), or digits not glued to a letter before
# them (the 2 of `AZYUK2A` or `x2` is part of a name) with thousands separated by commas or
# spaces (`1 000`, `12 345`), a decimal with or without its leading zero (`.4`, `-.5`), an
# optional `/n` and percent sign.
_NUMBER = re.compile(
    r"[-−]?\s?"
    + latex.fraction("[^{}]+", "[^{}]+", latex.ANY_FRAC)
    + r"|[-−]?(?<![A-Za-z\d.])(?:\d{1,3}(?: \d{3})+(?![\d.,]| \d)(?:\.\d+)?|"
    + LOOSE_GROUPED
    + r"|\.\d+)(?:/\d+)?(?:\s*"
    + PERCENT_SIGN
    + ")?"
)
_LEADING_MATH = re.compile(r"\s*(?:" + delimiters.wrapped_math(".+?", escaped_dollar=True) + ")")
_LEADING_VALUE = re.compile(r"\s*(?:[-+(\[{]|\\frac|\\sqrt|\d)")
_SENTENCE_END = re.compile(r"\.\s|。|；|;")
# Formulas written in prose without delimiters, which a sentence states whole: an interval or a
# union of them ("范围是[1,2)", "(1,+∞)"), a condition on a variable ("a 的取值范围是 a>2").
_END = r"[-+]?(?:\d+(?:\.\d+)?|∞|\\infty)"
_ONE_INTERVAL = r"[\[(（]\s*" + _END + r"\s*[,，]\s*" + _END + r"\s*[\])）]"
_PLAIN_INTERVAL = re.compile(_ONE_INTERVAL + r"(?:\s*(?:∪|\\cup)\s*" + _ONE_INTERVAL + ")*")
_SIGN = r"\s*(?:" + relations.relation_alternatives(relations.BOUND) + r")\s*"
_PLAIN_CONDITION = re.compile(
    r"(?:" + _END + _SIGN + r")?(?<![A-Za-z])[A-Za-z](?![A-Za-z])" + _SIGN + _END
)
_PART_BREAK = re.compile(
    r"\s*(?:" + joiners.joiner_alternatives(joiners.LIST) + r")\s*", re.IGNORECASE
)
_SENTENCE_STOP = re.compile(
    rf"(?<=[{punctuation.mark_class(punctuation.LATIN_SENTENCE_ENDS)}])\s+"
    rf"|[{punctuation.mark_class(punctuation.CJK_SENTENCE_ENDS)}]"
)
_LEAD = re.compile(
    r"^(?:(?:" + "|".join(LEAD_WORDS) + r")(?![A-Za-z])\s*[,，:：]?\s*)+", re.IGNORECASE
)
_JOINING = joiners.joiner_pattern(joiners.STATEMENTS, re.IGNORECASE)
_MAX_STATEMENT = 80
_ANY_DELIMITER = re.compile(delimiters.DELIMITER_SIGN)
_INEQUALITY = relations.relation_pattern(relations.INEQUALITY)
_RELATION_SIGN = relations.relation_pattern(relations.EQUATION_OR_INEQUALITY)
_FULL_STOP = re.compile(r"\.\s|\.$|。")
_VERDICT_FIRST = re.compile(
    r"(?:"
    + "|".join(sorted(map(re.escape, YES_WORDS + NO_WORDS), key=len, reverse=True))
    + r")(?:的)?\s*[,，;；、]",
    re.IGNORECASE,
)
# "The answer is 7, not 8": the value the sentence rules out is not part of the answer
_NEGATED_TAIL = re.compile(r"\s*[,;，；]\s*(?:and\s+|but\s+)?not\s+[^,;，；]*$", re.IGNORECASE)
_MATH_INLINE = re.compile(r"\$([^$]+)\$|\\\((.+?)\\\)")
_DELIMITERS = re.compile(delimiters.DELIMITERS_AT_EDGES)
# What may stand between two parts of one answer: spacing, delimiters, commas, "and"/"or", a
# variable's label ("\boxed{3} and \(y = \boxed{4}\)"), a part's label ("\boxed{(3,3)} for
# part (a) and \boxed{(1,1)}"), any of these inside `\text{}`; and, right after the first part,
# one word before a connective, its unit ("\boxed{1} papers and \boxed{2} bins"), unless the
# word comments on the part ("\boxed{3} wrong, \boxed{4}", "\boxed{2} then, \boxed{5}").
_GAP = (
    r"\s|\$|\\[()\[\]]|\\q?quad|\\[,;]|"
    + joiners.joiner_alternatives(joiners.BOXED_PARTS)
    + r"|[A-Za-z](?:_\{?\w+\}?)?\s*="
    r"|(?:\bfor\s+)?(?:\bpart\s+)?[(（]\s*(?:[a-z]|[ivx]{1,4}|\d{1,2})\s*[)）]\s*[:：]?"
    r"|\bpart\s+[a-z]\b"
)
_COMMENT_WORDS = (
    r"not|but|so|then|thus|hence|therefore|also|which|is|are|was|were|wrong|"
    r"incorrect|correct|true|false|yes|no|or|and"
)
_JOINER = re.compile(
    r"^\s*(?:(?:\\text\s*\{\s*)?(?!(?:" + _COMMENT_WORDS + r")\b)[A-Za-z]{2,12}(?:\s*\})?"
    r"(?=\s*(?:[,，;；]|\band\b|\\text)))?"
    r"(?:" + _GAP + r"|\\text\s*\{(?:" + _GAP + r")*\})*$",
    re.IGNORECASE,
)
_MAX_GAP = 120
_NAME_ONLY = re.compile(r"^\s*[A-Za-z](?:_\{?\w+\}?)?\s*$")
_ARITHMETIC = operators.operator_alternatives(operators.ARITHMETIC)
_COMPUTATION = re.compile(r"^[\d.,\s()]*(?:(?:" + _ARITHMETIC + r")[\d.,\s()]*)+$")
_OPERATOR = re.compile(r"(?<=[\d)\s])(?:" + _ARITHMETIC + ")")


def _clean(answer: str) -> str | None:
    """The answer without its enclosing math delimiters and closing punctuation; math spans
    joined by words (`$x<1$ 或 $x>2$`) keep theirs, or the words would sit inside the math."""
    text = answer.strip()
    text = _unwrap(text)
    text = text.rstrip("。.，,;；").strip()
    text = _unwrap(text)
    return text or None


def _unwrap(text: str) -> str:
    inner = _DELIMITERS.sub("", text).strip()
    return text if UNESCAPED_DOLLAR.search(inner) else inner


def joined(text: str, spans: list[tuple[int, int, str]]) -> str | None:
    """The last part and the parts before it that only connectives separate, joined with ", ".

    `spans` are (start, end, content) in order: several boxes, or several math spans, that state
    one answer in parts ("\\boxed{-1} and \\boxed{-9}" -> "-1, -9").
    """
    if not spans:
        return None
    group = [spans[-1]]
    for span in reversed(spans[:-1]):
        gap = text[span[1] : group[0][0]]
        if len(gap) > _MAX_GAP or not _JOINER.match(gap):
            break
        group.insert(0, span)
    parts = [c for c in (_clean(s[2]) for s in group) if c]
    return ", ".join(parts) if parts else None


def _boxes(text: str) -> list[tuple[int, int, str]]:
    """Every `\\boxed{}` that closes, braces counted, as (start, end, content) in order, in one
    pass over the text (scanning on from every opening took quadratic time on text full of them)."""
    openings = {m.end(): m.start() for m in _BOXED.finditer(text)}
    if not openings:
        return []
    found = []
    open_braces: list[int] = []
    for i, ch in enumerate(text):
        if ch not in "{}" or (i and text[i - 1] == "\\"):
            continue
        if ch == "{":
            open_braces.append(i + 1)
        elif open_braces and (start := open_braces.pop()) in openings:
            found.append((openings[start], i + 1, text[start:i]))
    return sorted(found)


def _value_in(clause: str, problem: str = "") -> str:
    """The value a clause after an answer marker states.

    A clause that opens with a value, or is a formula, is the answer as written ("12 apples",
    "x^2 + 1"); a sentence in words gives its last formula that is not a bare name ("the
    largest $n$ is $34$"), else an interval or a condition written without delimiters ("范围是
    [1,2)", "a>2"), else, when its parts (cut at commas, semicolons and "and") each state one
    number, those numbers as a list ("面积40平方厘米，周长26厘米": `40, 26`, the answers to a
    question asked in two parts), else its first number that the problem does not state
    ("答：买8支铅笔要4元。" for a problem that buys 8 pencils: 4), else its first number ("Janeth
    paiera encore 220 $ d'ici 12 mois"); numbers written in words count when it writes none in
    digits ("So the answer is five.", "答：共有五个。"). A sentence that gives a named object's
    value ("The volume of $ABCDEFGH$ is 120.") states what follows its verb (`_copula_value`).
    """
    if _LEADING_VALUE.match(clause) or not is_prose(clause):
        return clause
    if (stated := _copula_value(clause)) is not None:
        return _value_in(stated, problem)
    formulas = [clause[s:e] for s, e in math_spans(clause)]
    formulas = [f for f in formulas if not _NAME_ONLY.match(_clean(f) or "")]
    if formulas:
        return formulas[-1]
    if written := _PLAIN_INTERVAL.findall(clause) or _PLAIN_CONDITION.findall(clause):
        return written[-1]
    prose = strip_math(clause)
    if listed := _listed(prose):
        return listed
    if pair := _TWO_NUMBER_VALUE.search(prose):
        return pair.group()  # `答：是10:15。`: a time, not its hours
    numbers = _NUMBER.findall(prose) or [str(v) for _, _, v in numbers_in_words(prose)]
    given = set(_NUMBER.findall(problem))
    return next((n for n in numbers if n not in given), numbers[0]) if numbers else clause


# The verb that gives a value to what a sentence names ("... is 120", "... 是 120"), and the
# words that open a clause of its own ("$\frac{a}{b}$, where $a$ is 3")
_COPULA = re.compile(r"\b(?:is|are|was|were|equals|becomes)\b|是|为|等于", re.IGNORECASE)
_SUBORDINATE = re.compile(
    r"\b(?:where|when|if|since|because|given)\b|其中|当|若|如果|因为", re.IGNORECASE
)


def _copula_value(clause: str) -> str | None:
    """What a sentence states of a named object: "The volume of $ABCDEFGH$ is 120." gives
    "120", since a formula without a digit before the verb (`$ABCDEFGH$`, `$f(x)$`) names the
    object whose value follows it; None when the sentence names no object in a formula before
    its last verb outside math, states no value after it (digits, a formula or a number in
    words), or gives that verb in a clause of its own ("the answer is $\\frac{a}{b}$, where $a$
    is 3" states the fraction)."""
    spans = math_spans(clause)

    def outside(m: re.Match[str]) -> bool:
        return not any(a <= m.start() < b for a, b in spans)

    verbs = [m for m in _COPULA.finditer(clause) if outside(m)]
    if not verbs or any(outside(m) for m in _SUBORDINATE.finditer(clause, 0, verbs[-1].start())):
        return None
    verb = verbs[-1]
    named = any(b <= verb.start() and not DIGIT.search(clause[a:b]) for a, b in spans)
    after = clause[verb.end() :]
    states = (
        DIGIT.search(after) or any(a >= verb.end() for a, _ in spans) or numbers_in_words(after)
    )
    return after.strip() if named and states else None


def _listed(prose: str) -> str | None:
    """The numbers of a sentence whose parts (cut at commas, semicolons and "and") each state
    one, as a list ("The solutions are 2 and 3": `2, 3`); None otherwise."""
    parts = [_NUMBER.findall(p) for p in _PART_BREAK.split(prose) if p.strip()]
    if len(parts) >= 2 and all(len(found) == 1 for found in parts):
        return ", ".join(found[0] for found in parts)
    return None


def _after_marker(text: str, problem: str = "") -> str:
    """The answer after a marker: what a sentence that names an object states of it
    (`_copula_value`), else the leading math span, else the value in the sentence; a sentence
    that opens with a verdict word is the answer as written, to its full stop (in "不是；5" and
    "yes, 3" the verdict is one part of the answer, the value another)."""
    line = chinese_clock_times(next((ln for ln in text.splitlines() if ln.strip()), "")).lstrip(
        "*_:： "
    )
    sentence = _NEGATED_TAIL.sub("", _SENTENCE_END.split(line, 1)[0])
    if stated := _copula_value(sentence):
        return _value_in(stated, problem)  # "$ABCD$ 的面积是 40": not the object's name
    if m := _LEADING_MATH.match(line):
        return next(g for g in m.groups() if g is not None)
    if _VERDICT_FIRST.match(line):
        return _FULL_STOP.split(line, 1)[0]
    return _value_in(sentence, problem)


def _before_marker(text: str, marker_end: int, marker_start: int) -> str | None:
    """The answer a marker that closes its sentence points back to ("so $x = -1$, and that is
    our final answer."): nothing but punctuation follows the marker on its line, and the line
    states a value before it, the right-hand side of its last formula's equation (the formula
    itself if it has none), else its last number written in prose."""
    rest = text[marker_end:].split("\n", 1)[0]
    if rest.strip(" \t.。!！*_"):
        return None
    line = text[text.rfind("\n", 0, marker_start) + 1 : marker_start]
    formulas = [f for f in (_clean(line[s:e]) for s, e in math_spans(line)) if f]
    if formulas:
        return _clean(sides(formulas[-1])[-1])
    numbers = _NUMBER.findall(strip_math(line))
    return _clean(numbers[-1]) if numbers else None


def sides(formula: str) -> list[str]:
    """The sides of an equation (or chain), cut at each `=` outside braces and brackets: the `=`
    of `\\sum_{k=0}` or `f(x=1)` is no equation's sign."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(formula):
        if ch in "{([":
            depth += 1
        elif ch in "})]":
            depth = max(0, depth - 1)
        elif ch == "=" and depth == 0:
            out.append(formula[start:i])
            start = i + 1
    return [*out, formula[start:]]


def _closing_lines_start(text: str, lines: int = 3) -> int:
    """Where the last `lines` non-empty lines begin."""
    starts = [m.start() for m in re.finditer(r"^[ \t]*\S", text, re.MULTILINE)]
    return starts[-lines] if len(starts) >= lines else 0


@dataclass(frozen=True)
class FoundAnswer:
    """An answer and whether the solution marked it as such (boxed, "final answer", ...)."""

    text: str | None
    anchored: bool


_MARKERS = (_FINAL, _HASH_ANSWER, _ANSWER_IS, _ANSWER_COLON, _CN_ANSWER)


def _marked(text: str, problem: str, after: int = 0, back: bool = True) -> str | None:
    """The answer the last marker of the first family that has one states (`_MARKERS`, in
    order), among the markers from `after` on; with `back`, a marker that closes its sentence
    gives what the sentence stated before it (`_before_marker`)."""
    for pattern in _MARKERS:
        hits = list(pattern.finditer(text, after))
        if pattern is _ANSWER_COLON:  # a heading "Answer:" may open the working, not close it
            hits = [h for h in hits if h.start() >= _closing_lines_start(text)]
        if hits:
            last = hits[-1]
            answer = _clean(_after_marker(text[last.end() :], problem))
            if not answer and back:
                answer = _before_marker(text, last.end(), last.start())
            if answer:
                return answer
    return None


def _stated_after(text: str, after: int, problem: str) -> str | None:
    """The value a final-answer marker after position `after` (the last box's end) states: "The
    final answer is $10,455$" after an intermediate `\\boxed{255}` is the answer. None when no
    marker follows, or what follows it states no value ("the answer is in the box above")."""
    cn = list(_CN_FINAL.finditer(text, after))
    answer = (
        _clean(text[cn[-1].end() :].split("】", 1)[0])
        if cn
        else _marked(text, problem, after, back=False)
    )
    if (
        answer is None
        or is_prose(answer)
        and not (DIGIT.search(answer) or numbers_in_words(answer))
    ):
        return None
    return answer


def find_answer(text: str, problem: str = "") -> FoundAnswer:
    """The final answer a solution states, and whether it was marked; `problem`, when given,
    tells a number the answer sentence repeats from the question from the one it answers.

    In order: the last `\\boxed{}`/`\\fbox{}` (with the boxes just before it that only "and",
    commas, spacing or part labels separate), unless a final-answer marker after it states a
    value (the box was an intermediate result: `_stated_after`); StepMathBench's
    `最终答案：【...】`, "Final Answer:", PRM800K's "# Answer", "the answer is", "Answer:",
    "答案是/为", GSM8K's "####" (a marker that closes its sentence marks what the sentence
    stated before it); then, unmarked, the answers the last line enumerates, the formula its
    last sentence states, the right-hand side of its last math span's equation, a last line
    that is an option letter alone, then the last number that is not a step's label. Markdown
    emphasis is read through, as are control characters a lost backslash left
    (`scoring.answer.clean.readable`).
    """
    if not text or not text.strip():
        return FoundAnswer(None, False)
    text = readable(text)
    boxes = _boxes(text)
    if boxes and (later := _stated_after(text, boxes[-1][1], problem)):
        return FoundAnswer(later, True)
    if boxed := joined(text, boxes):
        return FoundAnswer(boxed, True)
    cn = list(_CN_FINAL.finditer(text))
    if cn:
        rest = text[cn[-1].end() :]
        return FoundAnswer(_clean(rest.split("】", 1)[0]), True)
    if m := _LAST_BRACKET.search(text):
        return FoundAnswer(_clean(m.group(1)), True)
    if answer := _marked(text, problem):
        return FoundAnswer(answer, True)
    if echoes := _GSM8K.findall(text):
        return FoundAnswer(_clean(echoes[-1]), True)
    return FoundAnswer(_fallback(text), False)


def extract_answer(text: str) -> str | None:
    """The final answer a solution states (marked, else the best guess), or None."""
    return find_answer(text).text


def is_computation(expr: str) -> bool:
    """Numbers joined by arithmetic (`52 + 24 + 44`, `\\frac{33 \\div 33}{663 \\div 33}`): a
    calculation on the way to a result, not a result; a single fraction `1/21` is a value."""
    flat = re.sub(latex.fraction("([^{}]*)", "([^{}]*)", r"\\frac"), r"(\1)/(\2)", bare(expr))
    if not _COMPUTATION.match(flat):
        return False
    signs = _OPERATOR.findall(flat)
    return len(signs) > 1 or (len(signs) == 1 and signs[0] != "/")


def answer_candidates(text: str, lines: int = 2, limit: int = 8) -> list[str]:
    """What an unmarked answer may be, from the last `lines` non-empty lines.

    A solution that never marks its answer usually states it in its closing sentence, but not
    always as the last number. A last line that states its answers under enumeration marks
    ("综上，(1)3；(2)4", `scoring.parse.enumeration`), or whose last sentence states a condition
    in plain text ("所以 1<a<2。"), gives that answer alone; otherwise the candidates are the
    relation the last sentence states in plain text ("So x = 2 or x = 3."), the spans stated
    together as one multi-part answer, each side of each math span's equations (the last first)
    and the whole equation, then the numbers written in the prose that stand as results. A
    calculation (`52 + 24 + 44 + 48`) is not a result, nor a number inside a formula (the 2 of
    `F_{k+2}`), nor an operand or a coefficient in plain text (the 7 of `2 - 7 = -5`, the 3 of
    `3x`), nor a step's label (`without_step_labels`). The numbers the last sentence states in
    prose after its last formula come before the formulas ("... so the error increases by
    100%."), and a last sentence that writes its number in words ("..., so five in all.") gives
    that number last.
    """
    text = readable(text)
    tail = "\n".join([ln for ln in text.splitlines() if ln.strip()][-lines:])
    if parts := _enumerated(tail):
        return [parts]  # the closing line's whole answer; a part of it alone is not
    statement = _closing_statement(tail)
    if statement and _INEQUALITY.search(statement):
        return [statement]  # a condition: its bounds are not the answer
    spans = [(s, e, tail[s:e]) for s, e in math_spans(tail)]
    found: list[str] = _verdicts(tail)
    if statement:
        found.append(statement)
    if listed := _listed(strip_math(_last_sentence(tail))):
        found.append(listed)
    if len(spans) > 1 and (together := joined(tail, spans)) and "," in together:
        found.append(together)
    # the same lines with the steps' labels blanked (a numbered list is told on the whole text)
    unlabelled = "\n".join(
        [ln for ln in without_step_labels(text).splitlines() if ln.strip()][-lines:]
    )
    sentence = _last_sentence(unlabelled)
    closing = math_spans(sentence)
    found += reversed(_result_numbers(sentence[closing[-1][1] if closing else 0 :]))
    for _, _, span in reversed(spans):
        content = _clean(span) or ""
        found += [*_results_of(content), content] if "=" in content else [content]
    found += reversed(_result_numbers(strip_math(unlabelled)))
    prose = strip_math(sentence)
    digits = [m.end() for m in DIGIT.finditer(prose)]
    if in_words := [v for a, _, v in numbers_in_words(prose) if not digits or a > digits[-1]]:
        found.append(str(in_words[-1]))
    unique = [
        c
        for c in dict.fromkeys(c for c in (_clean(f) for f in found) if c)
        if not is_computation(c)
    ]
    return unique[:limit]


# A number that an operator or a relation sign follows on its line is an operand (the 2 and 7
# of `2 - 7 = -5`), as is one that an operator other than `=` comes before (the 7); one glued
# to a letter that the text also writes alone is its coefficient (the 3 of `3x = 9, so x = 3`);
# glued to a letter it does not, a unit (`5m`).
_OPERAND_AFTER = re.compile(r"[ \t]*[-+*/×÷·^=<>≤≥]")
_OPERAND_BEFORE = re.compile(r"[-+*/×÷·^][ \t]*$")
_SIGN_AS_OPERATOR = re.compile(r"(?:\d|\)|(?<![A-Za-z])[A-Za-z])[ \t]*$")
_GLUED_LETTER = re.compile(r"([A-Za-z])(?![A-Za-z])")


# A value written in two numbers: a clock time or a ratio (`4:15 pm`, `3:5`, `3 : 5`; not the
# label of `Step 2: 15`), a mixed number (`8 1/2`), an amount in two units (`1小时45分钟`,
# `1 hour 45 minutes`, `3元5角`). Its parts alone are not what it says.
_TWO_NUMBER_VALUE = re.compile(
    r"(?<![\d:/.])(?:\d{1,2}:\d{2}(?:\s*(?:[ap]\.?m\.?)(?![A-Za-z]))?|\d+:\d+|\d+ : \d+"
    r"|\d+\s+\d+/\d+|\d+\s*小时\s*\d+\s*分钟?|\d+\s*元\s*\d+\s*[角毛](?:\s*\d+\s*分)?"
    r"|\d+\s*(?:hours?|hrs?)\s+(?:and\s+)?\d+\s*(?:minutes?|mins?)(?![A-Za-z]))(?![\d:/])",
    re.IGNORECASE,
)


def _result_numbers(prose: str) -> list[str]:
    """The numbers of `prose` that stand as results: alone, or on the right of an `=`; a value
    written in two numbers (`4:15 pm`, `3:5`, `8 1/2`) is one."""

    def operand(m: re.Match[str]) -> bool:
        return bool(
            _OPERAND_AFTER.match(prose, m.end()) or _OPERAND_BEFORE.search(prose[: m.start()])
        )

    pairs = list(_TWO_NUMBER_VALUE.finditer(prose))
    out = [m.group() for m in pairs if not operand(m)]
    for m in _NUMBER.finditer(prose):
        if any(p.start() <= m.start() < p.end() for p in pairs):
            continue
        if m.group()[0] in "-−" and _SIGN_AS_OPERATOR.search(prose[: m.start()]):
            continue  # `2 -7`: the sign is the operator, 7 an operand
        if operand(m):
            continue
        glued = _GLUED_LETTER.match(prose, m.end())
        if glued and re.search(r"(?<![\w\\])" + glued.group(1) + r"(?![\w])", prose):
            continue
        unit = _AMOUNT_UNIT.match(prose, m.end())
        out.append(m.group() + (unit.group() if unit else ""))  # `75 cents`, not 75 dollars
    return out


# A unit of time or money after a result: part of it (`scoring.answer.readings.measures`).
_AMOUNT_UNIT = re.compile(r"\s*(?:" + AMOUNT_UNITS + r")(?![A-Za-z])", re.IGNORECASE)
_COMPUTED = operators.operator_pattern(operators.COMPUTING)


def _results_of(equation: str) -> list[str]:
    """The sides of an equation that may be its result, the last first: the last side, and the
    earlier ones that state a value rather than compute one (`1250\\text{ dollars} =
    1,000,000\\text{ lire}`). `\\frac{180}{2.5} = 90` computed 180/2.5, which may equal the
    reference the step then missed: not a result."""
    *before, last = sides(equation)
    return [last, *(side for side in reversed(before) if not _COMPUTED.search(side))]


def _verdicts(text: str) -> list[str]:
    """The sentences of `text` that open with a verdict word ("Yes.", "No, 0.5 is smaller."),
    the last first: a yes/no answer, which no number of the lines is."""
    from scoring.answer.readings.words import yes_no  # the readings package imports this one

    sentences = [
        p.strip()
        for line in reversed(text.splitlines())
        for p in reversed(_SENTENCE_STOP.split(line))
        if p.strip()
    ]
    return [p for p in sentences if yes_no(p) is not None]


def _last_line(text: str) -> str:
    """The last line of `text` that is not blank ("" for none)."""
    return next((ln for ln in reversed(text.splitlines()) if ln.strip()), "")


def _last_sentence(text: str) -> str:
    """The last sentence of the last line of `text` that is not blank ("" for none)."""
    return next((p for p in reversed(_SENTENCE_STOP.split(_last_line(text))) if p.strip()), "")


def _closing_statement(text: str) -> str | None:
    """The relation the last sentence of `text` states in plain text, when that sentence is one
    ("So x = 2 or x = 3.", "所以 1<a<2。"): its lead word and closing punctuation removed, and
    nothing but formulas with a relation sign left (their joining words aside). Unmarked answers
    written without math delimiters are read whole, not as their last number."""
    statement = _LEAD.sub("", _last_sentence(text).strip()).strip()
    if (
        not statement
        or len(statement) > _MAX_STATEMENT
        or not DIGIT.search(statement)
        or not _RELATION_SIGN.search(statement)
        or _ANY_DELIMITER.search(statement)
        or is_prose(_JOINING.sub(" ", statement))
    ):
        return None
    return _clean(statement)


def _enumerated(text: str) -> str | None:
    """The enumerated answer (every part) that the last line of `text` ends with, or None."""
    last = _last_line(text)
    start = enumeration_start(last)
    return None if start is None else _clean(last[start:])


# An option letter alone on a line (`\text{E}`, `(E)`, `\textbf{(C)}`): the choice it states.
_OPTION_LINE = re.compile(r"^\s*(?:\\text(?:bf)?\s*\{\s*)?\(?([A-E])\)?\s*\}?\s*[.。]?\s*$")
# A step's label that may stand anywhere in a line ("... even. Step 3: So ..."), as well as at
# its start (`STEP_LABEL`)
_STEP_WORD = re.compile(
    r"\bstep\s*\d{1,3}\s*(?:[:：.)\-]|(?=\s))|" + CJK_STEP,
    re.IGNORECASE,
)


def without_step_labels(text: str) -> str:
    """The text with every step's label blanked ("Step 3:", "第三步" anywhere; "3.", "(3)"
    opening a line that goes on after them, when two lines or more open so, a numbered list):
    the number of a step is not a value the step states, and a solution (a proof above all)
    whose last number is its last step's label states no answer. A lone line "100. That is the
    total." opens with its value, not a label."""
    lines = text.split("\n")
    labels = []
    for i, line in enumerate(lines):
        start = len(line) - len(line.lstrip(" \t#>"))
        m = STEP_LABEL.match(line, start)
        if m and STEP_NUMERAL.search(m.group()) and line[m.end() :].strip():
            labels.append((i, start, m.end()))
    if len(labels) >= 2:
        for i, start, end in labels:
            lines[i] = lines[i][:start] + " " * (end - start) + lines[i][end:]
    return _STEP_WORD.sub(lambda m: " " * len(m.group()), "\n".join(lines))


def _fallback(text: str) -> str | None:
    if stated := _enumerated(text) or _closing_statement(text):
        return stated
    last = _last_line(text)
    spans = [a or b for a, b in _MATH_INLINE.findall(last)]
    if spans and len(equation := sides(spans[-1])) > 1:
        return _clean(equation[-1])
    if pair := list(_TWO_NUMBER_VALUE.finditer(strip_math(last))):
        return _clean(pair[-1].group())  # `3:5`, `4:15 pm`, `8 1/2`: not their last number
    if option := _OPTION_LINE.match(last):
        return option.group(1)
    numbers = _NUMBER.findall(without_step_labels(text))
    return _clean(numbers[-1]) if numbers else None
