"""The decision layer with a hand-made calibration: evidence in log-odds, labels from findings.

The numbers here are written for the test (a prior of 10%, round likelihood ratios), not the
shipped calibration, so each case shows the mechanics and cannot drift with a refit.
"""

import math

import pytest

from scoring.judge import Decision, Reliability, decide
from scoring.judge.calibration import Calibration, KindStats, StepModel
from scoring.judge.findings import Evidence, Finding
from scoring.judge.input import JudgeInput
from scoring.verdict import AnswerVerdict, StepVerdict

PRIOR = math.log(0.1 / 0.9)
WEIGHTS = {
    "bias": PRIOR,
    "finding:calculation_false": math.log(20),
    "finding:answer_wrong": math.log(30),
    "finding:answer_correct": math.log(0.05),
    "finding:unexplained_number": math.log(3),
    "finding:calculation_true": math.log(0.5),
}
KINDS = {
    "calculation_false": KindStats(20, 5, 0.8, 20.0, True),
    "answer_wrong": KindStats(30, 3, 0.9, 30.0, True),
    "answer_correct": KindStats(1, 50, 0.98, 0.05, True),
    "calculation_true": KindStats(10, 90, 0.9, 0.5, True),
    "unexplained_number": KindStats(10, 30, 0.25, 3.0, False),
}
CAL = Calibration(
    "test",
    {"en": StepModel(WEIGHTS, 0.5), "zh": StepModel({**WEIGHTS, "bias": math.log(0.4 / 0.6)}, 0.5)},
    KINDS,
)


NO_ANSWER = AnswerVerdict(None, ())


def inp(n, language="en", answer=NO_ANSWER):
    return JudgeInput("", [f"step {i}" for i in range(n)], "calculation", answer, language=language)


def evidence(n, *findings, deps=None):
    return Evidence(
        tuple(Finding(k, s, f"{k} at {s}") for k, s in findings),
        tuple(tuple(d) for d in (deps or [[] for _ in range(n)])),
    )


def labels(decision):
    return [v.label for v in decision.verdicts]


def test_nothing_checked_is_unchecked_at_the_prior():
    """Evidence first: a prior makes a probability, never a label."""
    decision = decide(inp(3), evidence(3), CAL)
    assert labels(decision) == ["unchecked"] * 3 and decision.warnings == []
    assert all(
        v.state == "unchecked"
        and v.p_wrong == pytest.approx(0.1)
        and v.validity == pytest.approx(0.9)
        and v.evidence == ()
        for v in decision.verdicts
    )
    assert decision.verdicts[0].reason == (
        "not checked: no check could confirm or refute this "
        "step (P(wrong) = 0.10 for a step of this kind and "
        "place)"
    )
    assert decision.first_error.step is None
    assert decision.first_error.probability == pytest.approx(0.9**3)


def test_a_refuting_finding_fails_its_step_and_its_dependants_are_meaningless():
    decision = decide(inp(3), evidence(3, ("calculation_false", 0), deps=[[], [0], [1]]), CAL)
    verdicts = decision.verdicts
    assert labels(decision) == ["incorrect", "meaningless", "meaningless"]
    assert [v.state for v in verdicts] == ["fails", "unchecked", "unchecked"]
    # odds 1/9 x 20 = 0.69, under the kind's measured precision 0.8: a refuted step counts the
    # finding by its precision
    assert verdicts[0].p_wrong == pytest.approx(0.8)
    assert verdicts[0].reason == "calculation_false at 0 (P(wrong) = 0.80)"
    assert verdicts[0].evidence == ("symbolic",) and verdicts[0].error_categories == (
        "calculation",
    )
    assert verdicts[1].depends_on == (1,) and "step 1" in verdicts[1].reason
    # follow-through credits a step built on the error with what it is worth in itself
    assert verdicts[1].follow_credit == pytest.approx(0.9)
    assert decision.first_error.step == 0


def test_support_alone_holds_the_step():
    verdict = decide(inp(1), evidence(1, ("calculation_true", 0)), CAL).verdicts[0]
    assert (verdict.label, verdict.state, verdict.evidence) == ("correct", "holds", ("symbolic",))
    assert verdict.reason.startswith("calculation_true at 0 (P(wrong) = ")


