"""The decision layer with a hand-made calibration: evidence in log-odds, labels on a threshold.

The numbers here are written for the test (a prior of 10%, round likelihood ratios), not the
shipped calibration, so each case shows the mechanics and cannot drift with a refit.
"""

import math

import pytest

from scoring.judge import Reliability, decide
from scoring.judge.calibration import Calibration, KindStats, StepModel
from scoring.judge.decide.features import GROUP_FEATURES, grade_group, step_features
from scoring.judge.findings import Evidence, Finding
from scoring.judge.input import JudgeInput
from scoring.verdict import AnswerVerdict, StepVerdict

PRIOR = math.log(0.1 / 0.9)
WEIGHTS = {"bias": PRIOR, "finding:calculation_false": math.log(20),
           "finding:answer_wrong": math.log(30), "finding:answer_correct": math.log(0.05),
           "finding:unexplained_number": math.log(3), "finding:calculation_true": math.log(0.5)}
KINDS = {"calculation_false": KindStats(20, 5, 0.8, 20.0, True),
         "answer_wrong": KindStats(30, 3, 0.9, 30.0, True),
         "answer_correct": KindStats(1, 50, 0.98, 0.05, True),
         "calculation_true": KindStats(10, 90, 0.9, 0.5, True),
         "unexplained_number": KindStats(10, 30, 0.25, 3.0, False)}
CAL = Calibration("test", {"en": StepModel(WEIGHTS, 0.5),
                           "zh": StepModel({**WEIGHTS, "bias": math.log(0.4 / 0.6)}, 0.5)}, KINDS)


NO_ANSWER = AnswerVerdict(None, ())


def inp(n, language="en", answer=NO_ANSWER):
    return JudgeInput("", [f"step {i}" for i in range(n)], "calculation", answer,
                      language=language)


def evidence(n, *findings, deps=None):
    return Evidence(tuple(Finding(k, s, f"{k} at {s}") for k, s in findings),
                    tuple(tuple(d) for d in (deps or [[] for _ in range(n)])))


def test_no_evidence_follows_the_prior():
    verdicts, warnings = decide(inp(3), evidence(3), CAL)
    assert [v.label for v in verdicts] == ["correct"] * 3 and warnings == []
    assert all(v.p_wrong == pytest.approx(0.1) and v.validity == pytest.approx(0.9)
               for v in verdicts)
    assert verdicts[0].reason == "no check found a problem"


def test_a_strong_finding_crosses_the_threshold_and_its_dependants_are_meaningless():
    verdicts, _ = decide(inp(3), evidence(3, ("calculation_false", 0), deps=[[], [0], [1]]), CAL)
    assert [v.label for v in verdicts] == ["incorrect", "meaningless", "meaningless"]
    assert verdicts[0].p_wrong == pytest.approx(20 / 29)  # odds 1/9 x 20
    assert verdicts[0].reason == "calculation_false at 0"
    assert verdicts[0].evidence == ("symbolic",) and verdicts[0].error_categories == ("calculation",)
    assert verdicts[1].depends_on == (1,) and "step 1" in verdicts[1].reason


def test_support_weighs_against_an_error_finding():
    alone = decide(inp(1), evidence(1, ("calculation_false", 0)), CAL)[0][0]
    both = decide(inp(1), evidence(1, ("calculation_false", 0), ("calculation_true", 0)), CAL)[0][0]
    assert both.p_wrong == pytest.approx((10 / 9) / (1 + 10 / 9))  # odds 1/9 x 20 x 0.5
    assert both.p_wrong < alone.p_wrong
    # a kind below SURE_PRECISION: the threshold decides
    loose = {**KINDS, "calculation_false": KindStats(20, 8, 0.7, 12.0, True)}
    strict = Calibration("strict", {"en": StepModel(WEIGHTS, 0.6)}, loose)
    verdict = decide(inp(1), evidence(1, ("calculation_false", 0), ("calculation_true", 0)),
                     strict)[0][0]
    assert verdict.label == "correct"
    assert verdict.reason.startswith("calculation_false at 0, but not enough to call the step wrong")


