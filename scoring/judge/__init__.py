"""The offline judge: checks find, one calibrated decision layer decides (docs/architecture.md 4.10).

Its code lies in three places, and imports run one way (tests/scoring/test_layout.py):
- `scoring/parse/` reads: step text into values and relations (the lexicon, the LaTeX parser, the
  bounded evaluator, relations and their readings); it decides nothing and imports no judge code;
- `checks/` finds: each check (`CHECKS` in `checks/__init__.py`, `find_<name>` in the module
  `<name>`) reads a solution and returns typed findings, never labels; `step_consequence`,
  `rewrite_check` and `latexlint` beside them are what some are built from; `collect.py` runs
  them all (a check that raises is left out, and named `judge.<name>`);
- `decide/` decides: the step model (prior + findings' weights + the model's label in LLM mode)
  and the decision that turns posteriors into labels; it never calls a check, and checks never
  call it. `calibration.py` reads the weights that `eval_sets.calibrate` measured on labelled
  data; `findings.py` and `input.py` are the types the two sides share.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring.judge.calibration import (
    ANY_TYPE,
    GROUP_KEY,
    LLM_SECTION,
    MEMORY_SECTION,
    OWN_KEYS,
    STATE_KEY,
    Calibration,
    CalibrationError,
    DecisionRule,
    KindStats,
    LlmRates,
    Platt,
    StepModel,
)
from scoring.judge.checks.addressed import addressed_spans
from scoring.judge.checks.final_answer import find_final_answer
from scoring.judge.checks.memory import find_memory
from scoring.judge.collect import collect_findings
from scoring.judge.decide.addressed import no_gain
from scoring.judge.decide.features import (
    CONTINUOUS,
    FALSE_RELATION_KINDS,
    GROUP_FEATURES,
    GradeGroup,
    SolutionContext,
    finding_feature,
    grade_group,
    solution_context,
    step_features,
)
from scoring.judge.decide.labels import DecideConfig, Decision, decide
from scoring.judge.decide.posterior import check_state, posteriors, sigmoid
from scoring.judge.decide.reliability import RELIABILITY, Reliability, measured_reliability
from scoring.judge.findings import (
    MEMORY_KINDS,
    REDUNDANCY_KINDS,
    SUPPORT_KINDS,
    WEIGHED_KINDS,
    Evidence,
    Finding,
    FindingKind,
)
from scoring.judge.guard import CheckFailure, Guard, describe, failed_names, failure_warnings
from scoring.judge.input import JudgeInput
from scoring.judge.load import DEFAULT_PATH, load_calibration
from scoring.judge.memory import ProblemMemory, RememberedSolution, RememberedStep, problem_key
from scoring.judge.memory.match import read_memory
from scoring.judge.memory.model import ACCEPTED_LABELS
from scoring.judge.memory.signature import solution_signature, typicality
from scoring.judge.stripping import AddressedPiece, strip_steps, strip_text
from scoring.verdict import StepVerdict


@dataclass(frozen=True)
class JudgeConfig:
    """How the judge decides.

    `relatedness` embeds every English solution to notice one about another problem (off by
    default: embedding costs far more than the checks); `reliability` is what a model's label is
    worth, unless `by_language` holds a reliability for the solution's language (measured per
    language by `stepgrade bench calibrate-llm`; see `reliability_for`).
    """

    calibration: Calibration = field(default_factory=load_calibration)
    decide: DecideConfig = field(default_factory=DecideConfig)
    reliability: Reliability = field(default_factory=Reliability)
    relatedness: bool = False
    by_language: tuple[tuple[str, Reliability], ...] = ()

    def reliability_for(self, language: str) -> Reliability:
        """The model's reliability in `language`: the per-language one, else `reliability`."""
        return dict(self.by_language).get(language, self.reliability)


def judge_steps(
    inp: JudgeInput, config: JudgeConfig | None = None, evidence: Evidence | None = None
) -> list[StepVerdict]:
    """Label every step from the evidence alone; `depends_on` is 1-based."""
    config = config or JudgeConfig()
    evidence = evidence if evidence is not None else collect_findings(inp)
    return decide(inp, evidence, config.calibration, config=config.decide).verdicts


__all__ = [
    "ACCEPTED_LABELS",
    "ANY_TYPE",
    "CONTINUOUS",
    "DEFAULT_PATH",
    "FALSE_RELATION_KINDS",
    "GROUP_FEATURES",
    "GROUP_KEY",
    "LLM_SECTION",
    "MEMORY_KINDS",
    "MEMORY_SECTION",
    "OWN_KEYS",
    "REDUNDANCY_KINDS",
    "RELIABILITY",
    "STATE_KEY",
    "SUPPORT_KINDS",
    "WEIGHED_KINDS",
    "AddressedPiece",
    "Calibration",
    "CalibrationError",
    "CheckFailure",
    "DecideConfig",
    "Decision",
    "DecisionRule",
    "Evidence",
    "Finding",
    "FindingKind",
    "GradeGroup",
    "Guard",
    "JudgeConfig",
    "JudgeInput",
    "KindStats",
    "LlmRates",
    "Platt",
    "ProblemMemory",
    "Reliability",
    "RememberedSolution",
    "RememberedStep",
    "SolutionContext",
    "StepModel",
    "addressed_spans",
    "check_state",
    "collect_findings",
    "decide",
    "describe",
    "failed_names",
    "failure_warnings",
    "find_final_answer",
    "find_memory",
    "finding_feature",
    "grade_group",
    "judge_steps",
    "load_calibration",
    "measured_reliability",
    "no_gain",
    "posteriors",
    "problem_key",
    "read_memory",
    "sigmoid",
    "solution_context",
    "solution_signature",
    "step_features",
    "strip_steps",
    "strip_text",
    "typicality",
]
