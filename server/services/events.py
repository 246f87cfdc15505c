"""Graph node updates as small JSON events for `/grade/stream`, and the final stamped report.

Only what a tutoring UI shows is sent per node (steps, labels, answer, difficulty, tree,
warnings); the full report comes once, at the end.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

from pydantic import BaseModel

from scoring.schema import GradeReport
from scoring.verdict import StepVerdict


def jsonable(value: Any) -> Any:
    """Dataclasses, pydantic models, tuples and numpy values as plain JSON types."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [jsonable(v) for v in value]
    if hasattr(value, "tolist"):
        return value.tolist()
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def _labels(verdicts: list[StepVerdict | None], first: int = 1) -> list[dict[str, Any]]:
    """Labels as far as they are known (a part whose model call failed has none yet)."""
    return [
        {
            "index": i,
            "label": v.label,
            "reason": v.reason,
            "depends_on": list(v.depends_on),
            "p_wrong": v.p_wrong,
        }
        for i, v in enumerate(verdicts, first)
        if v is not None
    ]


def _payload(update: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if "steps" in update:
        out["steps"] = [{"index": i, "text": t} for i, t in enumerate(update["steps"], 1)]
    for key in ("verdicts", "llm_verdicts"):
        if update.get(key):
            out["labels"] = _labels(update[key])
    for chunk in update.get("chunks") or []:
        out.setdefault("labels", []).extend(_labels(chunk.verdicts, chunk.first))
    if update.get("answer") is not None:
        answer = update["answer"]
        out["answer"] = {
            "extracted": answer.extracted,
            "correct": answer.correct,
            "method": answer.method,
        }
    if update.get("difficulty") is not None:
        out["difficulty"] = jsonable(update["difficulty"])
    if "problem_type" in update:
        out["problem_type"] = update["problem_type"]
    if "tree" in update:
        out["tree"] = jsonable(update["tree"].tree)
    if update.get("warnings"):
        out["warnings"] = list(update["warnings"])
    if update.get("degraded"):
        out["degraded"] = True
    return out


class StreamCollector:
    """Turns `stream_mode="updates"` chunks into events and keeps what the report needs."""

    def __init__(self) -> None:
        self.start = time.perf_counter()
        self.node_ms: dict[str, float] = {}
        self._report: GradeReport | None = None

    def add(self, chunk: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        """The stream events one graph update yields (steps as they are judged, then the report)."""
        events = []
        for node, update in chunk.items():
            update = update or {}
            ms = (update.get("node_ms") or {}).get(node)
            if ms is not None:
                self.node_ms[node] = ms
            if isinstance(update.get("report"), GradeReport):
                self._report = update["report"]
            events.append(("node", {"node": node, "ms": ms, **_payload(update)}))
        return events

    def report(self) -> GradeReport:
        """The final report with total time and per-node times, as `Grader.grade` stamps it."""
        if self._report is None:
            raise RuntimeError("the graph finished without a report")
        elapsed = round((time.perf_counter() - self.start) * 1000.0, 3)
        meta = self._report.meta.model_copy(
            update={"elapsed_ms": elapsed, "node_ms": dict(self.node_ms)}
        )
        return self._report.model_copy(update={"meta": meta})
