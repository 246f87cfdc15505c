"""The grading graph (DESIGN.md 3), built in a function, never at import time.

The nodes that may call the LLM run with `invoke` (blocking calls) and with `ainvoke` (awaited
calls on the async client); the others are plain functions (langgraph runs them in a thread
under `ainvoke`).

prepare -> (calibrate_difficulty || segment || judge_answer) -> align -> (score_steps ||
collect_evidence) -> verify -> build_tree -> aggregate; a problem the difficulty module rates simple
goes from align straight to aggregate; in LLM mode a long solution goes from align to `score_chunk`
parts (`Send`) joined by score_steps.
"""

from __future__ import annotations

from typing import Literal

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime
from langgraph.types import Send

from agent.containment import LAST_RESORT, NEUTRAL, TWIN, contain_llm_node, contain_node
from agent.context import Context
from agent.nodes.aggregate import aggregate
from agent.nodes.align import align_steps
from agent.nodes.build_tree import build_tree
from agent.nodes.calibrate_difficulty import calibrate_difficulty
from agent.nodes.collect_evidence import collect_evidence
from agent.nodes.judge_answer import judge_answer
from agent.nodes.llm_node import llm_node
from agent.nodes.prepare import prepare
from agent.nodes.score_chunk import chunk_sends, score_chunk
from agent.nodes.score_steps import score_steps
from agent.nodes.segment import segment
from agent.nodes.verify import verify
from agent.state import GradeState, InputState, OutputState
from agent.timing import timed


def route_after_align(
    state: GradeState, runtime: Runtime[Context]
) -> Literal["aggregate"] | list[str | Send]:
    """Simple problems skip the judge; long solutions in LLM mode fan out in chunks.

    `collect_evidence` always runs beside the judging: `verify` waits for both.
    """
    difficulty = state.get("difficulty")
    if difficulty is not None and not difficulty.process_evaluation_needed:
        return "aggregate"
    size = runtime.context.chunk_steps
    if (
        state.get("use_llm")
        and state.get("llm_verdicts") is None
        and len(state["steps"]) > size
    ):
        return [*chunk_sends(state, size), "collect_evidence"]
    return ["score_steps", "collect_evidence"]


def build_graph() -> CompiledStateGraph:
    """Compile the grading graph; the same object serves offline and LLM mode."""
    builder = StateGraph(
        GradeState, context_schema=Context, input_schema=InputState, output_schema=OutputState
    )
    plain = {
        "prepare": prepare,
        "align": align_steps,
        "collect_evidence": collect_evidence,
        "verify": verify,
        "build_tree": build_tree,
        "aggregate": aggregate,
    }
    asking = {
        "calibrate_difficulty": calibrate_difficulty,
        "segment": segment,
        "judge_answer": judge_answer,
        "score_chunk": score_chunk,
        "score_steps": score_steps,
    }
    for name, node in plain.items():
        builder.add_node(name, timed(name, contain_node(name, node, NEUTRAL[name])
                                     if name in NEUTRAL else node))
    for name, body in asking.items():
        builder.add_node(name, contain_llm_node(name, llm_node(name, body), LAST_RESORT.get(name),
                                                TWIN.get(name)))
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
