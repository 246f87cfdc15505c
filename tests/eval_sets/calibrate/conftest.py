"""Hand-made labelled and graded solutions shared by the calibration tests."""

from __future__ import annotations

from eval_sets.calibrate.conformal import Graded
from eval_sets.calibrate.evidence import Observed
from eval_sets.calibrate.labelled import LabelledSolution
from scoring.judge.findings import Evidence, Finding
from scoring.judge.input import JudgeInput
from scoring.score.features import GradeFeatures
from scoring.verdict import AnswerVerdict


def graded(i: int, kind: str, score: int, human: int, steps: int = 4) -> Graded:
    verdict = {"right": "right", "wrong": "wrong"}.get(kind, "none")
    problem_type = kind if kind in ("proof", "open_ended") else "calculation"
    features = GradeFeatures(
        problem_type=problem_type,
        verdict=verdict,  # type: ignore[arg-type]
        has_reference=problem_type == "calculation",
        answer_read=True,
        mode="offline",
        step_logic_checked=False,
        degraded=False,
        steps=steps,
        score=score,
    )
    return Graded(f"u{i}", f"problem {i}", "fit", human, (), (), "en", features)


def synthetic() -> list[Graded]:
    items = [graded(i, "right", 10, 10 - (i % 10 == 0)) for i in range(40)]
    items += [graded(100 + i, "wrong", 4, i % 8, steps=3 + i % 6) for i in range(40)]
    items += [graded(200 + i, "proof", 9, 4 + i % 7) for i in range(10)]
    return items


def observed_solution(wrong, kinds_per_step):
    steps = tuple(f"s{i}" for i in range(len(wrong)))
    sol = LabelledSolution("toy", "toy-1", "fit", "p", steps, tuple(wrong), "calculation", "en", ())
    findings = tuple(Finding(k, i, "") for i, ks in enumerate(kinds_per_step) for k in ks)
    inp = JudgeInput("p", steps, "calculation", AnswerVerdict(None, ()))
    return Observed(sol, inp, Evidence(findings, tuple(() for _ in steps)))
