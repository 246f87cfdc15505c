"""Step features the decision model reads: the group of a grade, where errors gather, how hard
the problem is."""

import pytest

from scoring.judge.decide.features import (
    GROUP_FEATURES,
    grade_group,
    solution_context,
    step_features,
)
from scoring.judge.findings import Evidence, Finding
from scoring.judge.input import JudgeInput
from scoring.verdict import AnswerVerdict


@pytest.mark.parametrize(
    ("kind", "symbolic", "group"),
    [
        ("calculation", True, "answer_right"),
        ("calculation", False, "answer_wrong"),
        ("calculation", None, "no_verdict"),
        ("proof", False, "proof"),
        ("open_ended", True, "open_ended"),
    ],
)
def test_every_grade_is_in_one_group(kind, symbolic, group):
    answer = AnswerVerdict("4", ("4",), symbolic)
    judged = JudgeInput("", ["a", "b"], kind, answer)
    assert grade_group(judged) == group
    features = [step_features(judged, i, ()) for i in range(2)]
    assert all({n for n in f if n.startswith("group:")} == {f"group:{group}"} for f in features)
    assert {f"group:{group}"} <= set(GROUP_FEATURES)


def test_the_prior_reads_where_errors_gather_and_how_hard_the_problem_is():
    """A step's place against the first false relation; under a wrong answer, its relative
    position (errors gather towards a wrong answer); the difficulty estimate, when fitted."""
    answer = AnswerVerdict("5", ("4",), False)
    judged = JudgeInput(
        "Solve 2x + 3 = 11.", ["2x + 3 = 11", "2x = 9", "x = 4.5", "x = 5"], "calculation", answer
    )
    found = Evidence(
        (Finding("calculation_false", 1, "calculation_false at 1"),), tuple(() for _ in range(4))
    )
    context = solution_context(judged, found, {"bias": 1.5})
    assert context.first_false == 1 and context.difficulty == 1.5
    features = [step_features(judged, i, found.at(i), context=context) for i in range(4)]
    assert [f["before_false_relation"] for f in features] == [1.0, 0.0, 0.0, 0.0]
    assert [f["after_false_relation"] for f in features] == [0.0, 0.0, 1.0, 1.0]
    assert [f["wrong_position"] for f in features] == pytest.approx([0.0, 1 / 3, 2 / 3, 0.0])
    assert features[0]["difficulty"] == 1.5 and features[0]["wrong_difficulty"] == 1.5
    assert "difficulty" not in step_features(judged, 0, ())  # no estimate fitted: left out
