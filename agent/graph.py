"""The grading graph (docs/architecture.md 3), built in a function, never at import time.

prepare -> (calibrate_difficulty || segment || judge_answer) -> align -> (score_steps ||
collect_evidence) -> verify -> build_tree -> aggregate; a problem the difficulty module rates simple
goes from align straight to aggregate; in LLM mode a long solution goes from align to `score_chunk`
parts (`Send`) joined by score_steps.

The nodes that may ask the model are coroutines: the graph runs with `ainvoke` everywhere (the
CLI and `Grader.grade` too), a call awaits on the event loop, and a grade's deadline cancels it.
Their offline work runs in worker threads; the other nodes are plain functions. LangGraph runs
a plain function in a worker thread; the quick ones (`ON_LOOP`: no model, no I/O, well under a
millisecond or two) run on the event loop instead, as do `align` when it has nothing to embed
and `prepare` when it has no answer to compare (`IN_THREAD_WHEN`): a hop to a thread and back
costs more than their work.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime
from langgraph.types import Send

from agent.containment import LAST_RESORT, NEUTRAL, TWIN, contain_asking, contain_node
from agent.context import Context
from agent.inputs import fused_call
from agent.nodes.aggregate import aggregate
from agent.nodes.align import align_steps, embeds
from agent.nodes.build_tree import build_tree
from agent.nodes.calibrate_difficulty import calibrate_difficulty
from agent.nodes.collect_evidence import collect_evidence
from agent.nodes.judge_answer import judge_answer
from agent.nodes.prepare import compares_answer, prepare
from agent.nodes.score_chunk import chunk_sends, score_chunk
from agent.nodes.score_steps import score_steps
from agent.nodes.segment import segment
from agent.nodes.verify import verify
from agent.state import GradeState, InputState, OutputState
from agent.timing import atimed, timed

Update = dict[str, Any]

PLAIN: dict[str, Callable[..., Update]] = {
    "prepare": prepare,
    "align": align_steps,
    "collect_evidence": collect_evidence,
    "verify": verify,
    "build_tree": build_tree,
    "aggregate": aggregate,
}
ASKING: dict[str, Callable[..., Awaitable[Update]]] = {
    "calibrate_difficulty": calibrate_difficulty,
    "segment": segment,
    "judge_answer": judge_answer,
    "score_chunk": score_chunk,
    "score_steps": score_steps,
}


# Plain nodes quick enough to run on the event loop rather than in a worker thread.
ON_LOOP = frozenset({"verify", "build_tree", "aggregate"})


def _on_loop(node: Callable[..., Update]) -> Callable[..., Awaitable[Update]]:
    @functools.wraps(node)
    async def run(state: GradeState, runtime: Runtime[Context]) -> Update:
        return node(state, runtime)

    return run


# Plain nodes that need a worker thread only when this says so: `align` when it embeds (the
# model's time), `prepare` when it compares an answer (math-verify's worker, up to a timeout).
IN_THREAD_WHEN: dict[str, Callable[[GradeState, Context], bool]] = {
    "align": embeds,
    "prepare": compares_answer,
}


def _in_thread_when(
    node: Callable[..., Update], blocks: Callable[[GradeState, Context], bool]
) -> Callable[..., Awaitable[Update]]:
    """`node` in a worker thread when `blocks` says it will wait or work long, else on the loop."""

    @functools.wraps(node)
    async def run(state: GradeState, runtime: Runtime[Context]) -> Update:
        if blocks(state, runtime.context):
            return await asyncio.to_thread(node, state, runtime)
        return node(state, runtime)

    return run


async def route_after_align(
    state: GradeState, runtime: Runtime[Context]
) -> Literal["aggregate"] | list[str | Send]:
    """Simple problems skip the judge; long solutions in LLM mode fan out in chunks.

    `collect_evidence` always runs beside the judging: `verify` waits for both. A coroutine
    only so that LangGraph runs it on the event loop: a plain function it hands to a worker
    thread, two thread switches a grade for reading the state.
    """
    if not state["evaluate_process"]:
        return "aggregate"
    size = runtime.context.chunk_steps
    if state.get("use_llm") and not fused_call(state["request"]) and len(state["steps"]) > size:
        return [*chunk_sends(state, size), "collect_evidence"]
    return ["score_steps", "collect_evidence"]


def build_graph() -> CompiledStateGraph[GradeState, Context, InputState, OutputState]:
    """Compile the grading graph; the same object serves offline and LLM mode."""
    builder = StateGraph(
        GradeState, context_schema=Context, input_schema=InputState, output_schema=OutputState
    )
    for name, node in PLAIN.items():
        contained = contain_node(name, node, NEUTRAL[name]) if name in NEUTRAL else node
        if name in ON_LOOP:
            builder.add_node(name, atimed(name, _on_loop(contained)))
        elif name in IN_THREAD_WHEN:
            builder.add_node(name, atimed(name, _in_thread_when(contained, IN_THREAD_WHEN[name])))
        else:
            builder.add_node(name, timed(name, contained))
    for name, coroutine in ASKING.items():
        builder.add_node(
            name,
            atimed(name, contain_asking(name, coroutine, LAST_RESORT.get(name), TWIN.get(name))),
        )
    builder.add_edge(START, "prepare")
    builder.add_edge("prepare", "calibrate_difficulty")
    builder.add_edge("prepare", "segment")
    builder.add_edge("prepare", "judge_answer")
    builder.add_edge(["calibrate_difficulty", "segment", "judge_answer"], "align")
    builder.add_conditional_edges(
        "align", route_after_align, ["score_steps", "score_chunk", "collect_evidence", "aggregate"]
    )
    builder.add_edge("score_chunk", "score_steps")
    builder.add_edge(["score_steps", "collect_evidence"], "verify")
    builder.add_edge("verify", "build_tree")
    builder.add_edge("build_tree", "aggregate")
    builder.add_edge("aggregate", END)
    return builder.compile()
