"""The whole offline grade over hostile requests: always a full, valid GradeReport, in bounded
time (120 s: at most 500 steps are graded per request, `scoring.steps.segment.cap_steps`), and never
a contained failure: `meta.failed_checks` stays empty (each entry there would be a bug found)."""

from __future__ import annotations

import time

from hypothesis import given
from hypothesis import strategies as st

from agent.context import Context
from agent.grader import Grader
from eval_sets.fakes.embedder import hashed_bag_of_words
from scoring.schema import MAX_STEPS, MAX_TEXT_CHARS, GradeReport, GradeRequest

from .strategies import PROFILE, numbers, solutions, steps, texts

GRADER = Grader(Context(embedder=hashed_bag_of_words, answer_timeout=0.5))


def _fit(text: str) -> str:
    """Within what a GradeRequest accepts (no NUL, at most MAX_TEXT_CHARS): refusals are
    tested elsewhere; here every request must be graded."""
    return text.replace("\x00", "")[:MAX_TEXT_CHARS]


_TEXT = texts.map(_fit)
_PROBLEM = _TEXT.filter(lambda t: len(t) > 0)


@st.composite
def requests(draw: st.DrawFn) -> GradeRequest:
    given_steps = draw(st.booleans())
    solution = draw(steps.map(lambda s: s[:MAX_STEPS]) if given_steps else solutions)
    clean = [_fit(s) for s in solution] if given_steps else _fit(solution)
    fields: dict[str, object] = {
        "problem": draw(_PROBLEM),
        "solution_steps" if given_steps else "solution": clean,
        "reference_answer": draw(
            st.one_of(st.none(), _TEXT, numbers, st.lists(numbers, max_size=3))
        ),
        "problem_type": draw(st.sampled_from([None, "calculation", "proof", "open_ended"])),
        "language": draw(st.sampled_from(["auto", "en", "zh"])),
        "modules": draw(
            st.fixed_dictionaries(
                {},
                optional={
                    k: st.booleans() for k in ("difficulty", "simplicity", "completeness", "format")
                },
            )
        ),
        "mode": "offline",
    }
    reference = draw(st.one_of(st.none(), st.lists(_TEXT, max_size=8)))
    if reference is not None:
        fields["reference_steps"] = reference
    return GradeRequest.model_validate(fields)


@PROFILE
@given(requests())
def test_offline_grade_is_always_a_full_report(request):
    start = time.monotonic()
    report = GRADER.grade(request)
    took = time.monotonic() - start
    assert took < 120, f"{took:.1f} s for {request!r:.300}"
    assert GradeReport.model_validate(report.model_dump()) == report
    assert report.meta.failed_checks == [], report.meta.warnings
    assert len(report.steps) <= MAX_STEPS
    if request.is_empty():
        assert (report.score, report.steps) == (0, [])