WRONG_ANSWER = AnswerVerdict("11", ("28",), False, anchored=False)


def test_a_wrong_answer_makes_its_likeliest_cause_wrong_when_no_step_is():
    """A low prior (a model fitted on long model-written steps) leaves every step under the
    threshold; the answer decided wrong was reached through a wrong step, the likeliest one."""
    low = Calibration("low", {"en": StepModel({**WEIGHTS, "bias": math.log(0.001 / 0.999)}, 0.5)},
                      KINDS)
    # the last step's arithmetic holds (support), so the likeliest cause is earlier; of the two
    # equally likely ones, the later (a warning, unexplained_number, decides nothing)
    found = evidence(3, ("unexplained_number", 0), ("calculation_true", 2))
    verdicts, _ = decide(inp(3, answer=WRONG_ANSWER), found, low)
    assert [v.label for v in verdicts] == ["correct", "incorrect", "correct"]
    assert verdicts[1].reason.startswith("the final answer is wrong and no check placed the error")
    plain, _ = decide(inp(2, answer=WRONG_ANSWER), evidence(2), low)
    assert [v.label for v in plain] == ["correct", "incorrect"]
    assert all(v.p_wrong == pytest.approx(0.001) for v in plain)  # the probability is unchanged


@pytest.mark.parametrize("answer", [NO_ANSWER, AnswerVerdict("28", ("28",), True),
                                    AnswerVerdict("11", ("28",), False, route_decides=False)])
def test_no_cause_is_sought_for_an_answer_not_decided_wrong(answer):
    low = Calibration("low", {"en": StepModel({**WEIGHTS, "bias": math.log(0.001 / 0.999)}, 0.5)},
                      KINDS)
    assert [v.label for v in decide(inp(2, answer=answer), evidence(2), low)[0]] == ["correct"] * 2


def test_a_wrong_answer_with_a_wrong_step_already_adds_none():
    verdicts, _ = decide(inp(3, answer=WRONG_ANSWER), evidence(3, ("calculation_false", 0)), CAL)
    assert [v.label for v in verdicts] == ["incorrect", "correct", "correct"]


def test_a_proof_and_a_model_label_seek_no_cause():
    low = Calibration("low", {"en": StepModel({**WEIGHTS, "bias": math.log(0.001 / 0.999)}, 0.5)},
                      KINDS)
    proof = JudgeInput("", ["a", "b"], "proof", WRONG_ANSWER)
    assert [v.label for v in decide(proof, evidence(2), low)[0]] == ["correct"] * 2
    model = [StepVerdict("correct", "fine"), StepVerdict("correct", "fine")]
    labels = [v.label for v in decide(inp(2, answer=WRONG_ANSWER), evidence(2), low, model)[0]]
    assert labels == ["correct"] * 2


def test_a_precise_error_finding_labels_the_step_whatever_the_prior():
    """A short first step has a low prior in a model fitted on long model-written steps; a
    false calculation (precision 0.8 >= SURE_PRECISION) still makes it wrong offline, and the
    reported P(wrong) stays the model's."""
    low = Calibration("low", {"en": StepModel({**WEIGHTS, "bias": math.log(0.001 / 0.999)}, 0.5)},
                      KINDS)
    verdict = decide(inp(1), evidence(1, ("calculation_false", 0)), low)[0][0]
    assert verdict.p_wrong < 0.05 and verdict.label == "incorrect"
    assert verdict.reason == "calculation_false at 0"
    # support that outweighs it (a right final answer) leaves the prior to decide
    both = decide(inp(1), evidence(1, ("calculation_false", 0), ("answer_correct", 0)), low)[0][0]
    assert both.label == "correct"
    # a kind right less often than that decides only through the threshold
    loose = Calibration("loose", low.models, {**KINDS, "calculation_false":
                                              KindStats(20, 8, 0.7, 12.0, True)})
    assert decide(inp(1), evidence(1, ("calculation_false", 0)), loose)[0][0].label == "correct"


