"""The whole path from HTTP to report on real data: a fake server answers as the human annotators.

Every StepMathBench dev item is graded in LLM mode against a fake OpenAI-compatible server whose
answers are the human segmentation (`segmentation`) and the human step labels (`step_judgement`,
`fused_judgement`): `eval_sets/fakes/label_oracle.py` with no errors. Eq. 1 in code must then
reproduce every item's `gold_score`.
"""

from __future__ import annotations

import pytest

from eval_sets.fakes.label_oracle import LabelOracle
from eval_sets.fakes.label_server import read_rows
from eval_sets.fakes.openai_server import FakeOpenAI
from scoring.judge import Reliability, load_calibration
from scoring.schema import GradeRequest

# The fake is the human annotators: a judge this reliable is told to the decision layer, with the
# shipped calibration, as a user who measured their model would.
EXACT_JUDGE = {
    "calibration": load_calibration(),
    "reliability": Reliability(sensitivity=0.999, false_alarm=0.001),
}


def _request(row, fused: bool) -> GradeRequest:
    # The fused run leaves out the reference answers: the default run already covers the
    # dual-mode answer path, and the symbolic check (a worker process) would double the runtime.
    answers = None if fused else row["answers"]
    return GradeRequest(
        problem=row["question"],
        solution=row["model_output"],
        reference_answer=answers or None,
        mode="llm",
        fused=fused,
    )


@pytest.fixture(scope="module")
def rows(shared_data):
    path = shared_data / "stepmathbench_dev.jsonl"
    if not path.is_file():
        pytest.skip(f"{path} not found")
    return read_rows(path)


@pytest.mark.parametrize("fused", [False, True], ids=["two_round_trips", "fused"])
def test_every_item_scores_its_gold_score(rows, fused, make_llm_grader):
    with FakeOpenAI(LabelOracle(rows)) as server:
        grader = make_llm_grader(server.base_url, judge=EXACT_JUDGE)
        misses = []
        for row in rows:
            report = grader.grade(_request(row, fused))
            assert report.meta.mode == "llm" and not report.meta.degraded, report.meta.warnings
            if report.score != row["gold_score"]:
                misses.append((row["uid"], report.score, row["gold_score"], report.meta.warnings))
    assert not misses, (len(misses), [m[:3] for m in misses], [m[3] for m in misses])
