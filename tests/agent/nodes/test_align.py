"""`align`: the solution's steps against the reference steps, and each step's similarity to the
problem (English only), in one embedding pass; nothing embedded when neither is needed."""

from __future__ import annotations

from dataclasses import replace

from agent.nodes.align import align_steps, embeds
from tests.agent.nodes.conftest import call, slip, state_before

REFERENCE = ["47 + 58 = 105 muffins", "105 * 3 = 315 dollars"]


def related(context):
    """`context` whose judge compares every English step with the problem."""
    return replace(context, judge=replace(context.judge, relatedness=True))


def test_reference_steps_are_aligned_and_the_problem_compared(offline):
    offline = related(offline)
    state = state_before(align_steps, slip(reference_steps=REFERENCE), offline)
    assert embeds(state, offline)
    update = call(align_steps, state, offline)
    assert update["alignment"] is not None
    similarity = update["problem_similarity"]
    assert similarity is not None and len(similarity) == len(state["steps"])
    assert all(-1.0 <= s <= 1.0 for s in similarity)


def test_without_references_only_the_problem_is_compared(offline):
    offline = related(offline)
    update = call(align_steps, state_before(align_steps, slip(), offline), offline)
    assert update["alignment"] is None and update["problem_similarity"] is not None


def test_nothing_is_embedded_when_nothing_asks_for_it(offline):
    state = state_before(align_steps, slip(), offline)  # no references, relatedness off
    assert not offline.judge.relatedness and not embeds(state, offline)
    assert call(align_steps, state, offline) == {"alignment": None, "problem_similarity": None}
    skipped = state_before(align_steps, slip(reference_steps=REFERENCE), offline)
    skipped["evaluate_process"] = False
    assert not embeds(skipped, offline)


def test_a_chinese_solution_is_not_compared_with_its_problem(offline):
    offline = related(offline)
    state = {**state_before(align_steps, slip(), offline), "language": "zh"}
    assert call(align_steps, state, offline)["problem_similarity"] is None
