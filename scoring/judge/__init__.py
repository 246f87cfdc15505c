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

from scoring.judge.calibration import Calibration, load_calibration
from scoring.judge.collect import collect_findings
from scoring.judge.decide.labels import DecideConfig, Decision, decide
from scoring.judge.decide.reliability import Reliability
from scoring.judge.findings import Evidence, Finding
from scoring.judge.input import JudgeInput
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


def judge_steps(inp: JudgeInput, config: JudgeConfig | None = None,
                evidence: Evidence | None = None) -> list[StepVerdict]:
    """Label every step from the evidence alone; `depends_on` is 1-based."""
    config = config or JudgeConfig()
    evidence = evidence if evidence is not None else collect_findings(inp)
    return decide(inp, evidence, config.calibration, config=config.decide).verdicts


__all__ = [
    "Calibration",
    "DecideConfig",
    "Decision",
    "Evidence",
    "Finding",
    "JudgeConfig",
    "JudgeInput",
    "Reliability",
    "collect_findings",
    "decide",
    "judge_steps",
    "load_calibration",
]
