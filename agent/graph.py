"""The grading graph (DESIGN.md 3), built in a function, never at import time.

prepare -> (calibrate_difficulty || segment || judge_answer) -> align -> score_steps -> verify -> build_tree
-> aggregate; a problem the difficulty module rates simple goes from align straight to aggregate;
in LLM mode a long solution goes from align to `score_chunk` parts (`Send`) joined by score_steps.
"""

from __future__ import annotations

from typing import Literal

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime
from langgraph.types import Send

from agent.context import Context
from agent.nodes.aggregate import aggregate
from agent.nodes.align import align_steps
from agent.nodes.build_tree import build_tree
from agent.nodes.calibrate_difficulty import calibrate_difficulty
from agent.nodes.judge_answer import judge_answer
from agent.nodes.prepare import prepare
from agent.nodes.score_chunk import chunk_sends, score_chunk
from agent.nodes.score_steps import score_steps
from agent.nodes.segment import segment
from agent.nodes.verify import verify
from agent.state import GradeState, InputState, OutputState
from agent.timing import timed


def route_after_align(
    state: GradeState, runtime: Runtime[Context]
) -> Literal["score_steps", "aggregate"] | list[Send]:
    """Simple problems skip the judge; long solutions in LLM mode fan out in chunks."""
    difficulty = state.get("difficulty")
    if difficulty is not None and not difficulty.process_evaluation_needed:
        return "aggregate"
    size = runtime.context.chunk_steps
    if (
        state.get("use_llm")
        and state.get("llm_verdicts") is None
        and len(state["steps"]) > size
    ):
        return chunk_sends(state, size)
    return "score_steps"


def build_graph() -> CompiledStateGraph:
    """Compile the grading graph; the same object serves offline and LLM mode."""
    builder = StateGraph(
        GradeState, context_schema=Context, input_schema=InputState, output_schema=OutputState
    )
    nodes = {
        "prepare": prepare,
        "calibrate_difficulty": calibrate_difficulty,
        "segment": segment,
        "judge_answer": judge_answer,
        "align": align_steps,
        "score_chunk": score_chunk,
        "score_steps": score_steps,
        "verify": verify,
        "build_tree": build_tree,
        "aggregate": aggregate,
    }
    for name, node in nodes.items():
        builder.add_node(name, timed(name, node))
    builder.add_edge(START, "prepare")
    builder.add_edge("prepare", "calibrate_difficulty")
    builder.add_edge("prepare", "segment")
    builder.add_edge("prepare", "judge_answer")
    builder.add_edge(["calibrate_difficulty", "segment", "judge_answer"], "align")
    builder.add_conditional_edges("align", route_after_align, ["score_steps", "score_chunk", "aggregate"])
    builder.add_edge("score_chunk", "score_steps")
    builder.add_edge("score_steps", "verify")
    builder.add_edge("verify", "build_tree")
    builder.add_edge("build_tree", "aggregate")
    builder.add_edge("aggregate", END)
    return builder.compile()
