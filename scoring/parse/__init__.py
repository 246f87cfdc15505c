"""Reading step text into values and relations: the helpers the judge's checks are built from.

Nothing here decides a label or emits a finding; the checks (`scoring.judge.checks`) do, and the
decision layer (`scoring.judge.decide`) turns findings into labels. So this package imports
nothing from `scoring.judge` (tests/scoring/test_layout.py holds it to that).

- text: `lexicon` (the shared number patterns and hedging / case words), `mathspans` (where the
  math is), `mathstatements` (statements and relation chains), `currency`, `units`, `names`;
- values: `mathparse` (LaTeX / plain text to sympy, bounded), `numeric` (bounded evaluation),
  `differ` (same function or not), `bases`, `division`, `approximation`, `tolerance` (how close
  two numbers must be: one policy for final answers and steps);
- relations: `equations` (extract and evaluate, docs/architecture.md 4.7), `step_context` (how a step's
  words want its relations read), `prose_arithmetic` (arithmetic stated in words), `knowns` (values
  established earlier), `quantities` (what a step produces and uses, docs/architecture.md 4.4).
"""

from scoring.parse.equations import StepCheck, check_step, extract_relations, prose_relations
from scoring.parse.fold import fold
from scoring.parse.mathparse import parse_math
from scoring.parse.numeric import evaluate
from scoring.parse.quantities import dependencies, extract_quantities

__all__ = [
    "StepCheck",
    "check_step",
    "dependencies",
    "evaluate",
    "extract_quantities",
    "extract_relations",
    "fold",
    "parse_math",
    "prose_relations",
]
