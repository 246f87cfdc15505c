"""Running the judge's checks over labelled solutions as a grade would: the answer verdict with
and without references, the findings, and the context the step model's prior reads."""

from __future__ import annotations

from eval_sets.calibrate.evidence import observe, with_context
from eval_sets.calibrate.labelled import LabelledSolution
from scoring.judge import SolutionContext


def solution(steps: tuple[str, ...], references: tuple[str, ...]) -> LabelledSolution:
    return LabelledSolution(
        "toy",
        "t-1",
        "fit",
        "Compute 2 + 3, then double it.",
        steps,
        (False,) * len(steps),
        "calculation",
        "en",
        references,
    )


STEPS = ("2 + 3 = 5.", "5 * 2 = 12.", "So the answer is 12.")


def test_the_answer_is_checked_against_the_references() -> None:
    [wrong] = observe([solution(STEPS, ("10",))], progress=False)
    assert wrong.inp.steps == STEPS and wrong.inp.problem_type == "calculation"
    assert wrong.inp.answer.reference == ("10",)
    assert wrong.inp.answer.symbolic is False
    [right] = observe([solution(STEPS, ("12",))], progress=False)
    assert right.inp.answer.symbolic is True


def test_without_a_reference_the_answer_is_only_extracted() -> None:
    [seen] = observe([solution(STEPS, ())], progress=False)
    assert seen.inp.answer.reference == () and seen.inp.answer.symbolic is None
    assert seen.inp.answer.extracted is not None and "12" in seen.inp.answer.extracted


def test_the_checks_find_the_false_product() -> None:
    [seen] = observe([solution(STEPS, ("10",))], progress=False)
    assert any(f.step == 1 for f in seen.evidence.findings)  # 5 * 2 is not 12 (0-based step 1)


def test_progress_is_a_line_every_hundred_solutions(capsys) -> None:
    observe([solution(STEPS, ())] * 100, progress=True)
    assert capsys.readouterr().err == "  checked 100 solutions\n"


def test_with_context_fills_the_solution_context() -> None:
    [seen] = observe([solution(STEPS, ("10",))], progress=False)
    assert seen.context == SolutionContext()
    filled = with_context(seen, {"bias": 1.0})
    assert filled.context != SolutionContext() and filled.evidence == seen.evidence
