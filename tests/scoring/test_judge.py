"""The offline judge on small hand-written solutions: each rule, and a clean solution left clean."""

import pytest

from scoring.align import AlignedGroup, Alignment
from scoring.judge import JudgeConfig, JudgeInput, judge_steps
from scoring.verdict import AnswerVerdict

NO_REF = AnswerVerdict(None, ())


def judge(steps, problem="", answer=NO_REF, problem_type="calculation", **kw):
    return judge_steps(JudgeInput(problem, steps, problem_type, answer, **kw))


def labels(verdicts):
    return [v.label for v in verdicts]


def test_correct_solution_stays_clean():
    steps = ["Let the width be w, so the length is 2w.",
             "The perimeter is $2(w + 2w) = 6w = 30$, so $w = 5$.",
             "The area is $5 \\times 10 = 50$."]
    verdicts = judge(steps, answer=AnswerVerdict("50", ("50",), symbolic=True))
    assert labels(verdicts) == ["correct"] * 3
    assert verdicts[2].evidence[-1] == "answer"
    assert all(v.validity >= 0.75 for v in verdicts)


def test_arithmetic_slip_and_what_it_corrupts():
    steps = ["Total muffins: $47 + 58 = 95$.", "Money: $95 \\times 3 = 285$ dollars.",
             "The bakery takes in 285 dollars."]
    verdicts = judge(steps, problem="47 and 58 muffins at $3 each",
                     answer=AnswerVerdict("285", ("315",), symbolic=False))
    assert labels(verdicts) == ["incorrect", "meaningless", "incorrect"]
    assert verdicts[0].evidence == ("symbolic",) and "calculation" in verdicts[0].error_categories
    assert verdicts[1].depends_on == (1,) and "step 1" in verdicts[1].reason
    assert "does not match the reference 315" in verdicts[2].reason
    assert verdicts[0].validity < 0.1 < verdicts[1].validity


def test_sign_flip_is_incorrect():
    verdicts = judge(["$3 - 8 = 5$", "so the result is 5"])
    assert verdicts[0].label == "incorrect"


def test_contradiction_with_earlier_relations():
    steps = ["We have $x = 4$.", "Then $2x = 10$."]
    verdicts = judge(steps)
    assert labels(verdicts) == ["correct", "incorrect"]
    assert "contradicts earlier steps" in verdicts[1].reason


def test_repeated_step_is_redundant():
    steps = ["$3 \\times 4 = 12$.", "$3 \\times 4 = 12$.", "So the answer is 12."]
    verdicts = judge(steps)
    assert labels(verdicts) == ["correct", "redundant", "correct"]
    assert verdicts[1].redundancy > 0.5 > verdicts[0].redundancy


def test_open_ended_final_step_takes_the_answer_check():
    verdicts = judge(["Take f(x) = x.", "So one example is f(x) = x."], problem_type="open_ended",
                     answer=AnswerVerdict("f(x) = x", ("f(x) = 2x",), symbolic=False))
    assert labels(verdicts) == ["correct", "incorrect"]


def test_proof_final_step_is_not_an_answer_check():
    verdicts = judge(["Assume n is even.", "Then n^2 is even."], problem_type="proof",
                     answer=AnswerVerdict("x", ("y",), symbolic=False))
    assert labels(verdicts) == ["correct", "correct"]


def test_right_answer_overrides_propagation_on_the_final_step():
    steps = ["$2 + 2 = 5$", "so the answer is 4"]
    verdicts = judge(steps, answer=AnswerVerdict("4", ("4",), symbolic=True))
    assert labels(verdicts) == ["incorrect", "correct"]


def test_format_module_flags_malformed_latex():
    steps = ["$\\frac{1}{2$ of the cake", "so half is left"]
    assert judge(steps)[0].label == "correct"
    verdicts = judge(steps, format_module=True)
    assert verdicts[0].label == "incorrect" and "format" in verdicts[0].error_categories


def _alignment(step_reference, step_similarity):
    return Alignment(
        pairs=[AlignedGroup(r, (i,), s) for i, (r, s) in enumerate(zip(step_reference, step_similarity)) if r],
        insertions=[i for i, r in enumerate(step_reference) if not r], deletions=[], score=0.8,
        divergence_step=None, step_similarity=step_similarity, step_reference=step_reference,
    )


def test_step_unrelated_to_every_reference_step_is_incorrect():
    refs = ["Subtract 5: 2x = 8.", "Divide by 2: x = 4."]
    steps = ["Subtract 5 from both sides: 2x = 8.", "The weather is nice today.", "So x = 4."]
    al = _alignment([(0,), (), (1,)], [0.9, 0.1, 0.85])
    verdicts = judge(steps, alignment=al, reference_steps=refs)
    assert labels(verdicts) == ["correct", "incorrect", "correct"]
    assert verdicts[1].evidence == ("alignment",)


def test_numbers_contradicting_the_aligned_reference_step():
    refs = ["Subtract 5: 2x = 8.", "Divide by 2: x = 4."]
    steps = ["Subtract 5 from both sides: 2x = 8.", "Divide by 2: x = 5."]
    al = _alignment([(0,), (1,)], [0.9, 0.9])
    verdicts = judge(steps, alignment=al, reference_steps=refs)
    assert verdicts[1].label == "incorrect"
    assert "reference step 2" in verdicts[1].reason


@pytest.mark.parametrize("n", [1, 200])
def test_every_step_gets_a_verdict_with_evidence_or_the_prior(n):
    steps = [f"Step {i}: we note that {i} + 1 = {i + 1}." for i in range(n)]
    verdicts = judge(steps)
    assert len(verdicts) == n
    assert all(v.label == "correct" and v.evidence == ("symbolic",) for v in verdicts)


