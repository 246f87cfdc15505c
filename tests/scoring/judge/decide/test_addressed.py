"""For a solution that addressed the grader, a model's label counts only where it costs points:
whatever the model says, Eq. 1 on the labels is at most Eq. 1 on the model's and on the checks'
labels under either scoring policy, and no step's probability of being wrong falls
(docs/injection.md)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scoring.judge.decide.addressed import earns, no_gain
from scoring.score.stepmath import expected_score, score_points, step_points
from scoring.verdict import StepVerdict
from tests.property.strategies import PROFILE

LABELS = st.sampled_from(["correct", "incorrect", "meaningless", "redundant", "unchecked"])
P = st.floats(0.0, 1.0)
CREDIT = st.one_of(st.none(), st.floats(0.0, 1.0))


def verdicts(draw, n: int) -> list[StepVerdict]:
    return [
        StepVerdict(draw(LABELS), "r", p_wrong=draw(P), follow_credit=draw(CREDIT))
        for _ in range(n)
    ]


@PROFILE
@given(
    st.data(),
    st.integers(1, 12),
    st.booleans(),
    st.sampled_from(["calculation", "proof", "open_ended"]),
)
def test_no_gain_never_raises_a_grade(data, n, simplicity, problem_type):
    model, checks = verdicts(data.draw, n), verdicts(data.draw, n)
    kept, warnings = no_gain(model, checks, simplicity)

    for policy in ("stepmath", "follow_through"):

        def eq1(vs, policy=policy):
            points = step_points(
                [v.label for v in vs],
                [v.p_wrong for v in vs],
                simplicity=simplicity,
                policy=policy,
                own=[v.follow_credit for v in vs],
            )
            return score_points(points, problem_type).raw

        assert eq1(kept) <= min(eq1(model), eq1(checks)) + 1e-9, policy
    assert all(
        k.p_wrong >= max(m.p_wrong, c.p_wrong) - 1e-12
        for k, m, c in zip(kept, model, checks, strict=True)
    )
    assert (
        expected_score([k.p_wrong for k in kept], problem_type)
        <= min(
            expected_score([m.p_wrong for m in model], problem_type),
            expected_score([c.p_wrong for c in checks], problem_type),
        )
        + 1e-9
    )
    assert len(warnings) == sum(
        earns(c, simplicity) < earns(m, simplicity) for m, c in zip(model, checks, strict=True)
    )


def test_the_models_correct_gives_way_and_its_incorrect_stands():
    model = [
        StepVerdict("correct", "model: fine", ("llm",), model_label="correct", p_wrong=0.1),
        StepVerdict("incorrect", "model: wrong", ("llm",), model_label="incorrect", p_wrong=0.8),
    ]
    checks = [
        StepVerdict("incorrect", "3 × 12 = 38 is false", ("symbolic",), p_wrong=0.9),
        StepVerdict("correct", "no check found a problem", p_wrong=0.2),
    ]
    kept, warnings = no_gain(model, checks)
    assert [k.label for k in kept] == ["incorrect", "incorrect"]
    assert kept[0].model_label == "correct" and "is not counted" in kept[0].reason
    assert kept[1].reason == "model: wrong" and kept[1].p_wrong == 0.8
    assert warnings == [
        (
            "step 1: judged correct, which no check supports in a solution that "
            "addresses the grader; labelled incorrect"
        )
    ]
