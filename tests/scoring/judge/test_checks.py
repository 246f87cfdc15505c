"""Each check on small hand-written solutions: what it finds, where, and what it leaves alone.

Checks only find; whether a finding changes a label is the decision layer's business
(tests/scoring/judge/decide/test_labels.py).
"""

import pytest

from scoring.judge import JudgeInput, collect_findings
from scoring.verdict import AnswerVerdict

NO_REF = AnswerVerdict(None, ())


def found(steps, problem="", answer=NO_REF, problem_type="calculation", **kw):
    """{(kind, 1-based step)} of every finding except the checked-true support."""
    evidence = collect_findings(JudgeInput(problem, steps, problem_type, answer, **kw))
    return {(f.kind, f.step + 1) for f in evidence.findings if f.kind != "calculation_true"}


def details(steps, kind, **kw):
    evidence = collect_findings(
        JudgeInput(kw.pop("problem", ""), steps, "calculation", kw.pop("answer", NO_REF), **kw)
    )
    return [f.detail for f in evidence.findings if f.kind == kind]


def test_correct_solution_gives_only_support():
    steps = [
        "Let the width be w, so the length is 2w.",
        "The perimeter is $2(w + 2w) = 6w = 30$, so $w = 5$.",
        "The area is $5 \\times 10 = 50$.",
    ]
    evidence = collect_findings(
        JudgeInput("", steps, "calculation", AnswerVerdict("50", ("50",), symbolic=True))
    )
    assert {f.polarity for f in evidence.findings} == {"support"}
    assert ("answer_correct", 2) in {(f.kind, f.step) for f in evidence.findings}
    assert evidence.depends_on[2] == (1,) and evidence.failed_checks == ()


def test_arithmetic_slip_and_a_wrong_final_answer():
    steps = [
        "Total muffins: $47 + 58 = 95$.",
        "Money: $95 \\times 3 = 285$ dollars.",
        "The bakery takes in 285 dollars.",
    ]
    kinds = found(
        steps,
        problem="47 and 58 muffins at $3 each",
        answer=AnswerVerdict("285", ("315",), symbolic=False),
    )
    assert {("calculation_false", 1), ("answer_wrong", 3)} <= kinds
    assert details(steps, "calculation_false") == ["47 + 58 = 95 is false (105)"]


@pytest.mark.parametrize(
    ("steps", "kind", "step"),
    [
        (["$3 - 8 = 5$", "so the result is 5"], "calculation_false", 1),
        (["We have $x = 4$.", "Then $2x = 10$."], "contradiction", 2),
        (["We divide 7 into 91 to get 12.", "So each group has 12."], "calculation_false", 1),
        (["The area is $(b+3)(b-1)$.", "Expanding, we get $b^2 + 2b + 3$."], "rewrite", 2),
        (["Their total is $8 + 14 = 22$.", "And dividing by two gives us 12."], "continuation", 2),
        (["$3 \\times 4 = 12$.", "$3 \\times 4 = 12$.", "So the answer is 12."], "repeat", 2),
        (
            ["That simplifies to $7y^2 = 72$.", "So $y^2 = 36$.", "Thus $y = 6$."],
            "back_substitution",
            1,
        ),
    ],
)
def test_each_error_kind_on_its_own_case(steps, kind, step):
    assert (kind, step) in found(steps)


@pytest.mark.parametrize(
    "steps",
    [
        ["We divide 7 into 91 to get 13.", "So each group has 13."],
        ["Their total is $8 + 14 = 22$.", "And dividing by two gives us 11."],
        ["If $m = 0$, then $m^2 = 0$.", "If $m = 2$, then $m^2 = 4$.", "So $m^2 \\ge 0$."],
        ["We have $x = 10^{400}$.", "If $x = 2$, then $x^2 = 4$.", "So $x \\ge 2$."],
    ],
)
def test_the_clean_twin_finds_nothing(steps):
    """Nothing but the soft hints (numbers the empty problem does not explain)."""
    soft = {"unexplained_number", "unexplained_unused"}
    assert {(k, i) for k, i in found(steps) if k not in soft} == set()


def test_answer_findings_follow_the_verdict_and_skip_proofs():
    steps = ["$3 \\times 4 = 12$", "so there are 12 apples"]
    assert ("answer_wrong", 2) in found(steps, answer=AnswerVerdict("12", ("13",), symbolic=False))
    unmarked = AnswerVerdict("12", ("13",), symbolic=False, anchored=False)
    assert ("answer_unmarked_wrong", 2) in found(steps, answer=unmarked)
    proof = found(
        ["Assume n is even.", "Then n^2 is even."],
        problem_type="proof",
        answer=AnswerVerdict("x", ("y",), symbolic=False),
    )
    assert not any(kind.startswith("answer") for kind, _ in proof)


def test_a_model_saying_equal_does_not_rescue_two_different_numbers():
    answer = AnswerVerdict("285", ("315",), symbolic=False, llm=True, plain_difference=True)
    assert answer.correct is False and answer.overruled_model
    assert ("answer_wrong", 1) in found(["So it is 285."], answer=answer)
    unclear = AnswerVerdict("x^2", ("x*x",), symbolic=False, llm=True)
    assert unclear.correct is True


def test_soft_findings():
    problem = "A shop sells 14 pens a day for 6 days."
    unused = found(
        [
            "In total $14 \\cdot 6 = 84$ pens.",
            "Also 57 were returned.",
            "So the shop sold 84 pens.",
        ],
        problem=problem,
    )
    used = found(
        ["In total $14 \\cdot 6 = 84$ pens.", "Also 57 were returned.", "So 57 fewer remain."],
        problem=problem,
    )
    assert ("unexplained_unused", 2) in unused and ("unexplained_number", 2) in used
    off = found(
        ["The circle has radius 3.", "Its area is $9\\pi$."], problem_similarity=[0.1, 0.05]
    )
    assert {("off_topic", 1), ("off_topic", 2)} <= off
    assert not any(k == "off_topic" for k, _ in found(["a", "b"], problem_similarity=[0.1, 0.6]))


def test_early_answer_and_odd_copy():
    problem = "A pen costs 3 dollars and a notebook 4 dollars. What do 6 pens and 5 notebooks cost?"
    steps = [
        "Six pens cost $6 \\times 3 = 18$ dollars.",
        "So the answer is 38.",
        "Five notebooks cost $5 \\times 4 = 20$ dollars.",
        "Together they cost $18 + 20 = 38$ dollars.",
    ]
    assert ("early_answer", 2) in found(
        steps, problem=problem, answer=AnswerVerdict("38", ("38",), symbolic=True)
    )
    problem = "Find the sum of the multiples of 9 between 100 and 300."
    steps = [
        "We need the multiples of 9 between 100 and 200.",
        "The multiples of 9 between 100 and 300 start at $9 \\cdot 12 = 108$.",
        "The multiples of 9 between 100 and 300 end at $9 \\cdot 33 = 297$.",
    ]
    assert ("odd_copy", 1) in found(steps, problem=problem)
