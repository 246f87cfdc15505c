"""The calibration script's parts on hand-written data: label carrying, the logistic fit, the
kinds' statistics, and a whole run over a tiny labelled folder."""

import json

import numpy as np
import pytest

from eval_sets.calibrate.__main__ import main
from eval_sets.calibrate.evidence import Observed
from eval_sets.calibrate.fit import MIN_NO_VERDICT, fit_weights, kind_stats, verdict_prior
from eval_sets.calibrate.labelled import LabelledSolution
from eval_sets.calibrate.logistic import fit_logistic
from eval_sets.calibrate.transfer import carry_labels
from eval_sets.halves import half_of
from scoring.judge.findings import Evidence, Finding
from scoring.judge.input import JudgeInput
from scoring.verdict import AnswerVerdict


def test_labels_are_carried_onto_finer_steps():
    text = "(1) 先算 $3+4=7$。然后 $7 \\times 2 = 14$。\n(2) 所以答案是 15。"
    human = ["先算 $3+4=7$。然后 $7 \\times 2 = 14$。", "所以答案是 15。"]
    mine = ["先算 $3+4=7$。", "然后 $7 \\times 2 = 14$。", "所以答案是 15。"]
    assert carry_labels(text, human, mine) == [0, 0, 1]


def test_a_human_step_that_was_edited_still_lands_in_order():
    text = "- First we add.\n- Then we multiply 3 by 4.\nFinally we are done."
    human = ["First we add. Then we multiply 3 by 4.", "Finally we are done."]
    assert carry_labels(
        text, human, ["First we add.", "Then we multiply 3 by 4.", "Finally we are done."]
    ) == [0, 0, 1]


def test_logistic_fit_recovers_known_coefficients():
    rng = np.random.default_rng(0)
    x = np.column_stack([np.ones(20000), rng.normal(size=20000)])
    p = 1 / (1 + np.exp(-(x @ np.array([-1.0, 2.0]))))
    y = (rng.random(20000) < p).astype(float)
    beta = fit_logistic(x, y, l2=0.0)
    assert beta == pytest.approx([-1.0, 2.0], abs=0.1)


def _observed(wrong, kinds_per_step):
    steps = tuple(f"s{i}" for i in range(len(wrong)))
    sol = LabelledSolution("toy", "toy-1", "fit", "p", steps, tuple(wrong), "calculation", "en", ())
    findings = tuple(Finding(k, i, "") for i, ks in enumerate(kinds_per_step) for k in ks)
    inp = JudgeInput("p", steps, "calculation", AnswerVerdict(None, ()))
    return Observed(sol, inp, Evidence(findings, tuple(() for _ in steps)))


def test_kind_statistics_count_labelled_steps_only():
    data = [
        _observed(
            [True, False, None],
            [["calculation_false"], ["calculation_false"], ["calculation_false"]],
        ),
        _observed(
            [True, False, False, False], [["calculation_false"], [], [], ["calculation_true"]]
        ),
    ]
    stats = kind_stats(data)
    false = stats["calculation_false"]
    assert (false.wrong, false.right) == (2, 1)  # the unlabelled third step is not counted
    assert false.precision == pytest.approx(2 / 3, abs=1e-4)
    assert false.likelihood_ratio == pytest.approx((2.5 / 3) / (1.5 / 5), rel=1e-3)
    assert not false.decisive  # 3 firings: fewer than the 5 a decisive kind needs
    assert stats["calculation_true"].precision == 1.0  # support: right when it fires
    assert stats["odd_copy"] == type(false)(0, 0, None, None, False)


def _toy_set():
    """Wrong steps found by false calculations or contradictions, right steps mostly plain; one
    derivation and one odd copy, each seen once."""
    data = []
    for _ in range(30):
        data.append(_observed([True, False], [["calculation_false"], []]))
        data.append(_observed([False, False, False], [[], [], []]))
    for _ in range(10):
        data.append(_observed([True, False], [["contradiction"], []]))
        data.append(_observed([False, False], [["calculation_false"], []]))
    data.append(_observed([True, False], [["derivation"], ["odd_copy"]]))
    return data


