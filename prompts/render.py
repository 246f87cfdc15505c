"""Renders the prompt templates: `prompts/<operation>.<lang>.j2`, one function, strict variables.

`StrictUndefined` turns a missing variable into an error instead of an empty string, so a template
and its caller cannot drift apart silently. Student text is data: the `fence` filter neutralises
anything in it that looks like our own delimiters, so a solution cannot close its fence and
speak as the grader, however the tag is disguised (docs/injection.md).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from scoring.parse.fold import fold

PROMPTS_DIR = Path(__file__).resolve().parent
OPERATIONS = (
    "difficulty",
    "segmentation",
    "step_judgement",
    "fused_judgement",
    "answer_judgement",
    "generate_solution",
    "json_answer",
    "repair",
)
LANGUAGES = ("en", "zh")
PROMPT_SET_VERSION = "llm-1"

# One of our delimiter tags as the folded text reads it: a bracket (or an HTML entity, or LaTeX's
# \lt), spaces, a slash, the name.
_TAG = re.compile(
    r"(?:<|&lt;?|\\lt(?![a-z]))\s*([/⁄∕])?\s*(problem|solution|steps?|reference|"
    r"answer|data)\b"
)
_ASCII_TAG = re.compile(
    r"(?:<|&lt;?|\\lt)\s*/?\s*(?:problem|solution|step|reference|answer|data)", re.IGNORECASE
)


def fence(text: str) -> str:
    """The text with our delimiter tags defused (`</solution>` becomes `<\\/solution>`),
    however written: look-alike brackets (`＜`, `‹`, `〈`), zero-width characters or look-alike
    letters in or around the name, spaces, HTML entities and LaTeX's `\\lt` are read through
    (`scoring.parse.fold`), and the whole disguised opening is replaced."""
    if text.isascii() and not _ASCII_TAG.search(text):  # nothing disguised, nothing to defuse
        return text
    folded = fold(text, markup=False)
    out, last = [], 0
    for m in _TAG.finditer(folded.text):
        start, end = folded.span(m.start(), m.end())
        out.append(text[last:start])
        out.append(f"<\\/{m.group(2)}" if m.group(1) else f"<\\{m.group(2)}")
        last = end
    out.append(text[last:])
    return "".join(out)


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(PROMPTS_DIR),
        undefined=StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,  # templates ship with the code: no stat() per render
    )
    env.filters["fence"] = fence
    return env


def render(operation: str, language: str, **variables: Any) -> str:
    """The prompt for `operation` in `language` ("en" or "zh"; anything else renders English)."""
    if operation not in OPERATIONS:
        raise ValueError(f"unknown prompt operation {operation!r}")
    lang = language if language in LANGUAGES else "en"
    return environment().get_template(f"{operation}.{lang}.j2").render(**variables).strip() + "\n"
