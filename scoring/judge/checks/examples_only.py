"""A general claim shown only at particular values.

A proof that a statement holds for every n cannot consist of checking n = 1, 2, 3. The reading:
in a proof, variables are given particular values in steps of their own ("for n = 1: ...",
"当n=2时", "let a = 3 and b = 5"), and no step before the conclusion reasons about them in
general: no identity in such a variable (a relation that holds for most of its values, as
"n^2 + n = n(n + 1)" does and "a + b = 8" with a = 3, b = 5 does not), no relation in a variable
never given a value, and no words of general reasoning (any, arbitrary, suppose, induction; 任意, 设, 假设, 归纳). It
takes two or more values of one variable, or one value where the problem or the conclusion claims
the statement for every case (all, every, any, always; 任意, 所有, 总). A problem that asks for
existence (there exists, some, a counterexample; 存在) is proved by an example, and is left
alone. The finding is on the last step, which draws the general conclusion.

It only warns (`examples_only`): the development data hold too few such proofs to measure its
precision, so it moves no label; the grade asks for a person (`proof_by_example`).
"""

from __future__ import annotations

from collections import defaultdict

from scoring.judge.findings import Finding
from scoring.judge.input import JudgeInput
from scoring.parse.differ import differ
from scoring.parse.equations import Relation, extract_relations, single_value
from scoring.parse.lexicon import SUPPOSE_WORDS, words
from scoring.parse.numeric import Value

# Words that introduce reasoning about every value at once.
_GENERAL = words(
    SUPPOSE_WORDS,
    (
        r"\bany\b",
        r"\barbitrary\b",
        r"\bevery\b",
        r"\bfor all\b",
        r"\bgeneral",
        r"\binduction\b",
        r"\blet\s+\$?\\?[a-z]\$?\s+be\b",
        r"\bfor some\b",
        r"\bwithout loss\b",
        r"\bwlog\b",
        "任意",
        "任取",
        "一般",
        "归纳",
        "设",
        "对所有",
        "对一切",
        "对于所有",
        "不妨",
    ),
)
# A claim about every case.
_UNIVERSAL = words(
    (
        r"\ball\b",
        r"\bevery",
        r"\bany\b",
        r"\balways\b",
        r"\beach\b",
        "任意",
        "所有",
        "一切",
        "总",
        "都",
        "恒",
    )
)
# A claim that something exists: an example proves it.
_EXISTENTIAL = words(
    (
        r"\bexist",
        r"\bthere (?:is|are)\b",
        r"\bsome\b",
        r"\bat least one\b",
        r"\bcounter-?example",
        r"\bnot (?:all|every|always)\b",
        "存在",
        "反例",
        "至少有一",
    )
)


def _free(rel: Relation) -> set[str]:
    exprs = (rel.lhs_expr, rel.rhs_expr)
    return {s.name for e in exprs if e is not None for s in e.free_symbols}


def _fixed(relations: list[Relation]) -> dict[str, Value]:
    """The variables a step gives one particular value ("n = 2")."""
    return dict(v for r in relations if (v := single_value(r)) is not None)


def find_examples_only(inp: JudgeInput) -> list[Finding]:
    """An `examples_only` finding on the last step of a proof that only checks examples."""
    if inp.problem_type != "proof" or len(inp.steps) < 2:
        return []
    body = inp.steps[:-1]
    values: dict[str, set[Value]] = defaultdict(set)
    general: set[str] = set()
    for step in body:
        relations = extract_relations(step)
        for name, value in _fixed(relations).items():
            values[name].add(value)
        for rel in relations:
            if single_value(rel) is not None or not (free := _free(rel)):
                continue
            if free - set(values) or (rel.op == "=" and differ(rel.lhs, rel.rhs) is False):
                general |= free
    if any(_GENERAL.search(step) for step in body) or _EXISTENTIAL.search(inp.problem):
        return []
    universal = bool(_UNIVERSAL.search(inp.problem) or _UNIVERSAL.search(inp.steps[-1]))
    shown = {
        name: vals
        for name, vals in values.items()
        if name not in general and (len(vals) >= 2 or universal)
    }
    if not shown:
        return []
    name, vals = min(shown.items())
    listed = ", ".join(str(v) for v in sorted(vals)[:4])
    return [
        Finding(
            "examples_only",
            len(inp.steps) - 1,
            f"the claim is shown only for {name} = {listed}; no step argues it for every {name}",
        )
    ]
