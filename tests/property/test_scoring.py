"""Property tests over the public scoring entry points: no exception escapes, every call returns
within its stated bound, whatever the text.

Bounds (wall clock, generous: a call normally takes a few hundredths of them, and they must
hold on a loaded 2-core machine, through a garbage collection; what they catch is the quadratic
blow-up that takes minutes): parsing, answer extraction, relations, step checks, segmentation
and alignment 10 s; answer equivalence 30 s (a 0.5 s CPU budget in the worker,
`scoring.answer.worker`, plus its restart), a whole answer check 60 s; the judge 10 s + 50 ms
per step (it is linear in the steps).
"""

from __future__ import annotations

import time
from contextlib import contextmanager

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from eval_sets.fakes.embedder import hashed_bag_of_words
from scoring.align.realign import align, align_steps
from scoring.answer.clean import clean_answer
from scoring.answer.compare import check_answer, is_equivalent
from scoring.answer.extract import answer_candidates, extract_answer, find_answer
from scoring.judge import JudgeInput, judge_steps
from scoring.parse.equations import check_step, extract_relations
from scoring.parse.mathparse import parse_math, preclean
from scoring.steps.segment import segment_steps
from scoring.verdict import AnswerVerdict

from .strategies import PROFILE, numbers, relations, solutions, steps, texts


@contextmanager
def within(seconds: float, what: object):
    start = time.monotonic()
    yield
    took = time.monotonic() - start
    assert took < seconds, f"{took:.1f} s (bound {seconds} s) for {what!r:.300}"


@PROFILE
@given(st.one_of(texts, numbers, relations))
def test_parsing(text):
    with within(10, text):
        expr = parse_math(text)
        preclean(text)
    assert expr is None or hasattr(expr, "free_symbols")


@PROFILE
@given(st.one_of(texts, relations))
def test_relations_and_step_checks(text):
    with within(10, text):
        rels = extract_relations(text)
        check = check_step(text)
    assert isinstance(rels, list) and check.verdict in ("true", "false", "unknown")


@PROFILE
@given(solutions, st.sampled_from(["auto", "en", "zh"]))
def test_segmentation(text, language):
    with within(10, text):
        found = segment_steps(text, language)
    assert all(isinstance(s, str) and s.strip() for s in found)


@PROFILE
@given(solutions)
def test_answer_extraction(text):
    with within(10, text):
        answer = extract_answer(text)
        found = find_answer(text)
        candidates = answer_candidates(text)
    assert answer is None or isinstance(answer, str)
    assert found.text is None or isinstance(found.text, str)
    assert all(isinstance(c, str) for c in candidates)


@PROFILE
@given(st.one_of(texts, numbers), st.one_of(texts, numbers))
def test_answer_equivalence(gold, pred):
    with within(30, (gold, pred)):
        same = is_equivalent(gold, clean_answer(pred), timeout=0.5)
    assert same in (True, False, None)


@PROFILE
@given(solutions, st.lists(st.one_of(texts, numbers), max_size=3))
def test_answer_check(text, gold):
    with within(60, (text, gold)):
        check = check_answer(text, gold, timeout=0.5, candidate_timeout=0.5)
    assert check.correct in (True, False, None)
    assert not (check.timed_out and check.correct is not None), "a time-out is never a verdict"


@PROFILE
@given(
    st.integers(0, 40),
    st.integers(0, 40),
    st.integers(0, 2**32 - 1),
    st.sampled_from([None, 5.0, -5.0, 1e300, -1e300, np.nan, np.inf, -np.inf]),
)
def test_alignment_of_any_matrix(m, n, seed, poison):
    """Any finite matrix aligns; a non-finite one (no embedder makes one) is refused by name."""
    matrix = np.random.default_rng(seed).uniform(-1, 1, (m, n))
    if poison is not None and matrix.size:
        matrix.flat[seed % matrix.size] = poison
    with within(10, matrix.shape):
        if np.isfinite(matrix).all():
            result = align(matrix)
            assert len(result.step_reference) == n and len(result.pairs) <= max(m, n)
        else:
            with pytest.raises(ValueError, match="NaN or infinite"):
                align(matrix)


@PROFILE
@given(st.lists(texts, max_size=15), steps)
def test_alignment_of_any_steps(reference, solution):
    with within(10 + 0.01 * len(solution), (reference, solution)):
        result = align_steps(reference, solution, embedder=hashed_bag_of_words)
    assert len(result.step_similarity) == len(solution)


@PROFILE
@given(
    texts,
    steps,
    st.sampled_from(["calculation", "proof", "open_ended"]),
    st.one_of(st.none(), texts),
    st.booleans(),
)
def test_judge(problem, solution, problem_type, answer, format_module):
    verdict = AnswerVerdict(answer, (answer,) if answer else (), bool(answer) or None)
    inp = JudgeInput(problem, solution, problem_type, verdict, format_module=format_module)
    with within(10 + 0.05 * len(solution), (problem, solution[:3], len(solution))):
        verdicts = judge_steps(inp)
    assert len(verdicts) == len(solution)
    for i, v in enumerate(verdicts, 1):
        assert v.label in ("correct", "incorrect", "meaningless", "redundant", "unchecked")
        assert all(0 < d < i for d in v.depends_on)
