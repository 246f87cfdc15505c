"""Words the checks read (moves into the shared `scoring.lexicon`)."""

from __future__ import annotations

import re

# A step that says it considers a case or an assumption.
CASE_WORDS = re.compile(
    r"\bif\b|\bwhen\b|\bcase\b|\bsuppos|\bassum|\bfor\s+\$?[a-z]\s*=|\btry|若|如果|当|情况|假设",
    re.IGNORECASE,
)
