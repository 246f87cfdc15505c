"""The review queue's `order=teach`: which correction would teach the problem memory the most
(docs/memory.md, "The queue").

Among the uncorrected grades, those of a problem this key has no memory of come first; within a
problem, the grade whose correction teaches the most: the most uncertain (the widest score
interval, where the grader most needs the teacher) and the most typical of the class's
solutions (the highest mean similarity to the problem's other grades,
`scoring.judge.memory.signature.typicality`: its labels carry over to the most students), the sum of
the interval's width over 10 and the typicality. A problem's best grade comes before any
problem's second best, and larger classes (more grades of the problem) before smaller ones.
A grade whose request opted out of memory teaches nothing and comes last.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from scoring.judge import solution_signature, typicality
from server.store.models import Grade


def _steps(grade: Grade) -> list[str]:
    return [str(s.get("text", "")) for s in grade.report.get("steps") or []]


def teach_order(grades: Sequence[Grade], remembered: set[str]) -> list[Grade]:
    """`grades` (uncorrected, one owner's) in the order of the rule above; `remembered` holds
    the problem keys the owner's memory has."""
    groups: dict[str, list[Grade]] = defaultdict(list)
    for g in grades:
        groups[g.problem_key or f"grade:{g.id}"].append(g)
    keyed: list[tuple[tuple[object, ...], Grade]] = []
    for key, members in groups.items():
        typical = typicality(
            [solution_signature(_steps(g), str(g.request.get("problem", ""))) for g in members]
        )
        value = [max(g.interval_width, 0) / 10 + t for g, t in zip(members, typical, strict=True)]
        ranked = sorted(
            range(len(members)), key=lambda i: (-value[i], members[i].created_at, members[i].id)
        )
        for rank, i in enumerate(ranked):
            g = members[i]
            teaches = g.request.get("memory", True) is not False
            keyed.append(
                (
                    (
                        not teaches,
                        key in remembered,
                        rank,
                        -len(members),
                        -value[i],
                        g.created_at,
                        g.id,
                    ),
                    g,
                )
            )
    return [g for _, g in sorted(keyed, key=lambda item: item[0])]
