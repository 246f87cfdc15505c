"""A test double: a fake model that grades StepMathBench items from their human labels, exactly or fallibly.

`LabelOracle(rows)` answers a prompt from the StepMathBench row it is about: the human
segmentation (`segmentation`), the human step labels (`step_judgement`, `fused_judgement`), the
dataset's level and type (`difficulty`) and the final step's label (`answer_judgement`).

With `ErrorRates(miss, false_alarm, seed)` it errs like a real judge: a step the humans labelled
incorrect is answered "correct" with probability `miss`, a step they labelled correct is answered
"incorrect" with probability `false_alarm`. Each step's draw comes from its own
`random.Random(f"{seed}:{item id}:{step}")`, so a step gets the same answer on every request
(segmentation, judgement and answer calls agree) and in every run, whatever the order or the
concurrency of the requests. Meaningless steps (human "1(0)": right in themselves, built on a
wrong step) are answered as labelled. `EXACT` (no errors) is the human annotators.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from prompts.render import fence
from scoring.answer import extract_answer
from scoring.schema import StepLabel
from scoring.score import parse_human_label

TYPES = {"Calculation": "calculation", "Proof": "proof", "Open-ended": "open_ended"}
_NUMBER = re.compile(r"^\s*\(\d+\)\s*")


@dataclass(frozen=True)
class ErrorRates:
    """How often the fake model disagrees with the humans, and the seed of its draws."""

    miss: float = 0.0
    false_alarm: float = 0.0
    seed: int = 0

    def __post_init__(self) -> None:
        for name in ("miss", "false_alarm"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} must be in [0, 1], got {getattr(self, name)}")


EXACT = ErrorRates()


def human_steps(row: Mapping[str, Any]) -> list[str]:
    """The human segmentation without its "(1) " numbering."""
    return [_NUMBER.sub("", str(s)).strip() for s in row["gold_step"]]


def answered_label(human: StepLabel, item_id: str, step: int, rates: ErrorRates) -> StepLabel:
    """What the fake model says about step `step` (1-based) of item `item_id`."""
    if human not in ("correct", "incorrect") or rates == EXACT:
        return human
    draw = random.Random(f"{rates.seed}:{item_id}:{step}").random()
    if human == "incorrect":
        return "correct" if draw < rates.miss else human
    return "incorrect" if draw < rates.false_alarm else human


def answered_labels(row: Mapping[str, Any], rates: ErrorRates = EXACT) -> list[StepLabel]:
    """The fake model's label of each human step of `row`: the human label, erred at `rates`."""
    humans = [parse_human_label(s) for s in row["gold_step_score"]]
    return [answered_label(h, str(row["uid"]), i, rates) for i, h in enumerate(humans, 1)]


def judged(row: Mapping[str, Any], labels: Sequence[StepLabel], with_text: bool) -> dict[str, Any]:
    """A step_judgement (indexed) or fused_judgement (with the step text) answer; a meaningless
    step depends on the last step answered wrong."""
    out, last_error = [], None
    for i, (label, text) in enumerate(zip(labels, human_steps(row), strict=True), 1):
        entry: dict[str, Any] = {
            "label": label,
            "reason": f"human label {label}",
            "depends_on": [last_error] if label == "meaningless" and last_error else [],
            "reference_steps": [],
            "error_categories": [],
        }
        out.append({"text": text, **entry} if with_text else {"index": i, **entry})
        if label in ("incorrect", "meaningless"):
            last_error = i
    return {"steps": out}


@dataclass(frozen=True)
class _Keys:
    """What identifies a row inside a prompt."""

    solution: str
    steps: str
    question: str
    answer: str


def _keys(row: Mapping[str, Any]) -> _Keys:
    steps = "".join(f"({i}) {fence(s)}\n" for i, s in enumerate(human_steps(row), 1))
    answer = extract_answer(row["model_output"])
    return _Keys(
        solution=f"<solution>\n{fence(row['model_output'])}\n</solution>",
        steps=f"<steps>\n{steps}</steps>",
        question=fence(row["question"]),
        answer=f"<answer>\n{fence(answer or '')}\n",
    )


class LabelOracle:
    """The FakeOpenAI oracle: finds the item a prompt is about and answers for it."""

    def __init__(self, rows: Sequence[Mapping[str, Any]], rates: ErrorRates = EXACT) -> None:
        self.rows = list(rows)
        self.rates = rates
        self._keys = [_keys(row) for row in self.rows]

    def item(self, prompt: str) -> Mapping[str, Any] | None:
        """The row a prompt is about, or None: for the answer judge by question and answer, else by
        the whole solution or its numbered steps."""
        if "<answer>" in prompt:  # the answer judge sees the problem and the answer only
            return next(
                (
                    row
                    for row, k in zip(self.rows, self._keys, strict=True)
                    if k.question in prompt and k.answer in prompt
                ),
                None,
            )
        # Five solutions share each problem: the item is the one whose whole solution (or whole
        # numbered step list) stands between the prompt's delimiters.
        return next(
            (
                row
                for row, k in zip(self.rows, self._keys, strict=True)
                if k.solution in prompt or k.steps in prompt
            ),
            None,
        )

    def __call__(self, operation: str, prompt: str) -> dict[str, Any] | None:
        """The answer to `operation` for the prompt's item, from its human labels; None (the
        server's 404) for an unknown item or operation."""
        row = self.item(prompt)
        if row is None:
            return None
        if operation == "difficulty":
            return {
                "level": row["level"],
                "process_evaluation_needed": True,
                "problem_type": TYPES[row["type"]],
                "reason": "dataset level",
            }
        if operation == "segmentation":
            return {"steps": human_steps(row)}
        if operation in ("step_judgement", "fused_judgement"):
            return judged(
                row, answered_labels(row, self.rates), with_text=operation == "fused_judgement"
            )
        if operation == "answer_judgement":
            final = answered_labels(row, self.rates)[-1]
            return {"correct": final == "correct", "reason": "final step label"}
        return None
