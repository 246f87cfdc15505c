import pytest

from scoring.crosscheck import cross_check
from scoring.verdict import StepVerdict


def v(label, reason="", evidence=(), **kw):
    return StepVerdict(label, reason, tuple(evidence), **kw)


def test_proven_false_step_overrides_a_correct_judgement():
    judged = [v("correct", "fine", ("llm",)), v("correct", "fine", ("llm",), depends_on=(1,))]
    evidence = [v("correct", "unchecked"), v("incorrect", "47 + 58 = 95 is false (105)", ("symbolic",))]
    result, warnings = cross_check(judged, evidence)
    assert [r.label for r in result] == ["correct", "incorrect"]
    assert result[1].depends_on == (1,)
    assert "step 2: judged correct but 47 + 58 = 95 is false (105)" in warnings[0]


def test_full_marks_with_a_wrong_answer_is_flagged():
    judged = [v("correct", "", ("llm",)), v("correct", "", ("llm",))]
    evidence = [v("correct", ""), v("incorrect", "final answer 7 does not match 8", ("answer",))]
    result, warnings = cross_check(judged, evidence)
    assert result[-1].label == "incorrect" and len(warnings) == 1


def test_undecided_evidence_leaves_the_judgement_alone():
    judged = [v("incorrect", "concept error", ("llm",))]
    result, warnings = cross_check(judged, [v("correct", "no check found a problem")])
    assert result == judged and warnings == []


def test_disagreement_against_proven_true_is_reported_but_kept():
    judged = [v("incorrect", "", ("llm",))]
    result, warnings = cross_check(judged, [v("correct", "3 * 4 = 12 holds", ("symbolic",))])
    assert result[0].label == "incorrect"
    assert "label kept" in warnings[0]


def test_length_mismatch_is_an_error():
    with pytest.raises(ValueError):
        cross_check([v("correct")], [])