def test_back_substitution_marks_the_step_the_final_value_contradicts():
    steps = ["That simplifies to $7y^2 = 72$.", "So $y^2 = 36$.", "Thus $y = 6$."]
    verdicts = judge(steps, answer=AnswerVerdict("6", ("6",), symbolic=True))
    assert labels(verdicts) == ["incorrect", "incorrect", "correct"]
    assert "fails with the solution's own y = 6" in verdicts[0].reason
    assert "does not follow from 7y^2 = 72" in verdicts[1].reason  # the derivation breaks too


def test_unmarked_wrong_answer_is_less_certain_than_a_marked_one():
    steps = ["$3 \\times 4 = 12$", "so there are 12 apples"]
    marked = judge(steps, answer=AnswerVerdict("12", ("13",), symbolic=False))
    unmarked = judge(steps, answer=AnswerVerdict("12", ("13",), symbolic=False, anchored=False))
    assert marked[-1].label == unmarked[-1].label == "incorrect"
    assert marked[-1].validity < unmarked[-1].validity
    assert "closing lines" in unmarked[-1].reason


def test_a_solution_to_some_other_problem_loses_validity_not_labels():
    steps = ["The circle has radius 3.", "Its area is $9\\pi$.", "So the answer is 9."]
    off = judge(steps, problem_similarity=[0.1, 0.05, 0.2])
    assert labels(off) == ["correct"] * 3
    assert all(v.validity == 0.3 and "unrelated to the problem" in v.reason for v in off)
    on_topic = judge(steps, problem_similarity=[0.1, 0.6, 0.5])  # mean 0.4: about the problem
    assert all("unrelated" not in v.reason for v in on_topic)


def test_a_number_from_nowhere_that_leads_nowhere_weighs_more():
    problem = "A shop sells 14 pens a day for 6 days."
    used = judge(["In total $14 \\cdot 6 = 84$ pens.", "Also 57 were returned.",
                  "So 57 fewer remain."], problem=problem)
    unused = judge(["In total $14 \\cdot 6 = 84$ pens.", "Also 57 were returned.",
                    "So the shop sold 84 pens."], problem=problem)
    assert labels(used) == labels(unused) == ["correct"] * 3
    assert "no later step uses" in unused[1].reason
    assert "no later step uses" not in used[1].reason
    assert 0.5 < unused[1].validity < used[1].validity < 0.75


def test_prose_slip_is_incorrect_and_the_clean_version_is_not():
    wrong = judge(["We divide 7 into 91 to get 12.", "So each group has 12."])
    right = judge(["We divide 7 into 91 to get 13.", "So each group has 13."])
    assert labels(wrong)[0] == "incorrect" and labels(right)[0] == "correct"


def test_broken_rewrite_is_incorrect():
    steps = ["The area is $(b+3)(b-1)$.", "Expanding, we get $b^2 + 2b + 3$."]
    verdicts = judge(steps)
    assert labels(verdicts) == ["correct", "incorrect"]
    assert "is not equal to (b+3)(b-1)" in verdicts[1].reason


def test_case_analysis_stays_clean():
    steps = ["If $m = 0$, then $m^2 = 0$.", "If $m = 2$, then $m^2 = 4$.", "So $m^2 \\ge 0$."]
    assert labels(judge(steps)) == ["correct"] * 3


def test_a_case_value_too_large_for_a_float_is_still_a_new_case():
    steps = ["We have $x = 10^{400}$.", "If $x = 2$, then $x^2 = 4$.", "So $x \\ge 2$."]
    assert labels(judge(steps)) == ["correct"] * 3


def test_operation_on_the_previous_result_is_checked():
    wrong = judge(["Their total is $8 + 14 = 22$.", "And dividing by two gives us 12."])
    right = judge(["Their total is $8 + 14 = 22$.", "And dividing by two gives us 11."])
    assert labels(wrong) == ["correct", "incorrect"]
    assert "previous result 22" in wrong[1].reason
    assert labels(right) == ["correct", "correct"]


def test_an_odd_copy_lowers_validity_but_keeps_the_label():
    problem = "Find the sum of the multiples of 9 between 100 and 300."
    steps = ["We need the multiples of 9 between 100 and 200.",
             "The multiples of 9 between 100 and 300 start at $9 \\cdot 12 = 108$.",
             "The multiples of 9 between 100 and 300 end at $9 \\cdot 33 = 297$."]
    verdicts = judge(steps, problem=problem)
    assert labels(verdicts) == ["correct"] * 3
    assert verdicts[0].validity == pytest.approx(JudgeConfig().odd_copy)
    assert "writes 200" in verdicts[0].reason  # 200 = 2 x 100: explained, yet odd and "300" in verdicts[0].reason
    assert verdicts[1].validity >= 0.75 and verdicts[2].validity >= 0.75


def test_an_answer_stated_before_its_work_lowers_that_step():
    problem = "A pen costs 3 dollars and a notebook 4 dollars. What do 6 pens and 5 notebooks cost?"
    steps = ["Six pens cost $6 \\times 3 = 18$ dollars.", "So the answer is 38.",
             "Five notebooks cost $5 \\times 4 = 20$ dollars.", "Together they cost $18 + 20 = 38$ dollars."]
    verdicts = judge(steps, problem=problem, answer=AnswerVerdict("38", ("38",), symbolic=True))
    assert labels(verdicts) == ["correct"] * 4
    assert verdicts[1].validity == pytest.approx(JudgeConfig().early_answer)
    assert "before the work of step 3" in verdicts[1].reason
    in_order = [steps[0], steps[2], steps[3], steps[1]]
    clean = judge(in_order, problem=problem, answer=AnswerVerdict("38", ("38",), symbolic=True))
    assert all(v.validity >= 0.75 for v in clean)
