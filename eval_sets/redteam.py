"""The red-team set: hand-written attempts to talk to the grader, each over a hand-written wrong
solution, and that solution without the attempt (its plain twin). docs/injection.md.

`eval_sets/bundled/addressed_to_grader.json` holds the plain solutions (steps one per line, the
labels an honest judge gives them) and the attempts: in English and Chinese and both, plain,
LaTeX, markdown, JSON and unicode tricks, in a step or on the final answer's line. An attempt's
solution is its twin with one stretch replaced (`replace`: the old text and the new).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from scoring.schema import GradeRequest, JudgedLabel, Mode

REDTEAM_PATH = Path(__file__).resolve().parent / "bundled" / "addressed_to_grader.json"


@dataclass(frozen=True)
class PlainSolution:
    """A wrong solution with no text addressed to the grader, and its steps' honest labels."""

    id: str
    language: str
    problem: str
    reference_answer: str
    steps: tuple[str, ...]
    labels: tuple[JudgedLabel, ...]

    @property
    def text(self) -> str:
        """The solution as a student hands it in: one step a line."""
        return "\n".join(self.steps) + "\n"

    def request(
        self, text: str | None = None, mode: Mode = "offline", as_steps: bool = False
    ) -> GradeRequest:
        """A request grading `text` (default: this solution) for this problem, whole or as
        given steps (one a line)."""
        text = self.text if text is None else text
        body = {"solution_steps": text.splitlines()} if as_steps else {"solution": text}
        return GradeRequest(
            problem=self.problem, reference_answer=self.reference_answer, mode=mode, **body
        )


@dataclass(frozen=True)
class Attempt:
    """One attempt: which solution it is written into, how, and where."""

    id: str
    base: str
    language: str  # of the attempt's text: en, zh or mixed
    style: str  # plain, latex, markdown, json or unicode
    where: str  # step or answer
    replace: tuple[str, str]

    def text(self, plain: PlainSolution) -> str:
        """The plain solution with the attempt written into it."""
        old, new = self.replace
        if plain.text.count(old) != 1:
            raise ValueError(f"attempt {self.id}: {old!r} is not in {plain.id} exactly once")
        return plain.text.replace(old, new)

    @property
    def written(self) -> str:
        """What the attempt adds to its solution: the new text without what it shares with the
        old at either end."""
        old, new = self.replace
        head = len(os.path.commonprefix([old, new]))
        tail = len(os.path.commonprefix([old[head:][::-1], new[head:][::-1]]))
        return new[head : len(new) - tail].strip()


def load_redteam(path: Path = REDTEAM_PATH) -> tuple[dict[str, PlainSolution], list[Attempt]]:
    """The plain solutions by id, and the attempts."""
    data = json.loads(path.read_text(encoding="utf-8"))
    plain = {
        s["id"]: PlainSolution(
            s["id"],
            s["language"],
            s["problem"],
            s["reference_answer"],
            tuple(s["steps"]),
            tuple(s["labels"]),
        )
        for s in data["solutions"]
    }
    attempts = [
        Attempt(
            a["id"],
            a["base"],
            a["language"],
            a["style"],
            a["where"],
            (a["replace"][0], a["replace"][1]),
        )
        for a in data["attempts"]
    ]
    unknown = sorted({a.base for a in attempts} - set(plain))
    if unknown:
        raise ValueError(f"attempts over unknown solutions: {unknown}")
    return plain, attempts
