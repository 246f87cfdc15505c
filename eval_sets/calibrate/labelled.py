"""Labelled steps from the development sets: which steps humans call wrong.

Each set labels steps differently; all become, per step, True (wrong in itself), False (right
in itself) or None (not labelled):
- StepMathBench: `gold_step_score` (`0` wrong, `1` right, `1(0)` right in itself but built on
  an error: False here, propagation handles it), carried from the human paragraphs onto the
  grader's own segmentation (`eval_sets.calibrate.transfer`);
- ProcessBench and MR-MATH invalid: the earliest wrong step; the steps before it are right,
  the steps after it are not labelled;
- perturbation originals are right throughout; perturbed solutions are wrong at the perturbed
  step, right before it, unlabelled after it. Synthetic errors are easier to catch than natural
  ones, so this set is kept apart (`natural=False`) and not used to fit weights.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from eval_sets.calibrate.transfer import carry_labels
from eval_sets.halves import Half, half_of
from eval_sets.loaders.rows import as_text, read_records
from eval_sets.loaders.stepmath import TYPES, without_human_number
from eval_sets.registry import load_dataset
from scoring.schema import ProblemType
from scoring.score import parse_human_label
from scoring.steps import segment_steps

# Answer readings written from grading failures of the fit half (`congruence`: one problem's
# residue classes; `positive_values`: a pyramid's angle and a labelled pair's formula). On the fit
# half their effect is in-sample: the verdicts they mend there were read before the readings were
# written, as a fold's own residuals would be. Whatever is fitted on the fit half (the step model,
# the score interval) therefore grades it without them, so that it sees the verdict errors of
# answer notations no reading was written for yet, at the rate new problems bring them.
IN_SAMPLE_READINGS = frozenset({"congruence", "positive_values"})


@dataclass(frozen=True)
class LabelledSolution:
    set: str
    id: str
    half: Half
    problem: str
    steps: tuple[str, ...]
    wrong: tuple[bool | None, ...]
    problem_type: ProblemType
    language: str
    references: tuple[str, ...]
    natural: bool = True
    human_labels: tuple[str, ...] | None = None  # StepMathBench: the Eq. 1 labels
    gold_score: int | None = None
    weight: float = 1.0  # in the fit; the two copies of a set graded both ways weigh half each
    scored: bool = True  # graded as the set is benchmarked (the objectives read these)
    duplicate: bool = False  # the same steps again, answer unknown (left out of the counts)
    subset: str = ""  # the loader's subset (a perturbation's error type)
    # How hard the problem is, 1 to 3, where the set says (StepMathBench's level; ProcessBench's
    # source): what the offline difficulty estimate is fitted to, never read when grading.
    level: int | None = None


# ProcessBench's sources as levels: grade-school word problems, competition problems (MATH),
# olympiad problems (OlympiadBench, Omni-MATH).
SOURCE_LEVELS = {"gsm8k": 1, "math": 2, "olympiadbench": 3, "omnimath": 3}


def _first_error_labels(n: int, first: int | None) -> tuple[bool | None, ...]:
    """1-based first error (None: none) -> right before it, wrong at it, unlabelled after."""
    if first is None:
        return (False,) * n
    return tuple(False if i < first else (True if i == first else None) for i in range(1, n + 1))


def _level(row: dict) -> int | None:
    level = row.get("level")
    return int(level) if isinstance(level, int | str) and str(level).strip().isdigit() else None


def stepmath(path: Path) -> Iterator[LabelledSolution]:
    """StepMathBench on the grader's own segmentation, labels carried from the human steps."""
    for _, row in read_records(path):
        text = as_text(row["model_output"])
        steps = tuple(segment_steps(text, "zh"))
        if not steps:
            continue
        human = [without_human_number(s) for s in row["gold_step"]]
        labels = [parse_human_label(s) for s in row["gold_step_score"]]
        carried = tuple(labels[i] for i in carry_labels(text, human, steps))
        answers = row.get("answers") or ()
        yield LabelledSolution(
            "stepmath",
            str(row["uid"]),
            half_of(row["question"]),
            row["question"],
            steps,
            tuple(lab == "incorrect" for lab in carried),
            TYPES[str(row["type"]).strip().lower()],
            "zh",
            tuple(as_text(a) for a in answers if as_text(a).strip()),
            human_labels=carried,
            gold_score=int(row["gold_score"]),
            level=_level(row),
        )


