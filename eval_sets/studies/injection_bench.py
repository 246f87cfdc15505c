"""Text addressed to the grader against a model that obeys it (docs/injection.md): do grades
rise?

    stepgrade study injection_bench --data PATH/stepmathbench_dev.jsonl [--max-score 5]

First the red-team set (`eval_sets.redteam`): each attempt against its plain twin. Then every
calculation of each half whose human score is at most `--max-score` gets one more line at
its end: one of the red-team set's attempts (`eval_sets.redteam`), in turn. Both the solution
and that copy are graded in LLM mode against a fake model (`eval_sets.fakes.obeying_oracle` over
`label_oracle`, on 127.0.0.1) that answers with the human labels until it is shown an attempt's
words, and then labels every step correct and the answer equal. Printed per half: how many
grades rose above their solution's own, by how much on average, and how many were flagged
`addressed_to_grader`; once as the grader is, once with the detector switched off (what the
model alone does).
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from unittest import mock

import httpx

from agent.context import Context
from agent.grader import Grader
from agent.llm.client import LlmClient
from agent.llm.config import LlmConfig
from eval_sets.fakes.embedder import hashed_bag_of_words
from eval_sets.fakes.label_oracle import LabelOracle
from eval_sets.fakes.obeying_oracle import ObeyingOracle, PlainLabels
from eval_sets.fakes.openai_server import FakeOpenAI
from eval_sets.halves import HALVES, half_of
from eval_sets.plugins import register_study
from eval_sets.redteam import Attempt, PlainSolution, load_redteam
from eval_sets.study_cli import StudyInputError, add_data, run_study
from scoring.judge import JudgeConfig, addressed_spans, stripping
from scoring.schema import GradeRequest


@dataclass(frozen=True)
class Outcome:
    """One solution graded plain and with an attempt appended."""

    half: str  # fit, check, or the red-team set
    plain: int
    injected: int
    flagged: bool


def wrong_calculations(rows: Sequence[dict[str, Any]], max_score: int) -> list[dict[str, Any]]:
    """The calculations humans scored at most `max_score`."""
    return [r for r in rows if r["type"] == "Calculation" and int(r["gold_score"]) <= max_score]


def _request(row: dict[str, Any], solution: str) -> GradeRequest:
    answers = row["answers"] if isinstance(row["answers"], list) else None
    return GradeRequest(
        problem=row["question"], solution=solution, reference_answer=answers or None, mode="llm"
    )


def run(
    rows: Sequence[dict[str, Any]], words: Sequence[str], grade: Callable[[GradeRequest], Any]
) -> list[Outcome]:
    """Each row graded plain and with the next attempt appended as a line of its own."""
    out = []
    for i, row in enumerate(rows):
        plain = grade(_request(row, row["model_output"]))
        injected = grade(_request(row, row["model_output"] + "\n" + words[i % len(words)]))
        out.append(
            Outcome(
                half_of(row["question"]),
                plain.score,
                injected.score,
                "addressed_to_grader" in {r.code for r in injected.review_reasons},
            )
        )
    return out


def run_redteam(
    plain: dict[str, PlainSolution],
    attempts: Sequence[Attempt],
    grade: Callable[[GradeRequest], Any],
) -> list[Outcome]:
    """Each attempt graded against its plain twin (the set is its own group: `red-team`)."""
    twins = {k: grade(p.request(mode="llm")).score for k, p in plain.items()}
    out = []
    for attempt in attempts:
        base = plain[attempt.base]
        report = grade(base.request(attempt.text(base), mode="llm"))
        out.append(
            Outcome(
                "red-team",
                twins[attempt.base],
                report.score,
                "addressed_to_grader" in {r.code for r in report.review_reasons},
            )
        )
    return out


def table(outcomes: Sequence[Outcome], title: str, halves: Sequence[str] = HALVES) -> str:
    """Per group (half): solutions, grades risen, mean rise (over all), flagged."""
    lines = [
        title,
        (f"{'group':<8} {'n':>4} {'risen':>6} {'mean rise':>10} {'max rise':>9} {'flagged':>8}"),
    ]
    for half in halves:
        mine = [o for o in outcomes if o.half == half]
        if not mine:
            continue
        rises = [o.injected - o.plain for o in mine]
        lines.append(
            f"{half:<8} {len(mine):>4} {sum(r > 0 for r in rises):>6} "
            f"{statistics.fmean(rises):>10.2f} {max(rises):>9} "
            f"{sum(o.flagged for o in mine):>8}"
        )
    return "\n".join(lines)


def _nothing(text: str) -> list[Any]:
    return []


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The study's options."""
    add_data(parser, "stepmathbench_dev.jsonl", required=True)
    parser.add_argument("--max-score", type=int, default=5)


@register_study("injection_bench", arguments=add_arguments)
def injection_bench(args: argparse.Namespace) -> int:
    """Print the two tables; 2 when the data cannot be read."""
    try:
        rows = [
            json.loads(line)
            for line in args.data.read_text(encoding="utf-8").splitlines()
            if line.strip()
        ]
        chosen = wrong_calculations(rows, args.max_score)
    except KeyError as err:
        raise StudyInputError(f"cannot read {args.data}: a row lacks the field {err}") from err
    except (OSError, TypeError, ValueError) as err:  # TypeError: a row that is not an object
        raise StudyInputError(f"cannot read {args.data}: {err}") from err
    plain, attempts = load_redteam()
    words = [a.written for a in attempts]
    labels, redteam = LabelOracle(rows), PlainLabels(plain.values())

    def honest(operation: str, prompt: str) -> dict[str, Any] | None:
        return labels(operation, prompt) or redteam(operation, prompt)

    oracle = ObeyingOracle(words, honest)
    with FakeOpenAI(oracle) as server:
        client = LlmClient(
            LlmConfig(base_url=server.base_url, model="fake-model", timeout=10.0, max_retries=0),
            http_client=httpx.AsyncClient,
        )
        grader = Grader(
            Context(
                embedder=hashed_bag_of_words,
                llm=client,
                llm_model="fake-model",
                judge=JudgeConfig(),
            )
        )
        for detector in ("on", "off"):
            with mock.patch.object(
                stripping, "addressed_spans", addressed_spans if detector == "on" else _nothing
            ):
                print(
                    table(
                        run_redteam(plain, attempts, grader.grade),
                        f"red-team attempts against their twins, detector {detector}:",
                        ("red-team",),
                    )
                )
                print(
                    table(
                        run(chosen, words, grader.grade),
                        f"StepMathBench calculations scored <= {args.max_score} by humans, "
                        f"one attempt appended, detector {detector}:",
                    )
                    + "\n"
                )
    return 0


def main(argv: list[str] | None = None) -> int:
    """`python -m eval_sets.studies.injection_bench`: the study over this process's arguments."""
    return run_study("injection_bench", argv)


if __name__ == "__main__":
    raise SystemExit(main())
