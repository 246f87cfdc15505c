import pytest
from pydantic import ValidationError

from scoring.schema import MAX_STEPS, GradeRequest


def test_minimal_request():
    r = GradeRequest(problem="1+1?", solution="2")
    assert r.mode == "auto" and r.language == "auto" and r.gold_answers() == []
    assert GradeRequest(problem="p", solution="s", reference_answer=["1", "2"]).gold_answers() == [
        "1",
        "2",
    ]


@pytest.mark.parametrize(
    ("payload", "field_or_message"),
    [
        ({"problem": "p"}, "one of 'solution' or 'solution_steps' is required"),
        ({"problem": "", "solution": "s"}, "problem"),
        ({"problem": "p", "solution": "s", "mode": "fast"}, "mode"),
        ({"problem": "p", "solution": "s", "problem_type": "essay"}, "problem_type"),
        ({"problem": "p", "solution": "s", "colour": "red"}, "colour"),
        ({"problem": "p", "solution": "a\x00b"}, "NUL byte"),
        ({"problem": "p", "solution_steps": ["x"] * (MAX_STEPS + 1)}, "more than"),
        ({"problem": "p", "solution": "s", "modules": {"speed": True}}, "speed"),
    ],
)
def test_invalid_requests_name_the_problem(payload, field_or_message):
    with pytest.raises(ValidationError) as info:
        GradeRequest.model_validate(payload)
    assert field_or_message in str(info.value)


@pytest.mark.parametrize(
    ("payload", "empty"),
    [
        ({"problem": "p", "solution": ""}, True),
        ({"problem": "p", "solution": " \n\t "}, True),
        ({"problem": "p", "solution_steps": []}, True),
        ({"problem": "p", "solution_steps": ["", "  "]}, True),
        ({"problem": "p", "solution_steps": ["", "x"]}, False),
        ({"problem": "p", "solution": "0"}, False),
    ],
)
def test_an_empty_solution_is_a_valid_request(payload, empty):
    """A student who hands in nothing is graded (docs/scoring.md "Empty solutions"), not refused."""
    assert GradeRequest.model_validate(payload).is_empty() is empty
