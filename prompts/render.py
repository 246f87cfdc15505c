"""Renders the prompt templates: `prompts/<operation>.<lang>.j2`, one function, strict variables.

`StrictUndefined` turns a missing variable into an error instead of an empty string, so a template
and its caller cannot drift apart silently. Student text is data: the `fence` filter neutralises
anything in it that looks like our own delimiters, so a solution cannot close its fence and
speak as the grader.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

PROMPTS_DIR = Path(__file__).resolve().parent
OPERATIONS = (
    "difficulty", "segmentation", "step_judgement", "fused_judgement", "answer_judgement",
    "generate_solution", "json_answer", "repair",
)
LANGUAGES = ("en", "zh")
PROMPT_SET_VERSION = "llm-1"

_TAG = re.compile(r"<(/?)(problem|solution|steps?|reference|answer|data)\b", re.IGNORECASE)


def fence(text: str) -> str:
    """The text with our delimiter tags defused (`</solution>` becomes `<\\/solution>`)."""
    return _TAG.sub(lambda m: f"<\\/{m.group(2)}" if m.group(1) else f"<\\{m.group(2)}", text)


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
