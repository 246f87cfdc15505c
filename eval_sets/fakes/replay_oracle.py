"""A test double: a fake model that answers MR-MATH items as a real model once did.

MR-MATH's authors published the verdicts of real models (GPT-4, GPT-3.5-turbo) on each solution
of their invalid set: `correctness_pred` (correct / wrong) and `error_step_pred` (the first wrong
step, "Step 4", "4." or "N/A"), keyed by the solution's `id`. `ReplayOracle(items, verdicts)`
answers the step-judgement operations as that model did:
- a solution it called correct: every step correct;
- otherwise the steps before the named first wrong step are correct, that step is incorrect, and
  every later step is meaningless, depending on it (the schema's label for a step built on a
  wrong one); a "wrong" verdict that names no step (or a step past the end) labels the last step
  incorrect, the model's "somewhere it goes wrong" read as late as possible.
The other operations get neutral answers (difficulty: level 2, process evaluated; segmentation:
the given steps; answer: the model's solution verdict), so that only the step labels differ
from a grade without a model.

It lives beside the other fakes (not under `tests/`) because `make bench-replay`
(`eval_sets.studies.replay_bench`) runs it and `eval_sets/` may not import `tests/`; nothing in `server/`,
`agent/` or `scoring/` imports it. It reads the verdict file the user names and keeps no rows.

    python -m eval_sets.fakes.replay_oracle --data mr_math_invalid_dev.jsonl \
        --verdicts mr_math_invalid_dev_gpt4.jsonl --port P
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from eval_sets.items import GoldItem
from prompts.render import fence
from scoring.schema import StepLabel

_NUMBER = re.compile(r"\d+")
_PART = re.compile(r"judge steps (\d+) to (\d+) only")


class VerdictError(ValueError):
    """A verdict file that cannot be read or does not match the items."""


@dataclass(frozen=True)
class Verdict:
    """A model's published verdict on one solution: correct, or the first wrong step (1-based;
    None when it named none)."""

    correct: bool
    first_error: int | None


def parse_verdict(row: Mapping[str, Any]) -> Verdict:
    """`correctness_pred` "correct" (any case, markdown emphasis or punctuation around it) is a
    correct verdict; anything else is wrong, at the first number in `error_step_pred`."""
    said = re.sub(r"[^a-z]", "", str(row.get("correctness_pred", "")).lower())
    if said == "correct":
        return Verdict(True, None)
    number = _NUMBER.search(str(row.get("error_step_pred", "")))
    return Verdict(False, int(number.group()) if number else None)


def read_verdicts(path: Path) -> dict[str, Verdict]:
    """`id` -> Verdict from a JSON-lines verdict file."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
        rows = [json.loads(line) for line in lines if line.strip()]
        return {str(r["id"]): parse_verdict(r) for r in rows}
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise VerdictError(f"cannot read verdicts {path}: {err}") from None


def replayed_labels(verdict: Verdict, n: int) -> list[StepLabel]:
    """The model's label of each of `n` steps (see the module docstring)."""
    if verdict.correct:
        return ["correct"] * n
    first = (
        verdict.first_error
        if verdict.first_error is not None and 1 <= verdict.first_error <= n
        else n
    )
    return [
        ("correct" if i < first else "incorrect" if i == first else "meaningless")
        for i in range(1, n + 1)
    ]


def _steps_block(steps: Sequence[str]) -> str:
    return "<steps>\n" + "".join(f"({i}) {fence(s)}\n" for i, s in enumerate(steps, 1)) + "</steps>"


def _row_id(item: GoldItem) -> str:
    """The MR-MATH row id inside the item id (`mr-invalid-<id>`)."""
    return item.id.rsplit("-", 1)[-1]


