"""Builds a Grader from the settings: the one place that turns configuration into a run context.

Below both the service and the benchmark runner, so that neither imports the other.
"""

from __future__ import annotations

from dataclasses import replace

from agent.context import Context
from agent.grader import Grader
from agent.llm.config import REPLAY_BASE_URL, LlmConfig
from agent.settings import GradingSettings
from scoring.embed import EmbedConfig
from scoring.judge import JudgeConfig, Reliability, load_calibration


def llm_config(settings: GradingSettings) -> LlmConfig | None:
    """The endpoint from STEPGRADE_LLM_*; None when neither an endpoint nor a replay is set.

    `STEPGRADE_LLM_RECORD=dir` stores every answer and answers repeated requests from there;
    `STEPGRADE_LLM_REPLAY=dir` answers from there only, never the network (no base URL needed;
    a request never recorded fails); both set name one folder: a cache in front of the endpoint.
    """
    record, replay = settings.llm_record, settings.llm_replay
    # A replay folder with no endpoint to fall back on answers from the folder alone.
    replay_only = replay is not None and (record is None or not settings.llm_base_url)
    if not settings.llm_model or not (settings.llm_base_url or replay_only):
        return None
    key = settings.llm_api_key.get_secret_value() if settings.llm_api_key else "not-needed"
    return LlmConfig(
        base_url=REPLAY_BASE_URL if replay_only else str(settings.llm_base_url),
        model=settings.llm_model or "",
        api_key=key,
        timeout=settings.llm_timeout,
        max_retries=settings.llm_max_retries,
        budget=settings.llm_budget,
        methods=tuple(settings.llm_methods),
        reason_tokens=settings.llm_reason_tokens,
        max_tokens=settings.llm_max_tokens,
        stream=settings.llm_stream,
        cache_dir=record or replay,
        replay_only=replay_only,
    )


class ConfigError(ValueError):
    """A setting that cannot work: the service and the CLI stop with its message."""


def judge_config(settings: GradingSettings) -> JudgeConfig:
    """The calibration file (`STEPGRADE_CALIBRATION`, else the shipped one) and the LLM's
    reliability; a bad file or an impossible reliability stops start-up with the reason."""
    try:
        calibration = load_calibration(settings.calibration) if settings.calibration else \
            load_calibration()
        reliability = Reliability(settings.llm_sensitivity, settings.llm_false_alarm)
    except ValueError as err:  # CalibrationError is one
        raise ConfigError(f"STEPGRADE_CALIBRATION / STEPGRADE_LLM_*: {err}") from None
    return JudgeConfig(calibration=calibration, reliability=reliability)


def make_grader(settings: GradingSettings) -> Grader:
    context = Context(answer_timeout=settings.answer_timeout, judge=judge_config(settings))
    if settings.embedding_model:
        context = replace(context, embed=EmbedConfig(model=settings.embedding_model))
    config = llm_config(settings)
    if config is not None:
        # Imported here: offline graders never load the OpenAI client stack.
        from agent.llm.client import LlmClient

        context = replace(context, llm=LlmClient(config), llm_model=config.model)
    return Grader(context)