def test_a_refutation_outweighed_by_support_is_not_decided():
    """A step where a check found an error and another found support that outweighs it is
    neither labelled wrong nor right: the checks disagree."""
    both = decide(
        inp(1), evidence(1, ("calculation_false", 0), ("answer_correct", 0)), CAL
    ).verdicts[0]
    assert (both.label, both.state) == ("unchecked", "unchecked")
    assert both.reason.startswith("checks disagree: calculation_false at 0; answer_correct at 0")
    # a weaker support does not outweigh the error: odds 1/9 x 20 x 0.5
    weaker = decide(
        inp(1), evidence(1, ("calculation_false", 0), ("calculation_true", 0)), CAL
    ).verdicts[0]
    assert weaker.label == "incorrect"
    assert weaker.p_wrong == pytest.approx(0.8)  # odds 1/9 x 20 x 0.5 = 0.53, floored


WRONG_ANSWER = AnswerVerdict("11", ("28",), False, anchored=False)
LOW = Calibration(
    "low", {"en": StepModel({**WEIGHTS, "bias": math.log(0.001 / 0.999)}, 0.5)}, KINDS
)


def test_a_refuting_finding_labels_the_step_whatever_the_prior():
    """A short first step has a low prior in a model fitted on long model-written steps; a
    false calculation still refutes it."""
    verdict = decide(inp(1), evidence(1, ("calculation_false", 0)), LOW).verdicts[0]
    assert verdict.label == "incorrect" and verdict.state == "fails"
    assert verdict.p_wrong == pytest.approx(0.8)  # the kind's precision, not the prior's 2%


def test_a_wrong_answer_fails_the_final_step_and_the_guess_seeks_its_cause():
    """The final answer decided wrong refutes the step that states it; no other step is
    labelled on a prior. The first-error guess names the likeliest cause."""
    found = evidence(3, ("unexplained_number", 0), ("calculation_true", 2), ("answer_wrong", 2))
    decision = decide(inp(3, answer=WRONG_ANSWER), evidence(3, ("answer_wrong", 2)), LOW)
    assert labels(decision) == ["unchecked", "unchecked", "incorrect"]
    low_threshold = Calibration("low", {"en": StepModel(LOW.models["en"].weights, 0.99)}, KINDS)
    guess = decide(inp(3, answer=WRONG_ANSWER), found, low_threshold).first_error
    assert guess.step == 2  # the refuted final step is the first error the rule sees
    plain = decide(inp(2, answer=WRONG_ANSWER), evidence(2), low_threshold)
    assert labels(plain) == ["unchecked", "unchecked"]  # no finding: nothing is labelled
    assert plain.first_error.step == 1  # the likeliest cause of the wrong answer
    assert all(v.p_wrong == pytest.approx(0.001) for v in plain.verdicts)


@pytest.mark.parametrize(
    "answer",
    [
        NO_ANSWER,
        AnswerVerdict("28", ("28",), True),
        AnswerVerdict("11", ("28",), False, route_decides=False),
    ],
)
def test_no_cause_is_guessed_for_an_answer_not_decided_wrong(answer):
    assert decide(inp(2, answer=answer), evidence(2), LOW).first_error.step is None


def test_a_final_answer_that_carries_an_earlier_error_forward():
    """Human graders mark it wrong; follow-through credits it with its worth without the
    answer's finding (the prior alone here: 0.9)."""
    found = evidence(3, ("calculation_false", 0), ("answer_wrong", 2), deps=[[], [0], [1]])
    verdicts = decide(inp(3, answer=WRONG_ANSWER), found, CAL).verdicts
    assert [v.label for v in verdicts] == ["incorrect", "meaningless", "incorrect"]
    assert verdicts[2].follow_credit == pytest.approx(0.9)
    assert verdicts[2].reason.endswith("it carries forward the error of step 1")
    # an answer wrong without an earlier error is an error of its own
    alone = decide(inp(2, answer=WRONG_ANSWER), evidence(2, ("answer_wrong", 1)), CAL).verdicts
    assert alone[1].follow_credit is None


