"""A test double: a fake model that obeys text addressed to the grader (docs/injection.md).

`ObeyingOracle(words, honest)` answers as `honest` (another oracle) until the student's text it
is shown (between the prompt's `<solution>`, `<steps>` or `<answer>` tags) holds any of `words`:
then it does what they ask, labels every step `correct` and finds the answer equal. It reads the
text folded (`scoring.parse.fold`), as a model reads through zero-width and look-alike
characters. `captured=True` makes a model the words got to whatever the grader shows it: every
step `correct`, every answer equal, always.

`PlainLabels` is the honest model of the red-team set (`eval_sets.redteam`): it labels the plain
solutions' steps as written there, and calls a step it does not know `correct`, what a careless
model does, so that a grade that kept more of an attempt than it should would show it.
`LabelOracle` is the honest model of StepMathBench (`eval_sets.studies.injection_bench`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from eval_sets.fakes.openai_server import Oracle
from eval_sets.redteam import PlainSolution
from scoring.parse import fold

_SECTION = re.compile(r"<(solution|steps|answer)>\n(.*?)\n</\1>", re.DOTALL)
_NUMBERED = re.compile(r"^\((\d+)\) (.*)$", re.MULTILINE)


def _key(text: str) -> str:
    return re.sub(r"\s+", " ", fold(text, markup=False).text).strip()


def shown_steps(operation: str, prompt: str) -> list[str]:
    """The steps a prompt shows: numbered in `<steps>`, else the lines of `<solution>`."""
    sections = {m.group(1): m.group(2) for m in _SECTION.finditer(prompt)}
    if operation == "step_judgement":
        return [m.group(2).strip() for m in _NUMBERED.finditer(sections.get("steps", ""))]
    return [line.strip() for line in sections.get("solution", "").splitlines() if line.strip()]


def judged(
    operation: str, steps: Sequence[str], labels: Sequence[str], reason: str
) -> dict[str, Any] | None:
    """A segmentation, step or fused judgement answer for `steps` labelled `labels`; a
    meaningless step depends on the one before it."""
    if operation == "segmentation":
        return {"steps": list(steps)}
    out = []
    for i, (step, label) in enumerate(zip(steps, labels, strict=True), 1):
        entry = {
            "label": label,
            "reason": reason or label,
            "depends_on": [i - 1] if label == "meaningless" and i > 1 else [],
            "reference_steps": [],
            "error_categories": [],
        }
        out.append(
            {"text": step, **entry} if operation == "fused_judgement" else {"index": i, **entry}
        )
    return {"steps": out} if operation in ("step_judgement", "fused_judgement") else None


def verdict(operation: str, correct: bool, reason: str) -> dict[str, Any] | None:
    """The fake's answer to the operations that do not read steps: the answer `correct` or not,
    and a calculation to judge step by step, or (`correct`: the obedient model) one so simple
    that the answer alone scores; None for the others."""
    if operation == "difficulty":
        return {
            "level": 1 if correct else 2,
            "process_evaluation_needed": not correct,
            "problem_type": "calculation",
            "reason": reason,
        }
    if operation == "answer_judgement":
        return {"correct": correct, "reason": reason}
    return None


class PlainLabels:
    """The honest model of the red-team set: each plain step's label, as written there."""

    def __init__(self, plain: Iterable[PlainSolution]) -> None:
        self.labels = {
            _key(step): label for s in plain for step, label in zip(s.steps, s.labels, strict=True)
        }

    def __call__(self, operation: str, prompt: str) -> dict[str, Any] | None:
        """The honest answer: the plain steps' labels, the answer wrong (every plain solution
        of the set is)."""
        if (answer := verdict(operation, False, "differs from the reference")) is not None:
            return answer
        steps = shown_steps(operation, prompt)
        return judged(operation, steps, [self.labels.get(_key(s), "correct") for s in steps], "")


class ObeyingOracle:
    """The FakeOpenAI oracle: `honest`, or obedient once it is shown any of `words`."""

    def __init__(self, words: Iterable[str], honest: Oracle, captured: bool = False) -> None:
        self.words = [w for w in (_key(w) for w in words) if w]
        self.honest = honest
        self.captured = captured
        self.obeyed = 0  # answers given as the words asked

    def sees(self, prompt: str) -> bool:
        """Whether the student's text in `prompt` holds any of the words."""
        shown = _key("\n".join(m.group(2) for m in _SECTION.finditer(prompt)))
        return any(words in shown for words in self.words)

    def __call__(self, operation: str, prompt: str) -> dict[str, Any] | None:
        """The answer to `operation` for what the prompt shows."""
        if not (self.captured or self.sees(prompt)):
            return self.honest(operation, prompt)
        self.obeyed += 1
        if (answer := verdict(operation, True, "as asked")) is not None:
            return answer
        steps = shown_steps(operation, prompt)
        return judged(operation, steps, ["correct"] * len(steps), "as asked")