def test_a_false_relation_seen_too_rarely_takes_its_familys_weight():
    data = _toy_set()
    weights = fit_weights(data, ("bias",))
    own = weights["finding:calculation_false"], weights["finding:contradiction"]
    assert min(own) > 1.0  # their own fitted weights
    # one firing: no weight of its own, the weight of "some relation was found false", which
    # lies between those of the kinds that make up the family
    assert min(own) < weights["finding:derivation"] < max(own)
    assert weights["finding:continuation"] == weights["finding:derivation"]  # never seen
    assert "finding:odd_copy" not in weights  # seen once, and no family to back off to


def test_no_back_off_without_a_weighed_false_relation():
    data = [_observed([True, False, False], [["derivation"], [], []]) for _ in range(2)]
    data += [_observed([True, False, False], [["unexplained_number"], [], []]) for _ in range(5)]
    weights = fit_weights(data, ("bias",))
    assert "finding:unexplained_number" in weights
    assert not any(k in weights for k in ("finding:derivation", "finding:continuation"))


def test_an_answer_kind_seen_twice_in_this_language_takes_the_answer_familys_weight():
    """Steps of one language: wrong marked answers on wrong final steps, and an unmarked wrong
    answer twice, both times on a step labelled right (two firings say "never wrong")."""
    data = []
    for _ in range(20):
        data.append(_observed([False, True], [[], ["answer_wrong"]]))
        data.append(_observed([False, False, False], [[], [], ["answer_correct"]]))
    data += [_observed([False, False], [[], ["answer_unmarked_wrong"]]) for _ in range(2)]
    weights = fit_weights(data, ("bias",))
    assert weights["finding:answer_wrong"] > 1.0
    # no weight of its own from two firings: "the final answer is not the reference"
    assert 0.0 < weights["finding:answer_unmarked_wrong"] < weights["finding:answer_wrong"]


def test_a_kind_is_weighed_on_the_steps_it_is_fitted_on_not_on_another_languages():
    often = [_observed([True, False], [["unexplained_number"], []]) for _ in range(6)]
    rare = [_observed([True, False], [["unexplained_number"], []])] + [
        _observed([True, False, False], [[], [], []]) for _ in range(5)
    ]
    assert "finding:unexplained_number" in fit_weights(often, ("bias",))
    # what six firings elsewhere say does not make one firing here weighable
    assert "finding:unexplained_number" not in fit_weights(rare, ("bias",))


def _answered(i, verdict, reference=("1",)):
    sol = LabelledSolution(
        "toy", f"toy-{i}", "fit", "p", ("s",), (False,), "calculation", "zh", reference
    )
    answer = AnswerVerdict(
        "1" if verdict else "2", reference, symbolic=verdict if reference else None
    )
    return Observed(sol, JudgeInput("p", ("s",), "calculation", answer), Evidence((), ((),)))


def test_the_verdict_prior_is_the_share_of_right_answers_when_few_lack_a_reference():
    data = [_answered(i, i < 3) for i in range(5)] + [_answered(9, None, ())]
    assert verdict_prior(data) == pytest.approx(0.6)  # 3 of the 5 with a verdict
    unchecked = [_answered(10 + i, None, ()) for i in range(MIN_NO_VERDICT)]
    assert verdict_prior(data + unchecked) is None  # enough to fit their own prior


def test_halves_keep_a_problems_solutions_together():
    assert half_of("Find x.  ") == half_of("Find  x.")
    halves = {half_of(f"problem {i}") for i in range(50)}
    assert halves == {"fit", "check"}


def _stepmath_row(uid, question, steps, labels, score, kind="Calculation", answers=None):
    return {
        "uid": uid,
        "id": uid,
        "question": question,
        "answers": answers,
        "model_output": "\n".join(steps),
        "type": kind,
        "level": 1,
        "gold_step": [f"({i}) {s}" for i, s in enumerate(steps, 1)],
        "gold_step_score": labels,
        "gold_score": score,
        "gold_score_01": int(score > 5),
    }


