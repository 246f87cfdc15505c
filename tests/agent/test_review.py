"""Every grade says how sure it is (docs/architecture.md 4.11): the interval holds the score, and
what the offline judge cannot see asks for a person."""

from __future__ import annotations

import copy
from dataclasses import replace

from agent.context import Context
from agent.grader import Grader
from scoring.judge import JudgeConfig
from scoring.judge.load import load_calibration
from scoring.schema import GradeRequest
from scoring.score.interval import SECTION

from .conftest import bag_of_words

ODD_SUM = "Prove that the sum of two odd integers is even."


def grade(**fields: object):
    return Grader(Context(embedder=bag_of_words)).grade(GradeRequest(mode="offline", **fields))


def codes(report) -> list[str]:
    return [reason.code for reason in report.review_reasons]


def test_a_proof_by_example_is_not_taken_on_trust():
    report = grade(
        problem=ODD_SUM,
        solution="Let a = 3 and b = 5. Then a + b = 8, which is "
        "even. Therefore the sum of any two odd integers is even.",
    )
    assert report.needs_review and "proof_without_model" in codes(report)
    lo, hi = report.score_interval
    assert 0 <= lo <= report.score <= hi <= 10 and hi - lo >= 3


def test_a_right_answer_checked_against_the_reference_is_sure():
    report = grade(
        problem="Compute 12 + 30.",
        solution="12 + 30 = 42.\nThe answer is 42.",
        reference_answer="42",
    )
    assert not report.needs_review and report.review_reasons == []
    assert report.score == 10 and report.score_interval[1] == 10
    assert report.score_interval[0] >= 9  # it also holds the expected score, just under 10


def test_steps_labelled_against_a_right_answer_ask_for_a_person():
    report = grade(
        problem="Tom has 3 boxes of 4 apples. How many apples does he have?",
        solution="3 × 4 = 13\nSo Tom has 12 apples.",
        reference_answer="12",
    )
    assert report.answer.correct is True and report.steps[0].label == "incorrect"
    assert report.needs_review and "steps_against_answer" in codes(report)
    assert report.score_interval == (report.score, 10)  # a misread step, or a slip survived


def test_an_answer_nobody_checked_says_so():
    report = grade(problem="Compute 12 + 30.", solution="12 + 30 = 42.\nThe answer is 42.")
    assert report.answer.correct is None
    assert "answer_unchecked" in codes(report)


def test_without_fitted_statistics_the_reasons_are_still_given():
    report = Grader(Context(embedder=bag_of_words, uncertainty=None)).grade(
        GradeRequest(
            problem=ODD_SUM, solution="Let a = 3 and b = 5. Then a + b = 8.", mode="offline"
        )
    )
    assert report.score_interval is None
    assert report.needs_review and codes(report) == ["proof_without_model"]


def test_a_context_takes_the_interval_of_the_calibration_it_is_given():
    shipped = load_calibration()
    section = copy.deepcopy(shipped.section(SECTION))
    section["version"] = "a-school-refit"
    refit = replace(shipped, sections={**shipped.sections, SECTION: section})
    assert Context(judge=JudgeConfig(calibration=refit)).interval_model.version == "a-school-refit"

    bare = replace(shipped, sections={k: v for k, v in shipped.sections.items() if k != SECTION})
    context = Context(embedder=bag_of_words, judge=JudgeConfig(calibration=bare))
    assert context.interval_model is None
    report = Grader(context).grade(
        GradeRequest(
            problem=ODD_SUM, mode="offline", solution="Let a = 3 and b = 5. Then a + b = 8."
        )
    )
    assert report.score_interval is None and report.needs_review


def test_a_context_may_grade_without_some_answer_readings():
    """The calibration grades its own data without the readings written from its failures."""
    request = GradeRequest(
        mode="offline",
        problem="Which odd primes are sums of two squares?",
        solution="By Fermat's theorem on sums of two squares, they are the primes $p = 4k + 1$.",
        reference_answer="p \\equiv 1 \\pmod{4}",
    )
    every = Grader(Context(embedder=bag_of_words)).grade(request)
    fewer = Grader(Context(embedder=bag_of_words, answer_left_out=frozenset({"congruence"}))).grade(
        request
    )
    assert every.answer.correct is True
    assert fewer.answer.correct is False
