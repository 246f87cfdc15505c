"""Builds the Grader from Settings: the one place that turns configuration into a run context."""

from __future__ import annotations

from dataclasses import replace

from agent.context import Context
from agent.grader import Grader
from agent.llm.config import REPLAY_BASE_URL, LlmConfig
from scoring.embed import EmbedConfig
from scoring.judge import JudgeConfig, Reliability, load_calibration
from server.settings import Settings


def llm_config(settings: Settings) -> LlmConfig | None:
    """The endpoint from STEPGRADE_LLM_*; None when neither an endpoint nor cassettes are set.

    With `STEPGRADE_LLM_REPLAY` alone, answers come from cassettes and no base URL is needed.
    """
    replay_only = settings.llm_replay is not None and settings.llm_model
    if not (settings.llm_configured or replay_only):
        return None
    key = settings.llm_api_key.get_secret_value() if settings.llm_api_key else "not-needed"
    return LlmConfig(
        base_url=settings.llm_base_url or REPLAY_BASE_URL,
        model=settings.llm_model or "",
        api_key=key,
        timeout=settings.llm_timeout,
        max_retries=settings.llm_max_retries,
        record_dir=settings.llm_record,
        replay_dir=settings.llm_replay,
    )


class ConfigError(ValueError):
    """A setting that cannot work: the service and the CLI stop with its message."""


def judge_config(settings: Settings) -> JudgeConfig:
    """The calibration file (`STEPGRADE_CALIBRATION`, else the shipped one) and the LLM's
    reliability; a bad file or an impossible reliability stops start-up with the reason."""
    try:
        calibration = load_calibration(settings.calibration) if settings.calibration else \
            load_calibration()
        reliability = Reliability(settings.llm_sensitivity, settings.llm_false_alarm)
    except ValueError as err:  # CalibrationError is one
        raise ConfigError(f"STEPGRADE_CALIBRATION / STEPGRADE_LLM_*: {err}") from None
    return JudgeConfig(calibration=calibration, reliability=reliability)


def make_grader(settings: Settings) -> Grader:
    context = Context(answer_timeout=settings.answer_timeout, judge=judge_config(settings))
    if settings.embedding_model:
        context = replace(context, embed=EmbedConfig(model=settings.embedding_model))
    config = llm_config(settings)
    if config is not None:
        # Imported here: offline graders never load the OpenAI client stack.
        from agent.llm.factory import make_chat_model
        from agent.llm.structured import StructuredLlm

        context = replace(context, llm=StructuredLlm(make_chat_model(config)), llm_model=config.model)
    return Grader(context)
