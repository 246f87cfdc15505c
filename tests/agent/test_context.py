"""A grading run's context: the score interval's statistics read from the judge's calibration
once, at construction, unless given."""

from __future__ import annotations

from dataclasses import replace

from agent.context import Context
from scoring.judge import JudgeConfig, load_calibration
from scoring.score import uncertainty_of
from tests.agent.conftest import HAND_CALIBRATION


def test_the_interval_comes_from_the_calibration_unless_given():
    shipped = Context()
    assert shipped.interval_model is not None
    assert shipped.interval_model == uncertainty_of(shipped.judge.calibration)
    hand = Context(judge=JudgeConfig(calibration=load_calibration(HAND_CALIBRATION)))
    assert hand.interval_model is None  # the hand calibration has no interval section
    assert Context(uncertainty=None).interval_model is None


def test_a_copy_keeps_the_resolved_interval():
    context = Context()
    copied = replace(context, answer_timeout=5.0)
    assert copied.interval_model is context.interval_model


def test_offline_by_default():
    context = Context()
    assert context.llm is None and context.embedder is None and context.chunk_steps == 30
    assert context.run.deadline is None and context.run.operations == []