def _processbench_row(i, problem, steps, label):
    return {
        "id": f"gsm8k-{i}",
        "generator": "toy",
        "problem": problem,
        "steps": steps,
        "final_answer_correct": label == -1,
        "label": label,
    }


def test_a_whole_run_writes_a_calibration_the_judge_can_load(tmp_path, capsys):
    rows = []
    for i in range(30):  # enough fit-half grades for the score interval's pooled cell
        q = f"Problem {i}: add {i} and {i + 1}, then double it."
        good = [
            f"先算 ${i} + {i + 1} = {2 * i + 1}$。",
            f"再乘 2 得 ${2 * i + 1} \\times 2 = {4 * i + 2}$。",
            f"答案是 {4 * i + 2}。",
        ]
        bad = [
            f"先算 ${i} + {i + 1} = {2 * i + 2}$。",
            f"再乘 2 得 ${2 * i + 2} \\times 2 = {4 * i + 4}$。",
            f"答案是 {4 * i + 4}。",
        ]
        rows.append(_stepmath_row(f"a{i}", q, good, ["1", "1", "1"], 10, answers=[str(4 * i + 2)]))
        rows.append(_stepmath_row(f"b{i}", q, bad, ["0", "1(0)", "0"], 0, answers=[str(4 * i + 2)]))
    (tmp_path / "stepmathbench_dev.jsonl").write_text(
        "\n".join(json.dumps(r, ensure_ascii=False) for r in rows), encoding="utf-8"
    )
    pb = []
    for i in range(16):
        p = f"Tom has {i} apples and buys {i + 3} more. How many now?"
        pb.append(
            _processbench_row(
                2 * i,
                p,
                [
                    f"He buys {i + 3} apples.",
                    f"So $ {i} + {i + 3} = {2 * i + 3}$.",
                    f"The answer is {2 * i + 3}.",
                ],
                -1,
            )
        )
        pb.append(
            _processbench_row(
                2 * i + 1,
                p,
                [
                    f"He buys {i + 3} apples.",
                    f"So $ {i} + {i + 3} = {2 * i + 4}$.",
                    f"The answer is {2 * i + 4}.",
                ],
                1,
            )
        )
    (tmp_path / "processbench_dev.jsonl").write_text(
        "\n".join(json.dumps(r) for r in pb), encoding="utf-8"
    )
    out = tmp_path / "calibration.json"
    assert main(["--data", str(tmp_path), "--out", str(out), "--llm-seeds", "0"]) == 0
    printed = capsys.readouterr().out
    assert "calculation_false" in printed and "Step model per language" in printed
    data = json.loads(out.read_text(encoding="utf-8"))
    assert set(data["models"]) == {"en", "zh"}
    assert data["kinds"]["calculation_false"]["likelihood_ratio"] > 1
    assert data["models"]["en"]["weights"]["finding:calculation_false"] > 0
    assert "Tom has" not in out.read_text(encoding="utf-8")  # statistics, not rows
    assert "80% interval" in printed and "Reliability table" in printed
    assert data["uncertainty"]["cells"]["all"]["n"] >= 20  # refit after the step model
    # graded in LLM mode against the label fake too: cells of their own, at its reliability
    assert "LLM mode, label fake" in printed
    assert data["uncertainty"]["meta"]["llm"]["miss"] == 0.3
    assert data["uncertainty"]["llm_cells"]["all"]["n"] >= 20
    assert main(["--data", str(tmp_path), "--out", str(out), "--check-only", "--llm-seeds"]) == 0


def test_missing_data_folder_is_a_usage_error(tmp_path, capsys):
    assert main(["--data", str(tmp_path / "absent")]) == 2
    assert "no such folder" in capsys.readouterr().err
    assert main(["--data", str(tmp_path)]) == 2