def test_a_proof_and_a_model_label_seek_no_cause():
    proof = JudgeInput("", ["a", "b"], "proof", WRONG_ANSWER)
    assert decide(proof, evidence(2), LOW).first_error.step is None
    model = [StepVerdict("correct", "fine"), StepVerdict("correct", "fine")]
    judged = decide(inp(2, answer=WRONG_ANSWER), evidence(2), LOW, model)
    assert labels(judged) == ["correct"] * 2 and judged.first_error.step is None


def test_a_kind_that_only_warns_raises_p_wrong_but_never_makes_a_label():
    weak = Calibration("weak", {"en": StepModel(WEIGHTS, 0.2)}, KINDS)
    verdict = decide(inp(1), evidence(1, ("unexplained_number", 0)), weak).verdicts[0]
    assert verdict.p_wrong == pytest.approx(0.25)  # odds 1/9 x 3
    assert verdict.label == "unchecked" and verdict.validity == pytest.approx(0.75)
    assert verdict.reason.endswith(
        "a check noted: unexplained_number at 0 (not precise enough to decide)"
    )


def test_a_right_final_answer_is_not_meaningless():
    found = evidence(2, ("calculation_false", 0), ("answer_correct", 1), deps=[[], [0]])
    assert labels(decide(inp(2), found, CAL)) == ["incorrect", "correct"]


def test_each_language_has_its_own_prior():
    en = decide(inp(1), evidence(1), CAL).verdicts[0]
    zh = decide(inp(1, "zh"), evidence(1), CAL).verdicts[0]
    other = decide(inp(1, "fr"), evidence(1), CAL).verdicts[0]
    assert en.p_wrong == pytest.approx(0.1) and zh.p_wrong == pytest.approx(0.4)
    assert other.p_wrong == en.p_wrong  # no model of its own: the default


def test_repeated_step_is_redundant():
    verdicts = decide(inp(2), evidence(2, ("repeat", 1)), CAL).verdicts
    assert [v.label for v in verdicts] == ["unchecked", "redundant"]
    assert verdicts[1].redundancy > 0.5 > verdicts[0].redundancy


def _model(*names):
    return [
        StepVerdict(label, f"model: {label}", ("llm",), (i,) if label == "meaningless" else ())
        for i, label in enumerate(names)
    ]


def _pair(decision):
    return decision.verdicts, decision.warnings


def test_a_models_label_stands_against_weak_evidence_and_falls_to_strong():
    reliable = Reliability(sensitivity=0.9, false_alarm=0.05)
    kept, warnings = _pair(
        decide(
            inp(2),
            evidence(2, ("unexplained_number", 0)),
            CAL,
            _model("correct", "correct"),
            reliable,
        )
    )
    assert [v.label for v in kept] == ["correct", "correct"] and warnings == []
    assert kept[0].evidence == ("llm",) and kept[0].reason == "model: correct"
    # a realistic judge that misses wrong steps: a false equation overrules its "correct"
    fallible = Reliability(sensitivity=0.7, false_alarm=0.1)
    fixed, warnings = _pair(
        decide(
            inp(2), evidence(2, ("answer_wrong", 1)), CAL, _model("correct", "correct"), fallible
        )
    )
    assert fixed[1].label == "incorrect" and fixed[1].evidence == ("llm", "answer")
    assert fixed[1].model_label == "correct" and fixed[0].model_label == "correct"
    # offline 0.9 (1/9 x 30 = 0.77, floored at answer_wrong's precision), then x 1/3: odds 3
    assert fixed[1].p_wrong == pytest.approx(0.75)
    assert warnings and "relabelled incorrect" in warnings[0]


def test_a_false_alarm_is_overruled_by_support():
    fallible = Reliability(sensitivity=0.7, false_alarm=0.3)
    found = evidence(1, ("answer_correct", 0))
    verdicts, warnings = _pair(decide(inp(1), found, CAL, _model("incorrect"), fallible))
    assert verdicts[0].label == "correct" and "relabelled correct" in warnings[0]


