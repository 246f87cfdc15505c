"""Structural hints that a step may be wrong, none decidable by itself:

- `unexplained_number`: a number neither the problem nor an earlier step explains
  (`scoring.judge.checks.provenance`); `unexplained_unused` when, besides, no later step uses it: an unshown
  mental computation is made to be used, a changed number (ReasonEval "random number") is not,
  since the steps after it were written with the original;
- `odd_copy`: a copy of an expression that differs from two other copies in one number or
  operator (`scoring.judge.checks.restatement`);
- `early_answer`: the final answer stated before the work it depends on (`scoring.judge.checks.ordering`);
- `off_topic`: a solution whose steps as a whole do not resemble the problem (embedding
  similarity), for each of its least similar steps.
"""

from __future__ import annotations

from scoring.judge.checks.ordering import early_answer
from scoring.judge.checks.provenance import unexplained_numbers
from scoring.judge.checks.restatement import odd_copies
from scoring.judge.findings import Finding
from scoring.judge.input import JudgeInput
from scoring.parse.equations import extract_relations
from scoring.parse.quantities import literal_numbers

OFF_TOPIC_MEAN = 0.25
OFF_TOPIC_STEP = 0.3


def find_unexplained(inp: JudgeInput) -> list[Finding]:
    steps = inp.steps
    relations = [extract_relations(s) for s in steps]
    unexplained = unexplained_numbers(inp.problem, steps, relations)
    later: list[set[str]] = [set() for _ in steps]
    after: set[str] = set()
    for i in range(len(steps) - 1, -1, -1):
        later[i] = set(after)
        after |= set(literal_numbers(steps[i]))
    found: list[Finding] = []
    for i, numbers in enumerate(unexplained):
        if not numbers:
            continue
        unused = [n for n in numbers if n not in later[i]] if i < len(steps) - 1 else []
        shown = ", ".join((unused or numbers)[:3])
        if unused:
            found.append(Finding("unexplained_unused", i, f"mentions {shown}, which neither the "
                                 "problem nor an earlier step explains and no later step uses"))
        else:
            found.append(Finding("unexplained_number", i, f"mentions {shown}, which neither the "
                                 "problem nor an earlier step explains"))
    return found


def find_odd_copies(inp: JudgeInput) -> list[Finding]:
    return [Finding("odd_copy", i, copies[0].detail)
            for i, copies in enumerate(odd_copies(inp.problem, inp.steps)) if copies]


def find_early_answer(inp: JudgeInput) -> list[Finding]:
    early = early_answer(inp.problem, inp.steps, inp.answer.extracted)
    return [] if early is None else [Finding("early_answer", early.step, early.detail)]


def find_off_topic(inp: JudgeInput) -> list[Finding]:
    sims = inp.problem_similarity
    if not sims or sum(sims) / len(sims) >= OFF_TOPIC_MEAN:
        return []
    return [Finding("off_topic", i, f"unrelated to the problem (similarity {s:.2f})")
            for i, s in enumerate(sims) if s < OFF_TOPIC_STEP]
