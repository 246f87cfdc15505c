"""Hand-written StepMathBench-shaped rows for the label fakes' tests."""

from __future__ import annotations


def labelled_row(
    uid: str,
    labels: list[str],
    *,
    question: str = "Add the numbers.",
    steps: list[str] | None = None,
    answers: list[str] | None = None,
) -> dict:
    steps = steps or [f"Step {i} of {uid}: {i} + {i} = {2 * i}." for i in range(1, len(labels) + 1)]
    return {
        "uid": uid,
        "question": question,
        "model_output": "\n".join(steps),
        "gold_step": [f"({i}) {s}" for i, s in enumerate(steps, 1)],
        "gold_step_score": labels,
        "type": "Calculation",
        "level": 1,
        "answers": answers or [],
    }


# 40 items of 10 steps: 200 steps the humans called wrong, 200 they called right.
SYNTHETIC = [labelled_row(f"item-{k}", ["0", "1"] * 5) for k in range(40)]
