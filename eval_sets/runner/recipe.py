"""How to build a run's grader (and, for `bench generate`, its solution generator) in any process.

The local engine builds one in the driver; the Ray engine ships the same recipe to every actor,
which builds its own once. One recipe for both is what makes their results the same.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from agent.context import Context
from agent.grader import Grader, LlmUnavailableError
from eval_sets.runner.llm_gate import Gate, gate_grader
from eval_sets.runner.run import Prepare
from scoring.schema import Mode

# Builds the `Prepare` step of a run (e.g. ask a model for the solution), its model calls gated.
PrepareFactory = Callable[[Gate | None], Prepare]


def make_bench_grader(mode: Mode, out_dir: Path, answer_timeout: float | None = None) -> Grader:
    """Offline: a plain Grader. LLM: the configured endpoint with a cassette cache in the out dir,
    so a rerun (or a resumed run) answers repeated prompts from disk instead of the model.
    `answer_timeout` (seconds per symbolic answer check) can be raised for reproducible runs on a
    busy machine, where a 2 s check may time out and leave the answer undecided."""
    if mode == "offline":
        return Grader(Context() if answer_timeout is None else Context(answer_timeout=answer_timeout))
    from server.factory import make_grader
    from server.settings import Settings

    settings = Settings()
    cache = out_dir / "llm_cache"
    cache.mkdir(parents=True, exist_ok=True)
    updates: dict[str, object] = {"llm_record": settings.llm_record or cache,
                                  "llm_replay": settings.llm_replay or cache}
    if answer_timeout is not None:
        updates["answer_timeout"] = answer_timeout
    return make_grader(settings.model_copy(update=updates))


@dataclass(frozen=True)
class Recipe:
    """Everything a process needs to grade items the way the run asks (picklable)."""

    mode: Mode
    out_dir: Path
    answer_timeout: float | None = None
    prepare: PrepareFactory | None = None

    def build(self, gate: Gate | None = None) -> tuple[Grader, Prepare | None]:
        """The grader and the prepare step, their model calls behind `gate` when one is given."""
        grader = make_bench_grader(self.mode, self.out_dir, self.answer_timeout)
        if self.mode == "llm" and not grader.llm_configured:
            raise LlmUnavailableError("--mode llm needs STEPGRADE_LLM_BASE_URL and "
                                      "STEPGRADE_LLM_MODEL (an OpenAI-compatible endpoint)")
        return gate_grader(grader, gate), None if self.prepare is None else self.prepare(gate)
