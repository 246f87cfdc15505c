"""The grading graph (DESIGN.md 3), built in a function, never at import time.

prepare -> (calibrate_difficulty || segment || judge_answer) -> align -> (score_steps ||
collect_evidence) -> verify -> build_tree -> aggregate; a problem the difficulty module rates simple
goes from align straight to aggregate; in LLM mode a long solution goes from align to `score_chunk`
parts (`Send`) joined by score_steps.

The nodes that may ask the model are coroutines: the graph runs with `ainvoke` everywhere (the
CLI and `Grader.grade` too), a call awaits on the event loop, and a grade's deadline cancels it.
Their offline work runs in worker threads; the other nodes are plain functions, which LangGraph
runs in worker threads.
"""

from __future__ import annotations

from typing import Literal

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime
from langgraph.types import Send

from agent.containment import LAST_RESORT, NEUTRAL, TWIN, contain_asking, contain_node
from agent.context import Context
from agent.inputs import fused_call
from agent.nodes.aggregate import aggregate
from agent.nodes.align import align_steps
from agent.nodes.build_tree import build_tree
from agent.nodes.calibrate_difficulty import calibrate_difficulty
from agent.nodes.collect_evidence import collect_evidence
from agent.nodes.judge_answer import judge_answer
from agent.nodes.prepare import prepare
from agent.nodes.score_chunk import chunk_sends, score_chunk
from agent.nodes.score_steps import score_steps
from agent.nodes.segment import segment
from agent.nodes.verify import verify
from agent.state import GradeState, InputState, OutputState
from agent.timing import atimed, timed

PLAIN = {
    "prepare": prepare,
    "align": align_steps,
    "collect_evidence": collect_evidence,
    "verify": verify,
    "build_tree": build_tree,
    "aggregate": aggregate,
}
ASKING = {
    "calibrate_difficulty": calibrate_difficulty,
    "segment": segment,
    "judge_answer": judge_answer,
    "score_chunk": score_chunk,
    "score_steps": score_steps,
}


def route_after_align(
    state: GradeState, runtime: Runtime[Context]
) -> Literal["aggregate"] | list[str | Send]:
    """Simple problems skip the judge; long solutions in LLM mode fan out in chunks.

    `collect_evidence` always runs beside the judging: `verify` waits for both.
    """
    if not state["evaluate_process"]:
        return "aggregate"
    size = runtime.context.chunk_steps
    if state.get("use_llm") and not fused_call(state["request"]) and len(state["steps"]) > size:
        return [*chunk_sends(state, size), "collect_evidence"]
    return ["score_steps", "collect_evidence"]


def build_graph() -> CompiledStateGraph:
    """Compile the grading graph; the same object serves offline and LLM mode."""
    builder = StateGraph(
        GradeState, context_schema=Context, input_schema=InputState, output_schema=OutputState
    )
    for name, node in PLAIN.items():
        builder.add_node(name, timed(name, contain_node(name, node, NEUTRAL[name])
                                     if name in NEUTRAL else node))
    for name, coroutine in ASKING.items():
        builder.add_node(name, atimed(name, contain_asking(name, coroutine, LAST_RESORT.get(name),
                                                           TWIN.get(name))))
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
