"""Graph-level containment: a node that raises does not fail the grade (docs/service.md, "Robustness").

Applied where the nodes are registered (`agent/graph.py`):

- an LLM node that raises anything its own error handling does not absorb (the handled LLM
  errors degrade inside the node) is replaced by its offline twin: the same node on the state
  with the LLM switched off (for a `score_chunk` part: no model labels, `verify` decides its
  steps from the evidence); a node with a last resort (segmentation: one step per line) uses
  it when the twin fails as well;
- a deterministic node that raises is replaced by its neutral update: no alignment, steps
  decided on the prior without the offline checks, the model's labels unchecked, a tree
  without dependencies.

Either way the node adds a `CheckFailure` to the state, which `aggregate` turns into a warning
naming the node and an entry `node.<name>` in `meta.failed_checks`: nothing is left out
silently. A node with no neutral value (`verify` offline, `aggregate`) still raises: no report is
better than an invented one.
"""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from langgraph.errors import GraphBubbleUp
from langgraph.runtime import Runtime

from agent.context import Context
from agent.inputs import judge_input
from agent.state import ChunkState, ChunkVerdicts, GradeState
from scoring.judge import CheckFailure, Evidence, describe, find_final_answer
from scoring.score import build_tree
from scoring.steps import cap_steps

log = logging.getLogger("stepgrade.containment")

Update = dict[str, Any]
Neutral = Callable[[Any], Update]
Twin = Callable[[Any, Runtime[Context]], Update]
Asking = Callable[[Any, Runtime[Context]], Awaitable[Update]]


def failed(check: str, err: BaseException, outcome: str) -> Update:
    """The state update that records a failed node (`aggregate` turns it into a warning)."""
    return {"check_failures": [CheckFailure(check, describe(err), outcome=outcome)]}


def _log_failure(name: str, err: BaseException) -> None:
    """One line; the traceback only at debug level (the CLI must never print one)."""
    log.warning("node %s failed: %s", name, describe(err), exc_info=log.isEnabledFor(logging.DEBUG))


def _offline_view(state: Any) -> Any:
    """The state as an offline grade sees it: no LLM, nothing a model already answered."""
    if "state" in state and "span" in state:  # a `score_chunk` part (`Send` payload)
        return {**state, "state": _offline_view(state["state"])}
    return {**state, "use_llm": False, "chunks": [], "llm_verdicts": None}


def _merge(update: Update, failure: Update) -> Update:
    return {
        **update,
        "check_failures": [*failure["check_failures"], *update.get("check_failures", [])],
    }


def _uses_llm(state: Any) -> bool:
    inner = state["state"] if "state" in state and "span" in state else state
    return bool(inner.get("use_llm"))


def contain_asking(
    name: str, node: Asking, last_resort: Neutral | None = None, twin: Twin | None = None
) -> Asking:
    """A node that may ask the model, falling back to its offline `twin` (by default the node
    itself on the offline view of the state) when it raises anything its own error handling
    does not absorb, and to its `last_resort` when the twin fails too."""
    check = f"node.{name}"

    @functools.wraps(node)
    async def run(state: Any, runtime: Runtime[Context]) -> Update:
        try:
            return await node(state, runtime)
        except GraphBubbleUp:
            raise
        except Exception as err:  # noqa: BLE001 - contained, reported in the report
            _log_failure(name, err)
            update: Update | Exception | None = None
            if _uses_llm(state):
                try:
                    update = (
                        twin(state, runtime)
                        if twin is not None
                        else await node(_offline_view(state), runtime)
                    )
                except GraphBubbleUp:
                    raise
                except Exception as twin_err:  # noqa: BLE001 - decided below
                    update = twin_err
            if isinstance(update, dict):
                return _merge(update, failed(check, err, "graded by its offline twin"))
            if last_resort is None:
                raise (update or err) from None
            said = f"its offline twin failed too ({describe(update)}); " if update else ""
            return _merge(last_resort(state), failed(check, err, f"{said}used its last resort"))

    return run


def contain_node(name: str, node: Callable[..., Update], neutral: Neutral) -> Callable[..., Update]:
    """A deterministic node whose failure leaves its part out (`neutral`) instead of the grade;
    a `neutral` that raises has nothing to offer, and the node's own failure stands."""
    check = f"node.{name}"
    wants_runtime = "runtime" in inspect.signature(node).parameters

    def run(state: GradeState, runtime: Runtime[Context]) -> Update:
        try:
            return node(state, runtime) if wants_runtime else node(state)
        except GraphBubbleUp:
            raise
        except Exception as err:  # noqa: BLE001 - contained, reported in the report
            _log_failure(name, err)
            try:
                part = neutral(state)
            except Exception:  # noqa: BLE001 - no neutral part: the node's failure stands
                raise err from None
            return {**part, **failed(check, err, NEUTRAL_SAYS.get(name, "left out"))}

    run.__name__ = getattr(node, "__name__", name)
    return run


def segment_by_lines(state: GradeState) -> Update:
    """Segmentation's last resort: one step per non-empty line of the solution."""
    request = state["request"]
    lines = request.solution_steps or (request.solution or "").splitlines()
    steps, warnings = cap_steps([line.strip() for line in lines if line.strip()])
    return {"steps": steps, "warnings": warnings}


def judge_chunk_offline(payload: ChunkState, runtime: Runtime[Context]) -> Update:
    """`score_chunk`'s offline twin: no model labels for the part; `verify` decides its steps
    from the evidence alone."""
    first, last = payload["span"]
    return {"chunks": [ChunkVerdicts(first, [None] * (last - first + 1), False)]}


def _no_evidence(state: GradeState) -> Update:
    """No check's findings but the final answer's, which its own node decided."""
    answer = tuple(find_final_answer(judge_input(state)))
    return {
        "evidence": Evidence(answer, tuple(() for _ in state["steps"]), ("node.collect_evidence",))
    }


def _model_labels(state: GradeState) -> Update:
    """`verify`'s neutral part: the model's labels unchecked; offline there are none to keep,
    and no labels are invented, so the failure stands."""
    verdicts = state.get("verdicts") or []
    if state.get("judged_by") != "llm" or len(verdicts) != len(state["steps"]) or None in verdicts:
        raise RuntimeError("verify failed and there are no model labels to keep")
    return {}


def _tree_without_dependencies(state: GradeState) -> Update:
    labels = [v.label for v in state["verdicts"]]
    return {"tree": build_tree(labels, [[] for _ in labels])}


# What each deterministic node's failure leaves out; the graph registers these.
NEUTRAL: dict[str, Neutral] = {
    "align": lambda state: {"alignment": None, "problem_similarity": None},
    "collect_evidence": _no_evidence,
    "verify": _model_labels,
    "build_tree": _tree_without_dependencies,
}
NEUTRAL_SAYS = {
    "align": "graded without the reference alignment",
    "collect_evidence": "steps decided without the offline checks",
    "verify": "the model's labels stand unchecked",
    "build_tree": "the error tree is built without dependencies",
}
TWIN: dict[str, Twin] = {"score_chunk": judge_chunk_offline}
LAST_RESORT: dict[str, Neutral] = {
    "segment": segment_by_lines,
    "calibrate_difficulty": lambda state: {"difficulty": None},
    "judge_answer": lambda state: {},
}