def stepmath_human(path: Path) -> Iterator[LabelledSolution]:
    """StepMathBench on the human segmentation with the human step labels: what the step ECE
    is measured on. Not natural for the fit (the step model is fit on the grader's own
    segmentation, as it grades); read by the recalibration of the reported P(wrong) only."""
    for _, row in read_records(path):
        steps = tuple(without_human_number(as_text(s)) for s in row["gold_step"])
        labels = tuple(parse_human_label(s) for s in row["gold_step_score"])
        if not steps or len(steps) != len(labels):
            continue
        answers = row.get("answers") or ()
        yield LabelledSolution(
            "stepmath_human",
            str(row["uid"]),
            half_of(row["question"]),
            row["question"],
            steps,
            tuple(lab == "incorrect" for lab in labels),
            TYPES[str(row["type"]).strip().lower()],
            "zh",
            tuple(as_text(a) for a in answers if as_text(a).strip()),
            natural=False,
            human_labels=labels,
            gold_score=int(row["gold_score"]),
            scored=False,
            level=_level(row),
        )


def first_error_set(
    kind: str,
    path: Path,
    name: str,
    *,
    natural: bool = True,
    with_references: bool = True,
    **extra: object,
) -> Iterator[LabelledSolution]:
    """A first-error data set read through its loader."""
    for item in load_dataset(kind, path):
        request, gold = item.request, item.gold
        steps = tuple(request.solution_steps or ())
        if gold.is_perturbed is None or gold.is_perturbed:
            wrong = _first_error_labels(len(steps), gold.first_error)
            if gold.process_correct and gold.is_perturbed:  # a repeated step: not wrong
                wrong = tuple(
                    False if i + 1 < (gold.perturbed_step or 0) else None for i in range(len(steps))
                )
        else:
            wrong = (False,) * len(steps)
        yield LabelledSolution(
            name,
            item.id,
            half_of(request.problem),
            request.problem,
            steps,
            wrong,
            "calculation",
            "en",
            tuple(request.gold_answers()) if with_references else (),
            natural=natural,
            subset=gold.subset or "",
            level=SOURCE_LEVELS.get(str(gold.subset or "").lower()),
            **extra,  # type: ignore[arg-type]
        )


def labelled_sets(data: Path) -> Iterator[LabelledSolution]:
    """Every labelled solution of the development sets found in `data`.

    ProcessBench comes twice, half weight each: as it is benchmarked, without its reference
    answer, and with the answer where one is known, so that the prior learns both what a known
    answer verdict says and what to expect when there is none.
    """
    files = {
        "stepmath": data / "stepmathbench_dev.jsonl",
        "processbench": data / "processbench_dev.jsonl",
        "mr_math_invalid": data / "mr_math_invalid_dev.jsonl",
        "perturbation": data / "perturbation_dev.jsonl",
    }
    if files["stepmath"].is_file():
        yield from stepmath(files["stepmath"])
        yield from stepmath_human(files["stepmath"])
    if files["processbench"].is_file():
        yield from first_error_set(
            "processbench",
            files["processbench"],
            "processbench",
            with_references=False,
            weight=0.5,
            duplicate=True,
        )
        yield from first_error_set(
            "processbench_with_reference",
            files["processbench"],
            "processbench+ref",
            weight=0.5,
            scored=False,
        )
    if files["mr_math_invalid"].is_file():
        yield from first_error_set("mr_math_invalid", files["mr_math_invalid"], "mr_math_invalid")
    if files["perturbation"].is_file():
        yield from first_error_set(
            "perturbation", files["perturbation"], "perturbation", natural=False
        )
