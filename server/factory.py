"""Builds the Grader from Settings: the one place that turns configuration into a run context."""

from __future__ import annotations

from dataclasses import replace

from agent.context import Context
from agent.grader import Grader
from scoring.embed import EmbedConfig
from server.settings import Settings


def make_grader(settings: Settings) -> Grader:
    context = Context(answer_timeout=settings.answer_timeout)
    if settings.embedding_model:
        context = replace(context, embed=EmbedConfig(model=settings.embedding_model))
    return Grader(context, llm_configured=settings.llm_configured)
