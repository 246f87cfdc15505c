"""The node tests' tools: a runtime around a context, and the state a node receives,
built by running the nodes before it (offline, or against a scripted model)."""

from __future__ import annotations

import asyncio
import inspect
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest

from agent.context import Context
from agent.llm.fake import FAKE_CONFIG, ChatScript, scripted_client
from agent.nodes.align import align_steps
from agent.nodes.build_tree import build_tree
from agent.nodes.calibrate_difficulty import calibrate_difficulty
from agent.nodes.collect_evidence import collect_evidence
from agent.nodes.judge_answer import judge_answer
from agent.nodes.prepare import prepare
from agent.nodes.score_steps import score_steps
from agent.nodes.segment import segment
from agent.nodes.verify import verify
from eval_sets.fakes.embedder import hashed_bag_of_words
from eval_sets.fakes.openai_server import ARITHMETIC_SLIP_ANSWERS
from example_requests import load_example
from scoring.schema import GradeRequest

# The nodes in the graph's order (parallel branches one after the other).
ORDER = (
    prepare,
    calibrate_difficulty,
    segment,
    judge_answer,
    align_steps,
    score_steps,
    collect_evidence,
    verify,
    build_tree,
)
ADDED = ("warnings", "check_failures", "chunks")


def runtime(context: Context) -> SimpleNamespace:
    """What a node reads as `Runtime[Context]`: its `context`."""
    return SimpleNamespace(context=context)


def call(node, state: dict[str, Any], context: Context) -> dict[str, Any]:
    """One node's update, sync or async, with or without the runtime."""
    args = (state, runtime(context)) if len(inspect.signature(node).parameters) > 1 else (state,)
    out = node(*args)
    return asyncio.run(out) if inspect.iscoroutine(out) else out


def merged(state: dict[str, Any], update: dict[str, Any]) -> dict[str, Any]:
    """`update` applied as the graph's reducers would."""
    out = dict(state)
    for key, value in update.items():
        if key in ADDED:
            out[key] = [*out.get(key, []), *value]
        elif key == "degraded":
            out[key] = bool(out.get(key)) or value
        else:
            out[key] = value
    return out


def state_before(node, request: GradeRequest, context: Context, **extra: Any) -> dict[str, Any]:
    """The state `node` receives: the request run through every node before it."""
    state: dict[str, Any] = {"request": request, **extra}
    for earlier in ORDER:
        if earlier is node:
            return state
        state = merged(state, call(earlier, state, context))
    return state


@pytest.fixture
def offline(hand_judge) -> Context:
    return Context(embedder=hashed_bag_of_words, judge=hand_judge, answer_timeout=5.0)


def llm_context(base: Context, answers: dict | None = None) -> tuple[Context, ChatScript]:
    """`base` with a scripted model answering each operation from `answers` (the bundled
    arithmetic_slip example's by default); a missing operation gets no reply (a failure)."""
    table = ARITHMETIC_SLIP_ANSWERS if answers is None else answers
    script = ChatScript(lambda operation, _prompt: table.get(operation))
    client = scripted_client(script, replace(FAKE_CONFIG, max_retries=0))
    return replace(base, llm=client, llm_model="scripted"), script


def slip(**changes: Any) -> GradeRequest:
    """The bundled arithmetic_slip example (47 + 58 miscounted as 95), with `changes`."""
    return load_example("arithmetic_slip").model_copy(update=changes)
