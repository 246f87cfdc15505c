"""The teachers' corrected grades, as a deployment exports them (`GET
/grades/export?corrected=true`: the report, the latest correction's step labels and score):
labelled steps of the school's own problems. Read from a service or a file, checks rerun
offline on the report's steps, and split by problem into the held-back fifth and the
cross-validation folds.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import cast

from eval_sets.calibrate.corrections_args import HTTP_TIMEOUT
from eval_sets.calibrate.evidence import Observed
from eval_sets.calibrate.labelled import LabelledSolution
from eval_sets.halves import problem_digest
from scoring.judge import JudgeInput, collect_findings
from scoring.schema import GradeReport, ProblemType, StepLabel
from scoring.score import GradeFeatures, features_of, score_solution
from scoring.verdict import AnswerVerdict

HELD_SHARE = 5  # one problem in HELD_SHARE is held back to report the agreement
CV_FOLDS = 5
TIMEOUT = HTTP_TIMEOUT  # seconds per HTTP call
_LABELS: frozenset[str] = frozenset({"correct", "incorrect", "meaningless", "redundant"})


class CorrectionsError(ValueError):
    """The corrections cannot be read: a malformed line, or none at all."""


@dataclass(frozen=True)
class Corrected:
    """One corrected grade: what the judge reads (checks rerun on the report's steps), the
    teacher's labels and score, and the grade as it was answered."""

    grade_id: str
    observed: Observed
    labels: tuple[StepLabel, ...]
    score: int | None  # the teacher's score, if given
    features: GradeFeatures  # of the report as answered

    @property
    def problem(self) -> str:
        """The problem text: what the held-back fifth and the folds are drawn by."""
        return self.observed.inp.problem

    @property
    def language(self) -> str:
        """The report's language: which language's step model the correction refits."""
        return self.observed.inp.language

    def human_score(self) -> int:
        """The teacher's score, else Eq. 1 on the teacher's labels."""
        if self.score is not None:
            return self.score
        return score_solution(self.labels, self.observed.inp.problem_type).score


# ---------------------------------------------------------------------------------- reading


def _answer(report: GradeReport) -> AnswerVerdict:
    """The answer verdict as the report gave it (the checks read its decision)."""
    answer = report.answer
    return AnswerVerdict(answer.extracted, tuple(answer.reference), answer.symbolic, answer.llm)


def parse_line(line: str, number: int = 0) -> Corrected:
    """One export line -> a corrected grade, its checks rerun offline on the report's steps.

    Raises:
        CorrectionsError: not JSON, a field missing or of the wrong kind, labels that do not
            match the steps.
    """
    where = f"line {number}" if number else "a line"
    try:
        record = json.loads(line)
    except ValueError as err:
        raise CorrectionsError(f"{where} is not JSON: {err}") from None
    if not isinstance(record, dict):
        raise CorrectionsError(f"{where} is not a JSON object")
    try:
        report = GradeReport.model_validate(record["report"])
        labels = record["labels"]
        score = record.get("score")
        grade_id = str(record.get("grade_id", number))
        problem = str(record.get("problem") or (record.get("request") or {})["problem"])
    except (KeyError, TypeError, ValueError) as err:
        raise CorrectionsError(
            f"{where} is not a corrected grade (request/problem, report, "
            f"labels, score): {err}".replace("\n", " ")[:400]
        ) from None
    if not isinstance(labels, list) or not all(
        isinstance(x, str) and x in _LABELS | {"not_math"} for x in labels
    ):
        raise CorrectionsError(
            f"{where}: labels must be a list of {sorted(_LABELS)} (export with ?corrected=true)"
        )
    if len(labels) != len(report.steps):
        raise CorrectionsError(f"{where}: {len(labels)} labels for {len(report.steps)} steps")
    if score is not None and (not isinstance(score, int) or not 0 <= score <= 10):
        raise CorrectionsError(f"{where}: score must be an integer 0-10 or null")
    # A step the teacher left as text addressed to the grader was not graded: no step to learn from.
    graded = [i for i, x in enumerate(labels) if x != "not_math"]
    steps = tuple(report.steps[i].text for i in graded)
    problem_type: ProblemType = report.problem_type
    inp = JudgeInput(problem, steps, problem_type, _answer(report), language=report.language)
    typed = tuple(cast(StepLabel, labels[i]) for i in graded)
    solution = LabelledSolution(
        set="corrections",
        id=grade_id,
        half="fit",
        problem=problem,
        steps=steps,
        wrong=tuple(x == "incorrect" for x in typed),
        problem_type=problem_type,
        language=report.language,
        references=tuple(report.answer.reference),
        human_labels=typed,
        gold_score=score,
    )
    observed = Observed(solution, inp, collect_findings(inp))
    return Corrected(grade_id, observed, typed, score, features_of(report))


def read_lines(lines: Iterable[str]) -> list[Corrected]:
    """Every non-blank export line, in order.

    Raises:
        CorrectionsError: a malformed line (its number is named), or no line at all.
    """
    out = [parse_line(line, n) for n, line in enumerate(lines, 1) if line.strip()]
    if not out:
        raise CorrectionsError("no corrected grades: the export is empty")
    return out


def fetch_export(url: str, api_key: str | None, timeout: float = TIMEOUT) -> list[str]:
    """The corrected grades' export lines from a running service.

    Raises:
        CorrectionsError: unreachable, refused (a bad key), or not an export.
    """
    import httpx

    target = url.rstrip("/")
    if not target.endswith("/grades/export"):
        target += "/grades/export"
    headers = {"X-API-Key": api_key} if api_key else {}
    try:
        response = httpx.get(target, params={"corrected": "true"}, headers=headers, timeout=timeout)
    except httpx.HTTPError as err:
        raise CorrectionsError(f"cannot reach {target}: {err}") from None
    if response.status_code in (401, 403):
        raise CorrectionsError(
            f"{target} refused the API key (HTTP {response.status_code}); "
            "pass the key that graded the corrections with --api-key"
        )
    if response.status_code != 200:
        raise CorrectionsError(
            f"{target} answered HTTP {response.status_code}: {response.text[:200]}"
        )
    return response.text.splitlines()


def read_source(source: str, api_key: str | None, timeout: float = TIMEOUT) -> list[Corrected]:
    """The corrected grades from a service URL (http:// or https://) or an export file."""
    if source.startswith(("http://", "https://")):
        return read_lines(fetch_export(source, api_key, timeout))
    try:
        with open(source, encoding="utf-8") as handle:
            return read_lines(handle)
    except OSError as err:
        raise CorrectionsError(f"cannot read {source}: {err.strerror or err}") from None


# ------------------------------------------------------------------------------- the folds


def held_back(problem: str) -> bool:
    """Whether a problem is in the held-back fifth (by a byte of a hash of its text, so that
    several solutions of one problem never straddle the line)."""
    return problem_digest(problem)[3] % HELD_SHARE == 0


def fold(problem: str, folds: int = CV_FOLDS) -> int:
    """The cross-validation fold of a problem inside the corrections that are fitted on."""
    return problem_digest(problem)[4] % folds
