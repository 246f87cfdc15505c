"""`score_chunk`: a long solution's parts, one call each over all the steps for context; a
failed part leaves only its own steps to the evidence."""

from __future__ import annotations

import pytest

from agent.nodes.score_chunk import chunk_sends, score_chunk, spans
from agent.nodes.score_steps import score_steps
from eval_sets.fakes.openai_server import ARITHMETIC_SLIP_ANSWERS, ARITHMETIC_SLIP_JUDGED
from tests.agent.nodes.conftest import call, llm_context, slip, state_before


@pytest.mark.parametrize(
    ("n", "size", "expected"),
    [
        (5, 2, [(1, 2), (3, 4), (5, 5)]),
        (4, 4, [(1, 4)]),
        (3, 30, [(1, 3)]),
        (0, 3, []),
    ],
)
def test_spans_cover_every_step_once(n, size, expected):
    assert spans(n, size) == expected


def test_one_send_per_span():
    sends = chunk_sends({"steps": ["a", "b", "c"]}, 2)
    assert [s.node for s in sends] == ["score_chunk", "score_chunk"]
    assert [s.arg["span"] for s in sends] == [(1, 2), (3, 3)]


def test_a_part_gets_its_own_verdicts(offline):
    answers = {**ARITHMETIC_SLIP_ANSWERS, "step_judgement": {"steps": ARITHMETIC_SLIP_JUDGED[1:]}}
    context, script = llm_context(offline, answers)
    state = state_before(score_steps, slip(mode="llm"), context)
    update = call(score_chunk, {"state": state, "span": (2, 3)}, context)
    [chunk] = update["chunks"]
    assert chunk.first == 2 and chunk.by_llm
    assert [v.label for v in chunk.verdicts] == ["meaningless", "incorrect"]
    prompt = script.calls[-1].prompt
    assert (
        "judge steps 2 to 3 only" in prompt
        and ARITHMETIC_SLIP_ANSWERS["segmentation"]["steps"][0] in prompt
    )  # every step shown for context


def test_a_failed_part_degrades_only_its_steps(offline):
    broken, _ = llm_context(offline, {**ARITHMETIC_SLIP_ANSWERS, "step_judgement": "no JSON"})
    state = state_before(score_steps, slip(mode="llm"), broken)
    update = call(score_chunk, {"state": state, "span": (1, 2)}, broken)
    [chunk] = update["chunks"]
    assert (chunk.first, chunk.verdicts, chunk.by_llm) == (1, [None, None], False)
    assert update["degraded"] and "judge for steps 1-2" in update["warnings"][0]


def test_it_is_never_routed_to_offline(offline):
    state = state_before(score_steps, slip(), offline)
    with pytest.raises(RuntimeError, match="only routed to in LLM mode"):
        call(score_chunk, {"state": state, "span": (1, 3)}, offline)