def _graded(subset, p_wrong, redundancy):
    from dataclasses import replace

    from eval_sets.calibrate.fit import Grade

    base = _observed([False] * len(p_wrong), [[] for _ in p_wrong])
    observed = replace(base, solution=replace(base.solution, set="perturbation", subset=subset))
    return Grade(observed, ["correct"] * len(p_wrong), list(p_wrong), list(redundancy), 10, None)


def test_perturbations_follow_reasoneval_protocol_for_repeated_steps():
    from eval_sets.calibrate.report import perturbation_aucs

    originals = [
        _graded("original", [0.1, 0.2], [0.05, 0.05]),
        _graded("original", [0.3, 0.1], [0.05, 0.05]),
    ]
    # A slip raises P(wrong); a repeated step is not wrong, only redundant.
    slips = [_graded("random number", [0.1, 0.9], [0.05, 0.05])]
    repeats = [_graded("repeat step", [0.1, 0.1], [0.05, 0.9])]
    pooled, protocol = perturbation_aucs([*originals, *slips, *repeats])
    assert pooled == pytest.approx(0.5)  # the repeat ranks below both originals by P(wrong)
    assert protocol == pytest.approx(1.0)  # each type is ranked by the score that measures it


def test_each_perturbation_type_is_ranked_against_the_originals_on_its_own():
    from eval_sets.calibrate.report import perturbation_type_aucs

    originals = [
        _graded("original", [0.1, 0.2], [0.05, 0.05]),
        _graded("original", [0.3, 0.1], [0.05, 0.05]),
    ]
    # One swap ranks above both originals, the other between them; the removal below both.
    swaps = [
        _graded("swap steps", [0.1, 0.4], [0.05, 0.05]),
        _graded("swap steps", [0.25, 0.1], [0.05, 0.05]),
    ]
    removals = [_graded("remove step", [0.05], [0.05])]
    repeats = [_graded("repeat step", [0.1, 0.1], [0.05, 0.9])]
    found = perturbation_type_aucs([*originals, *swaps, *removals, *repeats])
    assert found == {
        "remove step": (1, pytest.approx(0.0)),
        "repeat step": (1, pytest.approx(1.0)),
        "swap steps": (2, pytest.approx(0.75)),
    }


def test_platt_recovers_a_known_map_and_shifts_when_the_log_odds_do_not_vary():
    from eval_sets.calibrate.recalibrate import Scored, fit_platt

    rng = np.random.default_rng(0)
    z = rng.normal(-1.0, 1.5, 4000)
    wrong = rng.random(4000) < 1 / (1 + np.exp(-(0.5 * z + 0.3)))
    platt = fit_platt([Scored(float(a), bool(b), 1.0, "proof") for a, b in zip(z, wrong)])
    assert platt is not None and platt.slope == pytest.approx(0.5, abs=0.08)
    assert platt.intercept == pytest.approx(0.3, abs=0.1)
    # one log-odds for every step (a model reading only the problem type): a shift to the rate
    flat = [Scored(-1.0, i % 4 == 0, 1.0, "proof") for i in range(400)]
    shift = fit_platt(flat)
    assert shift is not None and shift.slope == 1.0
    assert 1 / (1 + np.exp(-shift(-1.0))) == pytest.approx(0.25, abs=0.01)  # Platt's targets
    assert fit_platt(flat[:100]) is None  # too few steps


def test_a_refit_keeps_the_sections_it_does_not_fit(tmp_path):
    from eval_sets.calibrate.__main__ import kept_sections
    from eval_sets.calibrate.uncertainty import with_uncertainty
    from scoring.judge.calibration import Calibration, StepModel
    from scoring.score.interval import Cell, UncertaintyModel, uncertainty_of

    cal = Calibration(
        "1-a",
        {"en": StepModel({"bias": -1.0}, 0.5)},
        {},
        {},
        {"future_section": {"en": {"sensitivity": 0.8}}},
    )
    path = tmp_path / "calibration.json"
    path.write_text(json.dumps(cal.to_json()), encoding="utf-8")
    assert kept_sections(path) == {"future_section": {"en": {"sensitivity": 0.8}}}
    assert kept_sections(tmp_path / "absent.json") == {}
    model = UncertaintyModel("2-u", 0.8, {"all": Cell(30, 0.0, 1.0, 1.0, 0.0, -1.0, 1.0)}, 5)
    both = with_uncertainty(cal, model)
    assert both.section("future_section") == {"en": {"sensitivity": 0.8}}
    assert uncertainty_of(both) == model and uncertainty_of(cal) is None
    assert both.version.startswith("1-") and both.version != cal.version


