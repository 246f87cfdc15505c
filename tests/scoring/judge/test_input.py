"""The judge's one input value: what every check may read, with the defaults a plain offline
grade has."""

import dataclasses

import pytest

from scoring.judge.input import JudgeInput
from scoring.verdict import AnswerVerdict


def test_the_defaults_are_an_offline_grade_without_a_reference_solution():
    inp = JudgeInput("Find x.", ["x = 2"], "calculation", AnswerVerdict("2", ("2",), True))
    assert inp.alignment is None and inp.reference_steps == ()
    assert not inp.format_module and inp.problem_similarity is None
    assert inp.language == "en" and inp.memory is None


def test_it_is_a_frozen_value():
    inp = JudgeInput("p", ["a"], "proof", AnswerVerdict(None, ()))
    with pytest.raises(dataclasses.FrozenInstanceError):
        inp.problem = "q"  # type: ignore[misc]
    changed = dataclasses.replace(inp, language="zh")
    assert changed.language == "zh" and inp.language == "en"
    assert changed == JudgeInput("p", ["a"], "proof", AnswerVerdict(None, ()), language="zh")
