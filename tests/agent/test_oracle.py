"""The whole path from HTTP to report on real data: a fake server answers as the human annotators.

Every StepMathBench dev item is graded in LLM mode against a fake OpenAI-compatible server whose
answers are the human segmentation (`segmentation`) and the human step labels (`step_judgement`,
`fused_judgement`); Eq. 1 in code must then reproduce every item's `gold_score`.
"""

from __future__ import annotations

import json
import re

import pytest

from prompts.render import fence
from scoring.aggregate import parse_human_label
from scoring.answer import extract_answer
from scoring.judge import Reliability, load_calibration
from scoring.schema import GradeRequest
from tests.fakes.openai_server import FakeOpenAI

TYPES = {"Calculation": "calculation", "Proof": "proof", "Open-ended": "open_ended"}
# The fake is the human annotators: a judge this reliable is told to the decision layer, with the
# shipped calibration, as a user who measured their model would.
EXACT_JUDGE = {"calibration": load_calibration(),
               "reliability": Reliability(sensitivity=0.999, false_alarm=0.001)}
_NUMBER = re.compile(r"^\s*\(\d+\)\s*")


def _steps(row):
    return [_NUMBER.sub("", s).strip() for s in row["gold_step"]]


def _judged(row, with_text: bool):
    labels = [parse_human_label(s) for s in row["gold_step_score"]]
    out, last_error = [], None
    for i, (label, text) in enumerate(zip(labels, _steps(row), strict=True), 1):
        entry = {"label": label, "reason": f"human label {label}",
                 "depends_on": [last_error] if label == "meaningless" and last_error else [],
                 "reference_steps": [], "error_categories": []}
        entry = {"text": text, **entry} if with_text else {"index": i, **entry}
        out.append(entry)
        if label in ("incorrect", "meaningless"):
            last_error = i
    return {"steps": out}


class StepMathOracle:
    """Finds the item a prompt is about (by its fenced solution or first step) and answers for it."""

    def __init__(self, rows):
        self.rows = rows

    def _item(self, prompt: str):
        if "<answer>" in prompt:  # the answer judge sees the problem and the answer only
            for row in self.rows:
                answer = extract_answer(row["model_output"])
                if fence(row["question"]) in prompt and f"<answer>\n{fence(answer or '')}\n" in prompt:
                    return row
            return None
        # Five solutions share each problem: the item is the one whose whole solution (or whole
        # numbered step list) stands between the prompt's delimiters.
        for row in self.rows:
            steps = "".join(f"({i}) {fence(s)}\n" for i, s in enumerate(_steps(row), 1))
            if (f"<solution>\n{fence(row['model_output'])}\n</solution>" in prompt
                    or f"<steps>\n{steps}</steps>" in prompt):
                return row
        return None

    def __call__(self, operation: str, prompt: str):
        row = self._item(prompt)
        if row is None:
            return None
        if operation == "difficulty":
            return {"level": row["level"], "process_evaluation_needed": True,
                    "problem_type": TYPES[row["type"]], "reason": "dataset level"}
        if operation == "segmentation":
            return {"steps": _steps(row)}
        if operation == "step_judgement":
            return _judged(row, with_text=False)
        if operation == "fused_judgement":
            return _judged(row, with_text=True)
        if operation == "answer_judgement":
            return {"correct": row["gold_step_score"][-1] == "1", "reason": "final step label"}
        return None


def _request(row, fused: bool) -> GradeRequest:
    # The fused run leaves out the reference answers: the default run already covers the
    # dual-mode answer path, and the symbolic check (a worker process) would double the runtime.
    answers = None if fused else row["answers"]
    return GradeRequest(problem=row["question"], solution=row["model_output"],
                        reference_answer=answers or None, mode="llm", fused=fused)


@pytest.fixture(scope="module")
def rows(shared_data):
    path = shared_data / "stepmathbench_dev.jsonl"
    if not path.is_file():
        pytest.skip(f"{path} not found")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.mark.parametrize("fused", [False, True], ids=["two_round_trips", "fused"])
def test_every_item_scores_its_gold_score(rows, fused, make_llm_grader):
    with FakeOpenAI(StepMathOracle(rows)) as server:
        grader = make_llm_grader(server.base_url, judge=EXACT_JUDGE)
        misses = []
        for row in rows:
            report = grader.grade(_request(row, fused))
            assert report.meta.mode == "llm" and not report.meta.degraded, report.meta.warnings
            if report.score != row["gold_score"]:
                misses.append((row["uid"], report.score, row["gold_score"], report.meta.warnings))
    assert not misses, (len(misses), [m[:3] for m in misses], [m[3] for m in misses])
