"""Steps against an aligned reference solution: one that matches no reference step, one whose
numeric results differ from those of the reference step it aligns with."""

from scoring.align.realign import AlignedGroup, Alignment
from scoring.judge.checks.reference import UNRELATED_SIMILARITY, find_reference
from scoring.judge.input import JudgeInput
from scoring.verdict import AnswerVerdict

REFS = ["Subtract 5: 2x = 8.", "Divide by 2: x = 4."]


def found(steps, alignment, reference_steps):
    """{(kind, 1-based step)} of the reference findings."""
    inp = JudgeInput("", steps, "calculation", AnswerVerdict(None, ()), alignment, reference_steps)
    return {(f.kind, f.step + 1) for f in find_reference(inp)}


def _alignment(step_reference, step_similarity):
    return Alignment(
        pairs=[
            AlignedGroup(r, (i,), s)
            for i, (r, s) in enumerate(zip(step_reference, step_similarity))
            if r
        ],
        insertions=[i for i, r in enumerate(step_reference) if not r],
        deletions=[],
        score=0.8,
        divergence_step=None,
        step_similarity=step_similarity,
        step_reference=step_reference,
    )


def test_reference_checks():
    refs = ["Subtract 5: 2x = 8.", "Divide by 2: x = 4."]
    unrelated = ["Subtract 5 from both sides: 2x = 8.", "The weather is nice today.", "So x = 4."]
    assert ("reference_unmatched", 2) in found(
        unrelated, _alignment([(0,), (), (1,)], [0.9, 0.1, 0.85]), refs
    )
    differs = ["Subtract 5 from both sides: 2x = 8.", "Divide by 2: x = 5."]
    assert ("reference_mismatch", 2) in found(differs, _alignment([(0,), (1,)], [0.9, 0.9]), refs)


def test_nothing_is_found_without_an_aligned_reference():
    steps = ["The weather is nice today.", "Divide by 2: x = 5."]
    alignment = _alignment([(), (1,)], [0.05, 0.9])
    assert found(steps, None, REFS) == set()
    assert found(steps, alignment, []) == set()
    assert found(steps, alignment, REFS) == {("reference_unmatched", 1), ("reference_mismatch", 2)}


def test_an_unaligned_step_near_the_reference_is_left_alone():
    steps = ["Subtract 5 from both sides: 2x = 8.", "Now divide.", "So x = 4."]
    near = _alignment([(0,), (), (1,)], [0.9, UNRELATED_SIMILARITY, 0.9])
    assert found(steps, near, REFS) == set()


def test_only_numeric_results_are_compared():
    """A step that derives no number, or whose results share one with its reference step,
    does not differ from it."""
    alignment = _alignment([(0,), (1,)], [0.9, 0.9])
    assert found(["Subtract 5: 2x = 8.", "Divide by two to find x."], alignment, REFS) == set()
    assert found(["Subtract 5: 2x = 8.", "So x = 4 and y = 7."], alignment, REFS) == set()


def test_the_mismatch_names_the_reference_step_and_both_results():
    inp = JudgeInput(
        "",
        ["Subtract 5: 2x = 8.", "Divide by 2: x = 5."],
        "calculation",
        AnswerVerdict(None, ()),
        _alignment([(0,), (1,)], [0.9, 0.9]),
        REFS,
    )
    [finding] = find_reference(inp)
    assert finding.detail == "results ['5'] differ from reference step 2 (['4'])"
