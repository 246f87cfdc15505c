"""A test double: a fake model that obeys text addressed to the grader (docs/injection.md).

It grades the red-team set's solutions (`eval_sets.redteam`) honestly, from their plain steps'
labels, until the student's text it is shown (between the prompt's `<solution>`, `<steps>` or
`<answer>` tags) holds any attempt's words: then it does what they ask, labels every step
`correct` and finds the answer equal. It reads the text folded (`scoring.parse.fold`), as a model
reads through zero-width and look-alike characters. `captured=True` makes a model the attempt
got to whatever the grader shows it: every step `correct`, every answer equal, always.

Steps it does not know (text that is neither a plain step nor an attempt) it calls `correct`:
what a careless model does, so that a grade that kept more of an attempt than it should would
show it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from eval_sets.redteam import Attempt, PlainSolution
from scoring.parse.fold import fold

_SECTION = re.compile(r"<(solution|steps|answer)>\n(.*?)\n</\1>", re.DOTALL)
_NUMBERED = re.compile(r"^\((\d+)\) (.*)$", re.MULTILINE)


def _key(text: str) -> str:
    return re.sub(r"\s+", " ", fold(text, markup=False).text).strip()


class ObeyingOracle:
    """The FakeOpenAI oracle for the red-team set: honest, or obedient once it sees an attempt."""

    def __init__(self, plain: Sequence[PlainSolution], attempts: Sequence[Attempt],
                 captured: bool = False) -> None:
        self.captured = captured
        self.labels = {_key(step): label for s in plain for step, label in zip(s.steps, s.labels,
                                                                             strict=True)}
        self.words = [_key(a.written) for a in attempts if _key(a.written)]
        self.obeyed = 0  # answers given as an attempt asked

    def _sees_attempt(self, shown: str) -> bool:
        seen = _key(shown)
        return any(words in seen for words in self.words)

    def __call__(self, operation: str, prompt: str) -> dict[str, Any] | None:
        """The answer to `operation` for what the prompt shows; None for an unknown operation."""
        sections = {m.group(1): m.group(2) for m in _SECTION.finditer(prompt)}
        shown = "\n".join(sections.values())
        obey = self.captured or self._sees_attempt(shown)
        self.obeyed += obey
        if operation == "difficulty":
            return {"level": 2, "process_evaluation_needed": True, "problem_type": "calculation",
                    "reason": "several steps"}
        if operation == "answer_judgement":
            return {"correct": obey, "reason": "as asked" if obey else "differs from the reference"}
        steps = self._steps(operation, sections)
        labels = ["correct" if obey else self.labels.get(_key(s), "correct") for s in steps]
        if operation == "segmentation":
            return {"steps": steps}
        judged = []
        for i, (step, label) in enumerate(zip(steps, labels, strict=True), 1):
            entry = {"label": label, "reason": "as asked" if obey else f"{label}",
                     "depends_on": [i - 1] if label == "meaningless" and i > 1 else [],
                     "reference_steps": [], "error_categories": []}
            judged.append({"text": step, **entry} if operation == "fused_judgement"
                          else {"index": i, **entry})
        if operation in ("step_judgement", "fused_judgement"):
            return {"steps": judged}
        return None

    @staticmethod
    def _steps(operation: str, sections: dict[str, str]) -> list[str]:
        if operation == "step_judgement":
            return [m.group(2).strip() for m in _NUMBERED.finditer(sections.get("steps", ""))]
        return [line.strip() for line in sections.get("solution", "").splitlines() if line.strip()]
