"""`aggregate`: the deterministic end of the graph; code computes every number (docs/architecture.md 4.3).

It also reports what was contained on the way (`scoring.judge.guard`, `agent.containment`): each
failed check becomes a warning and a name in `meta.failed_checks`; and the text the solution
addressed to the grader, which was not graded, as steps labelled `not_math` (docs/injection.md).
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.context import Context
from agent.review import with_review
from agent.state import GradeState
from prompts.render import PROMPT_SET_VERSION
from scoring.judge import MEMORY_KINDS, Guard, failed_names, failure_warnings, read_memory
from scoring.schema import MemoryReport, Meta
from scoring.score import GradeInputs, HcrsConfig, TreeResult, build_tree, fuse, splice_addressed
from scoring.verdict import StepVerdict

NOT_EVALUATED = "process not evaluated: the difficulty module rated the problem simple"


def _simple_path(state: GradeState) -> tuple[list[StepVerdict], TreeResult]:
    """Difficulty level 1: no step judging; the score follows the answer alone (docs/architecture.md 4.3)."""
    steps = state["steps"]
    verdicts = [StepVerdict("correct", NOT_EVALUATED) for _ in steps]
    if steps and state["answer"].correct is False:
        verdicts[-1] = StepVerdict(
            "incorrect", "final answer does not match the reference", ("answer",)
        )
    tree = build_tree([v.label for v in verdicts], [[] for _ in steps])
    return verdicts, tree


def skeleton_length(state: GradeState) -> int | None:
    """The number of steps a complete solution has, when the request gives a skeleton or reference
    steps."""
    request = state["request"]
    if request.skeleton:
        return len(request.skeleton)
    if request.reference_steps:
        return len(request.reference_steps)
    return None


def aggregate(state: GradeState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Graph node: the report, from every part the earlier nodes produced."""
    if state["evaluate_process"]:
        verdicts, tree = state["verdicts"], state["tree"]
    else:
        verdicts, tree = _simple_path(state)
    request = state["request"]
    inputs = GradeInputs(
        steps=state["steps"],
        verdicts=verdicts,
        tree=tree,
        problem_type=state["problem_type"],
        language=state["language"],
        answer=state["answer"],
        alignment=state.get("alignment"),
        skeleton_len=skeleton_length(state),
        simplicity=request.modules.simplicity,
        difficulty=state.get("difficulty"),
        policy=request.scoring_policy or runtime.context.fuse.policy,
        first_error=state.get("first_error") if state["evaluate_process"] else None,
    )
    use_llm = bool(state.get("use_llm"))
    versions = {
        "prompt_set": PROMPT_SET_VERSION if use_llm else "offline-1",
        "hazard": _hazard_version(runtime.context.fuse.hcrs),
        "calibration": runtime.context.judge.calibration.version,
    }
    if use_llm:
        versions["model"] = runtime.context.llm_model
    guard = Guard()
    run = runtime.context.run
    meta = Meta(
        memory=memory_report(state),
        mode="llm" if use_llm else "offline",
        **run.meta_fields(),
        node_ms=dict(state.get("node_ms", {})),
        degraded=bool(state.get("degraded", False)) or run.degraded,
        warnings=list(state.get("warnings", [])),
        versions=versions,
    )
    report = fuse(inputs, meta, runtime.context.fuse, guard)
    failures = [*state.get("check_failures", []), *guard.failures]
    if failures:
        contained = report.meta.model_copy(
            update={
                "warnings": [*report.meta.warnings, *failure_warnings(failures)],
                "failed_checks": failed_names(failures),
            }
        )
        report = report.model_copy(update={"meta": contained})
    report = splice_addressed(report, state.get("graded_text", ""), state.get("addressed", ()))
    reliability = (
        runtime.context.judge.reliability_for(report.language)
        if report.meta.mode == "llm"
        else None
    )
    return {"report": with_review(report, runtime.context.interval_model, reliability)}


def memory_report(state: GradeState) -> MemoryReport | None:
    """`meta.memory`: what the problem's memory held and what of it this grade used."""
    memory = state.get("memory")
    if not memory:
        return None
    path = (
        read_memory(state["request"].problem, state["steps"], memory).path
        if state.get("evaluate_process") and state.get("steps")
        else None
    )
    evidence = state.get("evidence")
    found = [f for f in evidence.findings if f.kind in MEMORY_KINDS] if evidence else []
    divergence = next((f.step + 1 for f in found if f.kind == "memory_divergence"), None)
    return MemoryReport(
        solutions=len(memory.solutions),
        accepted_solutions=len(memory.accepted_solutions),
        mistakes=memory.mistakes,
        last_corrected=memory.last_corrected,
        aligned_solution=path,
        reference_answer=not state["request"].gold_answers() and bool(memory.answers),
        findings=len(found),
        divergence_step=divergence,
    )


def _hazard_version(config: HcrsConfig) -> str:
    return "default" if config.hazard == HcrsConfig().hazard else "custom"