def test_a_refit_keeps_the_measured_reliability_of_a_model(tmp_path):
    from eval_sets.calibrate.__main__ import kept_sections
    from scoring.judge.calibration import LLM_SECTION, Calibration, StepModel

    rates = {
        "wrong": 13,
        "caught": 8,
        "right": 86,
        "alarms": 7,
        "sensitivity": 0.607,
        "false_alarm": 0.086,
        "sensitivity_interval": [0.36, 0.82],
        "false_alarm_interval": [0.04, 0.16],
        "source": "measured",
    }
    data = Calibration("1-a", {"en": StepModel({"bias": -1.0}, 0.5)}).to_json()
    data[LLM_SECTION] = {"judge-model": {"en": rates}}
    path = tmp_path / "calibration.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    kept = kept_sections(path)
    assert kept[LLM_SECTION]["judge-model"]["en"]["caught"] == 8
    rewritten = Calibration("1-b", {"en": StepModel({"bias": -1.0}, 0.5)}, sections=kept)
    back = Calibration.from_json(json.loads(json.dumps(rewritten.to_json())))
    assert back.llm_rates["judge-model"]["en"].sensitivity == 0.607


def test_recalibration_scope_keeps_a_per_type_shift_that_holds_out_of_fold():
    from eval_sets.calibrate.recalibrate import Scored, cross_validated_ece, maps_of

    rng = np.random.default_rng(1)

    def steps(kind: str, shift: float, n: int) -> list[Scored]:
        z = rng.normal(-1.0, 1.0, n)
        wrong = rng.random(n) < 1 / (1 + np.exp(-(z + shift)))
        return [
            Scored(float(a), bool(b), 1.0, kind, i % 5) for i, (a, b) in enumerate(zip(z, wrong))
        ]

    # proofs are truly 1.5 log-odds more often wrong than their log-odds say: a type's own map wins
    shifted = steps("calculation", 0.0, 1500) + steps("proof", 1.5, 1500)
    per_type, pooled = (cross_validated_ece(shifted, s) for s in ("per_type", "pooled"))
    assert per_type is not None and pooled is not None and per_type < pooled
    assert set(maps_of(shifted, "per_type")) == {"calculation", "proof", "any"}
    assert set(maps_of(shifted, "pooled")) == {"any"}


def test_the_recalibration_scope_is_chosen_on_every_group_alike():
    """A map per group of grades, when one group's log-odds are off by a shift the others' are
    not; the choice reads each group's ECE alike, so a large group cannot hide a small one."""
    from eval_sets.calibrate.recalibrate import Scored, cross_validated_ece, maps_of

    rng = np.random.default_rng(2)

    def steps(group: str, shift: float, n: int) -> list[Scored]:
        z = rng.normal(-1.5, 1.0, n)
        wrong = rng.random(n) < 1 / (1 + np.exp(-(z + shift)))
        return [
            Scored(float(a), bool(b), 1.0, "calculation", i % 5, "unchecked", group)
            for i, (a, b) in enumerate(zip(z, wrong, strict=True))
        ]

    scored = steps("answer_right", 0.0, 3000) + steps("answer_wrong", 1.5, 600)
    by_group, pooled = (cross_validated_ece(scored, s) for s in ("per_group", "pooled"))
    assert by_group is not None and pooled is not None and by_group < pooled
    assert set(maps_of(scored, "per_group")) == {"group:answer_right", "group:answer_wrong", "any"}
    assert set(maps_of(scored, "per_group_state")) >= {"group:answer_wrong|state:unchecked"}