def test_the_prior_alone_never_overrules_the_model():
    """A base rate weighs in P(wrong) but is no reason to relabel a step the model judged."""
    unlikely = Calibration("low", {"en": StepModel({"bias": math.log(0.01 / 0.99)}, 0.5)}, KINDS)
    likely = Calibration("high", {"en": StepModel({"bias": math.log(0.99 / 0.01)}, 0.5)}, KINDS)
    fallible = Reliability(sensitivity=0.7, false_alarm=0.1)
    kept, warnings = _pair(decide(inp(1), evidence(1), unlikely, _model("incorrect"), fallible))
    assert kept[0].label == "incorrect" and kept[0].p_wrong < 0.1 and warnings == []
    kept, warnings = _pair(decide(inp(1), evidence(1), likely, _model("correct"), fallible))
    assert kept[0].label == "correct" and kept[0].p_wrong > 0.9 and warnings == []
    # with a check's finding that outweighs the model's word the same posterior does relabel
    answered = Calibration(
        "low",
        {
            "en": StepModel(
                {"bias": math.log(0.01 / 0.99), "finding:answer_correct": math.log(0.05)}, 0.5
            )
        },
        KINDS,
    )
    fixed = decide(
        inp(1), evidence(1, ("answer_correct", 0)), answered, _model("incorrect"), fallible
    ).verdicts
    assert fixed[0].label == "correct" and fixed[0].model_label == "incorrect"


def test_a_weak_finding_tipped_over_by_the_prior_does_not_overrule_the_model():
    """A true calculation (likelihood ratio 0.5) weighs less than a fallible judge's "wrong"
    (0.7 / 0.1 = 7): with a low prior the posterior falls below the threshold, but the check's
    finding is not what carried it there, so the model's label stands."""
    low = Calibration(
        "low", {"en": StepModel({**WEIGHTS, "bias": math.log(0.2 / 0.8)}, 0.5)}, KINDS
    )
    fallible = Reliability(sensitivity=0.7, false_alarm=0.1)
    kept, warnings = _pair(
        decide(inp(1), evidence(1, ("calculation_true", 0)), low, _model("incorrect"), fallible)
    )
    assert kept[0].p_wrong == pytest.approx(0.25 * 7 * 0.5 / (1 + 0.25 * 7 * 0.5))  # 0.47
    assert kept[0].label == "incorrect" and warnings == []


def test_the_models_meaningless_and_dependencies_are_kept():
    decision = decide(
        inp(2),
        evidence(2, deps=[[], []]),
        CAL,
        _model("incorrect", "meaningless"),
        Reliability(0.9, 0.05),
    )
    assert labels(decision) == ["incorrect", "meaningless"]
    assert decision.verdicts[1].depends_on == (1,)
    assert decision.first_error.step == 0  # the first step the decided labels call wrong


def test_steps_without_a_model_label_are_decided_offline():
    found = evidence(2, ("calculation_false", 1), deps=[[], [0]])
    verdicts = decide(inp(2), found, CAL, [_model("correct")[0], None]).verdicts
    assert [v.label for v in verdicts] == ["correct", "incorrect"]
    assert verdicts[1].depends_on == (1,)
    assert (verdicts[0].model_label, verdicts[1].model_label) == ("correct", None)


def test_the_first_error_guess_can_be_decided_together_on_the_expected_score():
    """Four steps 35% to 45% likely wrong: none reaches the threshold, but Eq. 1 on the guess
    is brought to its expectation (6.05 of 10) by calling the two likeliest wrong: the first of
    them is the guess. Labels stay evidence-first, and a model's labels decide its guess."""
    weights = {
        "bias": 0.0,
        "first": math.log(0.45 / 0.55),
        "second": math.log(0.4 / 0.6),
        "third": math.log(0.35 / 0.65),
        "last": math.log(0.38 / 0.62),
    }
    model = StepModel(weights, 0.5, decision="expected")
    together = Calibration("together", {"en": model}, KINDS)
    proof = JudgeInput("", [f"step {i}" for i in range(4)], "proof", NO_ANSWER)
    decision = decide(proof, evidence(4), together)
    assert decision.first_error.step == 0
    assert decision.first_error.probability == pytest.approx(0.45)
    assert labels(decision) == ["unchecked"] * 4
    alone = Calibration("alone", {"en": StepModel(weights, 0.5)}, KINDS)
    assert decide(proof, evidence(4), alone).first_error.step is None
    judged = decide(proof, evidence(4), together, _model(*["correct"] * 4))
    assert labels(judged) == ["correct"] * 4 and judged.first_error.step is None
    empty = JudgeInput("", [], "proof", NO_ANSWER)
    assert decide(empty, evidence(0), together) == Decision([], [], None)


