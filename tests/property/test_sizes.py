"""A 10,000-step solution through each entry point once, within bounds stated as in the property
tests (`test_scoring.py`): segmentation and alignment 20 s, extraction and parsing 10 s, the
judge 10 s + 50 ms a step (2,000 steps in `make test`, 10,000 in `make fuzz`: it is linear,
about 3 ms a step on a quiet machine), a whole grade 120 s (it takes at most 500 steps)."""

from __future__ import annotations

import random

from agent.context import Context
from agent.grader import Grader
from eval_sets.fakes.embedder import hashed_bag_of_words
from scoring.align.realign import align_steps
from scoring.answer.extract import answer_candidates, find_answer
from scoring.judge import JudgeInput, judge_steps
from scoring.parse.mathparse import parse_math
from scoring.schema import MAX_STEPS, GradeRequest
from scoring.steps.segment import segment_steps
from scoring.verdict import AnswerVerdict

from .strategies import PROFILE_NAME
from .test_scoring import within

N = 10_000
JUDGED = N if PROFILE_NAME == "fuzz" else 2_000


def _looping_solution(n: int) -> list[str]:
    """A solution that loops: arithmetic, definitions, prose, huge powers, some of it wrong
    (short lines: 10,000 of them fit in a request's 200,000 characters)."""
    rng = random.Random(n)
    lines = []
    for _ in range(n):
        a, b = rng.randint(1, 10 ** rng.randint(1, 5)), rng.randint(1, 99)
        lines.append(
            rng.choice(
                [
                    f"${a}+{b}={a + b + rng.randint(0, 1)}$",
                    f"Let $x={a}$.",
                    f"${b}\\times{b}={b * b}$",
                    f"所以答案是{b}。",
                    "We check.",
                    f"$10^{{400}}-10^{{399}}={b}$",
                    f"So $y=x+{b}$.",
                ]
            )
        )
    return lines


STEPS = _looping_solution(N)
TEXT = "\n".join(STEPS)


def test_segmentation_and_extraction_of_10000_lines():
    with within(20, "segment 10,000 lines"):
        segmented = segment_steps(TEXT, "auto")
    assert len(segmented) >= N
    with within(10, "answer of 10,000 lines"):
        find_answer(TEXT)
        answer_candidates(TEXT)
    with within(10, "parse 200,000 characters"):
        assert parse_math("1" * 200_000) is None


def _slip(step: str) -> bool:
    """`$a+b=c$` with c = a + b + 1 (the generator's wrong sums)."""
    if not step.startswith("$") or "+" not in step or "=" not in step:
        return False
    left, right = step.strip("$").split("=")
    a, b = left.split("+")
    return right.isdigit() and int(a) + int(b) + 1 == int(right)


def test_judge_is_linear_in_the_steps():
    inp = JudgeInput("Compute y.", STEPS[:JUDGED], "calculation", AnswerVerdict("5", ("5",), False))
    with within(10 + 0.05 * JUDGED, f"judge {JUDGED} steps"):
        verdicts = judge_steps(inp)
    assert len(verdicts) == JUDGED
    slips = [v.p_wrong for step, v in zip(STEPS, verdicts, strict=False) if _slip(step)]
    sound = [v.p_wrong for step, v in zip(STEPS, verdicts, strict=False) if "\\times" in step]
    assert slips and sound and min(slips) > sum(sound) / len(sound), (
        "a false sum is likelier wrong than a product"
    )


def test_alignment_of_10000_steps():
    with within(20, "align 10,000 steps"):
        result = align_steps(STEPS[:12], STEPS, embedder=hashed_bag_of_words)
    assert len(result.step_similarity) == N


def test_a_grade_takes_at_most_500_steps():
    grader = Grader(Context(embedder=hashed_bag_of_words))
    request = GradeRequest(
        problem="Compute y.", solution=TEXT, reference_answer="5", mode="offline"
    )
    with within(120, "grade 10,000 lines"):
        report = grader.grade(request)
    assert len(report.steps) == MAX_STEPS
    assert any(w.startswith(f"segmentation: {N}") for w in report.meta.warnings)
    assert report.meta.failed_checks == []
