"""The calibration script's parts on hand-written data: label carrying, the logistic fit, the
kinds' statistics, and a whole run over a tiny labelled folder."""

import json

from eval_sets.calibrate.__main__ import main


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