class ReplayOracle:
    """The FakeOpenAI oracle: finds the item a prompt is about and answers as the model did."""

    def __init__(self, items: Sequence[GoldItem], verdicts: Mapping[str, Verdict]) -> None:
        self.items = [i for i in items if i.request.solution_steps]
        missing = [_row_id(i) for i in self.items if _row_id(i) not in verdicts]
        if missing:
            raise VerdictError(f"no verdict for {len(missing)} item(s), e.g. id {missing[0]}")
        self.verdicts = verdicts
        self._keys = [
            (
                _steps_block(i.request.solution_steps or []),
                f"<solution>\n{fence(chr(10).join(i.request.solution_steps or []))}",
            )
            for i in self.items
        ]

    def item(self, prompt: str) -> GoldItem | None:
        """The item whose numbered steps or whole solution the prompt quotes, or None."""
        return next(
            (
                item
                for item, (steps, solution) in zip(self.items, self._keys, strict=True)
                if steps in prompt or solution in prompt
            ),
            None,
        )

    def __call__(self, operation: str, prompt: str) -> dict[str, Any] | None:
        """The answer to `operation` as the model's published verdict has it; None (the server's
        404) for an unknown item or operation."""
        item = self.item(prompt)
        if item is None:
            return None
        steps = list(item.request.solution_steps or [])
        verdict = self.verdicts[_row_id(item)]
        if operation == "difficulty":
            return {
                "level": 2,
                "process_evaluation_needed": True,
                "problem_type": "calculation",
                "reason": "replay",
            }
        if operation == "segmentation":
            return {"steps": steps}
        if operation in ("step_judgement", "fused_judgement"):
            return judged(
                steps,
                replayed_labels(verdict, len(steps)),
                with_text=operation == "fused_judgement",
                part=_part(prompt),
            )
        if operation == "answer_judgement":
            return {"correct": verdict.correct, "reason": "the model's solution verdict"}
        return None


def _part(prompt: str) -> tuple[int, int] | None:
    match = _PART.search(prompt)
    return None if match is None else (int(match.group(1)), int(match.group(2)))


def judged(
    steps: Sequence[str],
    labels: Sequence[StepLabel],
    *,
    with_text: bool,
    part: tuple[int, int] | None = None,
) -> dict[str, Any]:
    """A step_judgement (indexed; only the steps of `part` when the prompt asks for a part) or
    fused_judgement (with the step text) answer; a meaningless step depends on the first
    incorrect one."""
    first_wrong = next((i for i, lab in enumerate(labels, 1) if lab == "incorrect"), None)
    low, high = part or (1, len(steps))
    out = []
    for i, (label, text) in enumerate(zip(labels, steps, strict=True), 1):
        if not low <= i <= high:
            continue
        entry: dict[str, Any] = {
            "label": label,
            "reason": f"replayed: {label}",
            "depends_on": [first_wrong] if label == "meaningless" and first_wrong else [],
            "reference_steps": [],
            "error_categories": [],
        }
        out.append({"text": text, **entry} if with_text else {"index": i, **entry})
    return {"steps": out}


def main(argv: list[str] | None = None) -> int:
    """Serve the replay until killed: `--data` the MR-MATH invalid rows, `--verdicts` the
    model's published verdicts on them."""
    from eval_sets.fakes.openai_server import FakeOpenAI
    from eval_sets.registry import DatasetError, read_dataset

    parser = argparse.ArgumentParser(
        description="fake OpenAI-compatible judge replaying a real "
        "model's published MR-MATH verdicts"
    )
    parser.add_argument("--data", type=Path, required=True, help="MR-MATH invalid JSON lines")
    parser.add_argument("--verdicts", type=Path, required=True, help="the model's verdicts")
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args(argv)
    try:
        items = read_dataset("mr_math_invalid", args.data).items
        oracle = ReplayOracle(items, read_verdicts(args.verdicts))
    except (DatasetError, VerdictError, OSError) as err:
        print(f"replay_oracle: {err}", file=sys.stderr)
        return 2
    FakeOpenAI(oracle, port=args.port).serve()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