def test_a_kind_that_only_warns_lowers_validity_but_never_moves_a_label():
    weak = Calibration("weak", {"en": StepModel(WEIGHTS, 0.2)}, KINDS)
    verdict = decide(inp(1), evidence(1, ("unexplained_number", 0)), weak)[0][0]
    assert verdict.p_wrong == pytest.approx(0.25)  # odds 1/9 x 3: above the threshold 0.2
    assert verdict.label == "correct"  # but the kind only warns
    assert verdict.validity == pytest.approx(0.75)
    assert "unexplained_number at 0" in verdict.reason


def test_a_right_final_answer_is_not_meaningless():
    found = evidence(2, ("calculation_false", 0), ("answer_correct", 1), deps=[[], [0]])
    verdicts, _ = decide(inp(2), found, CAL)
    assert [v.label for v in verdicts] == ["incorrect", "correct"]


def test_each_language_has_its_own_prior():
    en = decide(inp(1), evidence(1), CAL)[0][0]
    zh = decide(inp(1, "zh"), evidence(1), CAL)[0][0]
    other = decide(inp(1, "fr"), evidence(1), CAL)[0][0]
    assert en.p_wrong == pytest.approx(0.1) and zh.p_wrong == pytest.approx(0.4)
    assert other.p_wrong == en.p_wrong  # no model of its own: the default


def test_repeated_step_is_redundant():
    verdicts, _ = decide(inp(2), evidence(2, ("repeat", 1)), CAL)
    assert [v.label for v in verdicts] == ["correct", "redundant"]
    assert verdicts[1].redundancy > 0.5 > verdicts[0].redundancy


def _model(*labels):
    return [StepVerdict(label, f"model: {label}", ("llm",), (i,) if label == "meaningless" else ())
            for i, label in enumerate(labels)]


def test_a_models_label_stands_against_weak_evidence_and_falls_to_strong():
    reliable = Reliability(sensitivity=0.9, false_alarm=0.05)
    kept, warnings = decide(inp(2), evidence(2, ("unexplained_number", 0)), CAL,
                            _model("correct", "correct"), reliable)
    assert [v.label for v in kept] == ["correct", "correct"] and warnings == []
    assert kept[0].evidence == ("llm",) and kept[0].reason == "model: correct"
    # a realistic judge that misses wrong steps: a false equation overrules its "correct"
    fallible = Reliability(sensitivity=0.7, false_alarm=0.1)
    fixed, warnings = decide(inp(2), evidence(2, ("answer_wrong", 1)), CAL,
                             _model("correct", "correct"), fallible)
    assert fixed[1].label == "incorrect" and fixed[1].evidence == ("llm", "answer")
    assert fixed[1].model_label == "correct" and fixed[0].model_label == "correct"
    assert fixed[1].p_wrong == pytest.approx((30 / 27) / (1 + 30 / 27))  # 1/9 x 30 x 1/3
    assert warnings and "relabelled incorrect" in warnings[0]


def test_a_false_alarm_is_overruled_by_support():
    fallible = Reliability(sensitivity=0.7, false_alarm=0.3)
    found = evidence(1, ("answer_correct", 0))
    verdicts, warnings = decide(inp(1), found, CAL, _model("incorrect"), fallible)
    assert verdicts[0].label == "correct" and "relabelled correct" in warnings[0]