def test_length_mismatch_is_an_error():
    with pytest.raises(ValueError, match="model labels"):
        decide(inp(2), evidence(2), CAL, _model("correct"))


def test_reliability_must_be_informative():
    with pytest.raises(ValueError):
        Reliability(sensitivity=0.1, false_alarm=0.2)


def test_recalibration_moves_the_reported_probability_never_the_label():
    from dataclasses import replace

    from scoring.judge.calibration import Platt

    # Raw P(wrong) 20/29 crosses 0.5; a map that halves the log-odds reports less, label kept.
    halved = replace(CAL.models["en"], recalibration={"calculation": Platt(0.5, 0.0)})
    # a kind under the mapped P(wrong), so its precision sets no floor
    loose = {**KINDS, "calculation_false": KindStats(20, 16, 0.55, 20.0, True)}
    cal = Calibration("test-recal", {"en": halved}, loose)
    verdicts = decide(inp(2), evidence(2, ("calculation_false", 0)), cal).verdicts
    raw = math.log(20 / 9)
    assert verdicts[0].label == "incorrect"
    assert verdicts[0].p_wrong == pytest.approx(1 / (1 + math.exp(-raw / 2)))
    assert verdicts[1].p_wrong == pytest.approx(1 / (1 + math.exp(-PRIOR / 2)))
    # In LLM mode the model's word is added after the map: odds sqrt(20/9) x 7 on "wrong".
    said = decide(
        inp(1),
        evidence(1, ("calculation_false", 0)),
        cal,
        [StepVerdict("incorrect", "")],
        Reliability(0.7, 0.1),
    ).verdicts
    assert said[0].p_wrong == pytest.approx(1 / (1 + math.exp(-(raw / 2 + math.log(7)))))


def test_a_group_level_moves_only_the_grades_of_its_group():
    """The level a refit on corrections gives one group of grades (`group:<name>`, no weight in
    a shipped model) changes that group's steps and no other's."""
    levelled = Calibration(
        "group", {"en": StepModel({**WEIGHTS, "group:proof": math.log(81)}, 0.5)}, KINDS
    )
    proof = JudgeInput("", ["step 0"], "proof", NO_ANSWER)
    assert decide(proof, evidence(1), levelled).verdicts[0].p_wrong == pytest.approx(
        0.9
    )  # 1/9 x 81
    assert decide(proof, evidence(1), CAL).verdicts[0].p_wrong == pytest.approx(0.1)
    assert decide(inp(1), evidence(1), levelled).verdicts[0].p_wrong == pytest.approx(0.1)


def test_a_calculation_nobody_can_check_reads_the_mixture_over_its_verdict():
    """Without a reference, a language whose model saw no such calculations (verdict_prior
    set) weighs the verdict it would have seen: 40% right answers here."""
    weights = {
        "bias": 0.0,
        "answer_correct_earlier": math.log(0.1),
        "finding:answer_correct": math.log(0.01),
        "finding:answer_wrong": math.log(4),
    }
    model = StepModel(weights, 0.5, verdict_prior=0.4)
    cal = Calibration("mix", {"en": model}, KINDS)
    verdicts = decide(inp(2), evidence(2), cal).verdicts
    right, wrong = 0.1 / 1.1, 0.5  # an earlier step: odds 0.1 if right, 1 if wrong
    assert verdicts[0].p_wrong == pytest.approx(0.4 * right + 0.6 * wrong)
    last_right, last_wrong = 0.01 / 1.01, 0.8  # the final step carries the answer's finding
    assert verdicts[1].p_wrong == pytest.approx(0.4 * last_right + 0.6 * last_wrong)
    # with a reference the verdict is known or undecided, and the model reads it as it is
    undecided = inp(2, answer=AnswerVerdict("7", ("8",), symbolic=None))
    assert decide(undecided, evidence(2), cal).verdicts[0].p_wrong == pytest.approx(0.5)
    # without verdict_prior, the bias alone
    plain = Calibration("plain", {"en": StepModel(weights, 0.5)}, KINDS)
    assert decide(inp(2), evidence(2), plain).verdicts[0].p_wrong == pytest.approx(0.5)
