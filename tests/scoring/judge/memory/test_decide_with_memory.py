"""Memory findings plug into the decision as any finding does: by their measured likelihood
ratio, and a kind measured precise enough labels its step."""

from datetime import datetime

from scoring.judge import collect_findings
from scoring.judge.decide import decide, posteriors
from scoring.judge.input import JudgeInput
from scoring.judge.load import load_calibration
from scoring.judge.memory import ProblemMemory, RememberedSolution, RememberedStep, problem_key
from scoring.verdict import AnswerVerdict
from tests.conftest import HAND_CALIBRATION

PROBLEM = (
    "Pens cost 3 dollars each and notebooks 5 dollars each. Tom buys 12 pens and 7 "
    "notebooks. How much does he pay?"
)
STEPS = ["The pens are 36 dollars.", "The notebooks are 45 dollars.", "He pays 81 dollars."]
TAUGHT = RememberedSolution(
    "g1",
    (
        RememberedStep("The pens are 36 dollars.", "correct"),
        RememberedStep("The notebooks are 45 dollars.", "incorrect"),
        RememberedStep("He pays 81 dollars.", "meaningless"),
    ),
    datetime(2026, 1, 1),
)


def judged(memory: ProblemMemory | None) -> tuple[list[str], list[float]]:
    calibration = load_calibration(HAND_CALIBRATION)
    inp = JudgeInput(
        PROBLEM, STEPS, "calculation", AnswerVerdict(None, ()), language="en", memory=memory
    )
    evidence = collect_findings(inp)
    verdicts = decide(inp, evidence, calibration).verdicts
    return [v.label for v in verdicts], [p.p_wrong for p in posteriors(inp, evidence, calibration)]


def test_a_known_mistake_fails_its_step_and_accepted_work_holds():
    labels, p = judged(None)
    assert labels == ["unchecked"] * 3  # no check decides any of these steps
    mem_labels, mem_p = judged(ProblemMemory(problem_key(PROBLEM), (TAUGHT,)))
    assert mem_labels == ["correct", "incorrect", "incorrect"]  # both repeat known mistakes
    assert mem_p[0] < p[0] and mem_p[1] > p[1]