def test_the_prior_alone_never_overrules_the_model():
    """A base rate weighs in P(wrong) but is no reason to relabel a step the model judged."""
    unlikely = Calibration("low", {"en": StepModel({"bias": math.log(0.01 / 0.99)}, 0.5)}, KINDS)
    likely = Calibration("high", {"en": StepModel({"bias": math.log(0.99 / 0.01)}, 0.5)}, KINDS)
    fallible = Reliability(sensitivity=0.7, false_alarm=0.1)
    kept, warnings = decide(inp(1), evidence(1), unlikely, _model("incorrect"), fallible)
    assert kept[0].label == "incorrect" and kept[0].p_wrong < 0.1 and warnings == []
    kept, warnings = decide(inp(1), evidence(1), likely, _model("correct"), fallible)
    assert kept[0].label == "correct" and kept[0].p_wrong > 0.9 and warnings == []
    # with a check's finding that outweighs the model's word the same posterior does relabel
    answered = Calibration("low", {"en": StepModel({"bias": math.log(0.01 / 0.99),
                                                    "finding:answer_correct": math.log(0.05)},
                                                   0.5)}, KINDS)
    fixed, _ = decide(inp(1), evidence(1, ("answer_correct", 0)), answered, _model("incorrect"),
                      fallible)
    assert fixed[0].label == "correct" and fixed[0].model_label == "incorrect"


def test_a_weak_finding_tipped_over_by_the_prior_does_not_overrule_the_model():
    """A true calculation (likelihood ratio 0.5) weighs less than a fallible judge's "wrong"
    (0.7 / 0.1 = 7): with a low prior the posterior falls below the threshold, but the check's
    finding is not what carried it there, so the model's label stands."""
    low = Calibration("low", {"en": StepModel({**WEIGHTS, "bias": math.log(0.2 / 0.8)}, 0.5)},
                      KINDS)
    fallible = Reliability(sensitivity=0.7, false_alarm=0.1)
    kept, warnings = decide(inp(1), evidence(1, ("calculation_true", 0)), low,
                            _model("incorrect"), fallible)
    assert kept[0].p_wrong == pytest.approx(0.25 * 7 * 0.5 / (1 + 0.25 * 7 * 0.5))  # 0.47
    assert kept[0].label == "incorrect" and warnings == []


def test_the_models_meaningless_and_dependencies_are_kept():
    verdicts, _ = decide(inp(2), evidence(2, deps=[[], []]), CAL,
                         _model("incorrect", "meaningless"), Reliability(0.9, 0.05))
    assert [v.label for v in verdicts] == ["incorrect", "meaningless"]
    assert verdicts[1].depends_on == (1,)


def test_steps_without_a_model_label_are_decided_offline():
    found = evidence(2, ("calculation_false", 1), deps=[[], [0]])
    verdicts, _ = decide(inp(2), found, CAL, [_model("correct")[0], None])
    assert [v.label for v in verdicts] == ["correct", "incorrect"]
    assert verdicts[1].depends_on == (1,)
    assert (verdicts[0].model_label, verdicts[1].model_label) == ("correct", None)


def test_offline_labels_can_be_decided_together_on_the_expected_score():
    """Four steps 35% to 45% likely wrong: none reaches the threshold, but Eq. 1 on the labels
    is brought to its expectation (6.05 of 10) by calling the two likeliest wrong; a model's labels
    are still weighed step by step."""
    weights = {"bias": 0.0, "first": math.log(0.45 / 0.55), "second": math.log(0.4 / 0.6),
               "third": math.log(0.35 / 0.65), "last": math.log(0.38 / 0.62)}
    model = StepModel(weights, 0.5, decision="expected")
    together = Calibration("together", {"en": model}, KINDS)
    proof = JudgeInput("", [f"step {i}" for i in range(4)], "proof", NO_ANSWER)
    verdicts, _ = decide(proof, evidence(4), together)
    assert [v.label for v in verdicts] == ["incorrect", "incorrect", "correct", "correct"]
    alone = Calibration("alone", {"en": StepModel(weights, 0.5)}, KINDS)
    assert [v.label for v in decide(proof, evidence(4), alone)[0]] == ["correct"] * 4
    judged, _ = decide(proof, evidence(4), together, _model(*["correct"] * 4))
    assert [v.label for v in judged] == ["correct"] * 4
    empty = JudgeInput("", [], "proof", NO_ANSWER)
    assert decide(empty, evidence(0), together) == ([], [])


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
    cal = Calibration("test-recal", {"en": halved}, KINDS)
    verdicts, _ = decide(inp(2), evidence(2, ("calculation_false", 0)), cal)
    raw = math.log(20 / 9)
    assert verdicts[0].label == "incorrect"
    assert verdicts[0].p_wrong == pytest.approx(1 / (1 + math.exp(-raw / 2)))
    assert verdicts[1].p_wrong == pytest.approx(1 / (1 + math.exp(-PRIOR / 2)))
    # In LLM mode the model's word is added after the map: odds sqrt(20/9) x 7 on "wrong".
    said, _ = decide(inp(1), evidence(1, ("calculation_false", 0)), cal,
                     [StepVerdict("incorrect", "")], Reliability(0.7, 0.1))
    assert said[0].p_wrong == pytest.approx(1 / (1 + math.exp(-(raw / 2 + math.log(7)))))


