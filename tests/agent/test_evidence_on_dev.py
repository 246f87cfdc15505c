"""Every development item, graded offline with the shipped calibration: labels rest on checks.

- no step is labelled incorrect without a finding that refutes it (state `fails`, a decisive
  error check among its findings);
- no step a finding refutes is labelled correct;
- an unchecked step has no decisive finding that settled it either way; its points are its
  expected point;
- the interval holds the reported score and the expected score.

Rows are read with the project's loaders (nothing from the data is kept in the project).
"""

from __future__ import annotations

import asyncio
import math

import pytest

from agent.context import Context
from agent.grader import Grader
from eval_sets.registry import load_dataset
from scoring.judge import JudgeConfig, load_calibration

SETS = [
    ("stepmath", "stepmathbench_dev.jsonl"),
    ("stepmath_steps", "stepmathbench_dev.jsonl"),
    ("processbench", "processbench_dev.jsonl"),
    ("perturbation", "perturbation_dev.jsonl"),
    ("mr_math_invalid", "mr_math_invalid_dev.jsonl"),
    ("mr_math_redundant", "mr_math_redundant_dev.jsonl"),
]


@pytest.fixture(scope="module")
def shipped() -> Grader:
    return Grader(Context(judge=JudgeConfig(calibration=load_calibration())))


async def _grade_all(grader: Grader, requests: list) -> list:
    limit = asyncio.Semaphore(8)

    async def one(request):
        async with limit:
            return await grader.agrade(request.model_copy(update={"mode": "offline"}))

    return await asyncio.gather(*(one(r) for r in requests))


@pytest.mark.timeout(3600)
@pytest.mark.parametrize(("kind", "name"), SETS)
def test_every_label_rests_on_a_check(shared_data, shipped, kind, name):
    items = load_dataset(kind, shared_data / name)
    reports = asyncio.run(_grade_all(shipped, [item.request for item in items]))
    problems = []
    for item, report in zip(items, reports, strict=True):
        for step in report.steps:
            refuting = [c for c in step.checks if c.polarity == "error" and c.decisive]
            if step.label == "incorrect" and (step.state != "fails" or not refuting):
                problems.append(f"{item.id} step {step.index}: incorrect without a refutation")
            if step.state == "fails" and step.label == "correct":
                problems.append(f"{item.id} step {step.index}: refuted yet correct")
            if step.label == "correct" and step.state != "holds":
                problems.append(f"{item.id} step {step.index}: correct without a check")
            if step.label == "unchecked" and step.state != "unchecked":
                problems.append(f"{item.id} step {step.index}: unchecked yet {step.state}")
        if report.score_interval is not None:
            lo, hi = report.score_interval
            expected = report.score_expected
            if not lo <= report.score <= hi or (expected is not None and not lo <= expected <= hi):
                problems.append(
                    f"{item.id}: interval {report.score_interval} misses score "
                    f"{report.score} or expected {expected}"
                )
        assert math.isclose(
            report.scores[report.scoring_policy].raw, report.score_raw, abs_tol=1e-3
        )
    assert not problems, f"{len(problems)} inconsistencies, e.g. {problems[:5]}"
