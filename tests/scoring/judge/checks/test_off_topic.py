"""A solution unlike its problem as a whole: its dissimilar steps are off topic; one unlike step
in a related solution is not."""

import pytest

from scoring.judge.checks.off_topic import OFF_TOPIC_MEAN, OFF_TOPIC_STEP, find_off_topic
from scoring.judge.input import JudgeInput
from scoring.verdict import AnswerVerdict


def found(similarity):
    steps = [f"step {i}" for i in range(len(similarity or ()))]
    inp = JudgeInput(
        "", steps, "calculation", AnswerVerdict(None, ()), problem_similarity=similarity
    )
    return [f.step for f in find_off_topic(inp)]


@pytest.mark.parametrize(
    ("similarity", "steps"),
    [
        ([0.1, 0.05], [0, 1]),
        ([0.1, 0.35], [0]),  # mean below, only the dissimilar step
        ([0.1, 0.6], []),  # mean 0.35: a related solution
        ([OFF_TOPIC_MEAN, OFF_TOPIC_MEAN], []),  # at the mean is related
        ([0.1, OFF_TOPIC_STEP], [0]),  # at the step bound is not dissimilar
        ([], []),
        (None, []),  # not computed
    ],
)
def test_off_topic_steps(similarity, steps):
    assert found(similarity) == steps


def test_the_detail_gives_the_similarity():
    inp = JudgeInput("", ["a"], "calculation", AnswerVerdict(None, ()), problem_similarity=[0.123])
    [finding] = find_off_topic(inp)
    assert (finding.kind, finding.detail) == (
        "off_topic",
        "unrelated to the problem (similarity 0.12)",
    )