def test_a_group_level_moves_only_the_grades_of_its_group():
    """The level a refit on corrections gives one group of grades (`group:<name>`, no weight in
    a shipped model) changes that group's steps and no other's."""
    levelled = Calibration("group", {"en": StepModel({**WEIGHTS, "group:proof": math.log(81)},
                                                     0.5)}, KINDS)
    proof = JudgeInput("", ["step 0"], "proof", NO_ANSWER)
    assert decide(proof, evidence(1), levelled)[0][0].p_wrong == pytest.approx(0.9)  # 1/9 x 81
    assert decide(proof, evidence(1), CAL)[0][0].p_wrong == pytest.approx(0.1)
    assert decide(inp(1), evidence(1), levelled)[0][0].p_wrong == pytest.approx(0.1)


@pytest.mark.parametrize(("kind", "symbolic", "group"), [
    ("calculation", True, "answer_right"), ("calculation", False, "answer_wrong"),
    ("calculation", None, "no_verdict"), ("proof", False, "proof"),
    ("open_ended", True, "open_ended")])
def test_every_grade_is_in_one_group(kind, symbolic, group):
    answer = AnswerVerdict("4", ("4",), symbolic)
    judged = JudgeInput("", ["a", "b"], kind, answer)
    assert grade_group(judged) == group
    features = [step_features(judged, i, ()) for i in range(2)]
    assert all({n for n in f if n.startswith("group:")} == {f"group:{group}"} for f in features)
    assert {f"group:{group}"} <= set(GROUP_FEATURES)


def test_a_calculation_nobody_can_check_reads_the_mixture_over_its_verdict():
    """Without a reference, a language whose model saw no such calculations (verdict_prior
    set) weighs the verdict it would have seen: 40% right answers here."""
    weights = {"bias": 0.0, "answer_correct_earlier": math.log(0.1),
               "finding:answer_correct": math.log(0.01), "finding:answer_wrong": math.log(4)}
    model = StepModel(weights, 0.5, verdict_prior=0.4)
    cal = Calibration("mix", {"en": model}, KINDS)
    verdicts, _ = decide(inp(2), evidence(2), cal)
    right, wrong = 0.1 / 1.1, 0.5  # an earlier step: odds 0.1 if right, 1 if wrong
    assert verdicts[0].p_wrong == pytest.approx(0.4 * right + 0.6 * wrong)
    last_right, last_wrong = 0.01 / 1.01, 0.8  # the final step carries the answer's finding
    assert verdicts[1].p_wrong == pytest.approx(0.4 * last_right + 0.6 * last_wrong)
    # with a reference the verdict is known or undecided, and the model reads it as it is
    undecided = inp(2, answer=AnswerVerdict("7", ("8",), symbolic=None))
    assert decide(undecided, evidence(2), cal)[0][0].p_wrong == pytest.approx(0.5)
    # without verdict_prior, the bias alone
    plain = Calibration("plain", {"en": StepModel(weights, 0.5)}, KINDS)
    assert decide(inp(2), evidence(2), plain)[0][0].p_wrong == pytest.approx(0.5)
