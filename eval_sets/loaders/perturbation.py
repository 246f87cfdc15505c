"""ReasonEval's perturbation set: an original solution and copies with one perturbation each.

Each perturbed solution is an item, and each distinct original (`reference_steps`, per `rid`) is
graded once as a solution of its own (`is_perturbed=False`, subset "original"), so a grader is
measured on both sides. `tags` means something different per error type (checked on the data):

| error_type | tags | perturbed step (1-based) |
|---|---|---|
| random number, random operation | 0-based changed step | tags + 1 |
| swap steps | [i, j], the two swapped steps | min(i, j) + 1 (now before its premises) |
| remove step | 0-based removed step | tags + 1 (the step that lost its premise) |
| repeat step | 0-based step that is repeated | tags + 2 (the copy) |
| swap solutions | id of the donor solution, not a step | 1 (the whole solution is off-topic) |

Following ReasonEval, a repeated step is redundant (the solution stays valid, `step_redundant`
marks the copy); every other perturbation makes its step the first invalid one.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from eval_sets.items import Gold, GoldItem, RowError
from eval_sets.loaders.rows import Row, as_text, bad, each_row, make_request, require, steps_of
from eval_sets.plugins import register_loader

FIELDS = (
    "rid",
    "question",
    "ground_truth_answer",
    "reference_steps",
    "hypothesis_steps",
    "error_type",
    "tags",
)


def perturbed_step(error_type: str, tags: Any, n_steps: int) -> int | None:
    """The 1-based step the perturbation makes wrong (or redundant), None if it fell off the end."""
    kind = error_type.strip().lower()
    if kind == "swap solutions":
        return 1
    if kind == "swap steps":
        if not (isinstance(tags, list) and tags and all(isinstance(t, int) for t in tags)):
            raise ValueError(f"swap steps needs tags = [i, j], got {tags!r}")
        step = min(tags) + 1
    elif isinstance(tags, int) and not isinstance(tags, bool):
        step = tags + (2 if kind == "repeat step" else 1)
    else:
        raise ValueError(f"tags must be a 0-based step index for {error_type!r}, got {tags!r}")
    if step < 1 or step > n_steps + (1 if kind == "remove step" else 0):
        raise ValueError(f"tags {tags!r} point outside the {n_steps} steps")
    return step if step <= n_steps else None


@register_loader("perturbation", version="1")
def load_perturbation(path: Path) -> Iterator[GoldItem | RowError]:
    """Perturbation JSON lines: rid, question, ground_truth_answer, reference/hypothesis steps, tags."""
    originals: set[str] = set()

    def row_items(number: int, row: Row) -> Iterator[GoldItem]:
        require(path, number, row, FIELDS, "perturbation")
        rid = str(row["rid"])
        problem = as_text(row["question"])
        answer = as_text(row["ground_truth_answer"]) or None
        reference = steps_of(path, number, row["reference_steps"], "reference_steps")
        hypothesis = steps_of(path, number, row["hypothesis_steps"], "hypothesis_steps")
        error_type = str(row["error_type"])
        try:
            step = perturbed_step(error_type, row["tags"], len(hypothesis))
        except ValueError as err:
            raise bad(path, number, str(err)) from None
        if rid not in originals:
            originals.add(rid)
            yield GoldItem(
                id=f"pert-orig-{rid}",
                request=make_request(
                    path,
                    number,
                    problem=problem,
                    solution_steps=reference,
                    reference_answer=answer,
                    problem_type="calculation",
                    language="en",
                    mode="offline",
                ),
                gold=Gold(subset="original", is_perturbed=False, rid=rid, process_correct=True),
            )
        redundant = error_type.strip().lower() == "repeat step"
        gold = Gold(
            subset=error_type,
            is_perturbed=True,
            perturbed_step=step,
            error_type=error_type,
            rid=rid,
            process_correct=redundant,
            first_error=None if redundant else step,
            step_redundant=tuple(i == step for i in range(1, len(hypothesis) + 1))
            if redundant
            else None,
        )
        yield GoldItem(
            id=f"pert-{row.get('id', number)}",
            request=make_request(
                path,
                number,
                problem=problem,
                solution_steps=hypothesis,
                reference_answer=answer,
                problem_type="calculation",
                language="en",
                mode="offline",
            ),
            gold=gold,
        )

    return each_row(path, row_items)
