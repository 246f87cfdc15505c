"""Builds a Grader from the settings: the one place that turns configuration into a run context.

Below both the service and the benchmark runner, so that neither imports the other.
"""

from __future__ import annotations

from dataclasses import replace

from agent.context import Context
from agent.grader import Grader
from agent.llm.config import REPLAY_BASE_URL, LlmConfig
from agent.settings import GradingSettings
from scoring.align import EmbedConfig
from scoring.judge import (
    RELIABILITY,
    Calibration,
    JudgeConfig,
    Reliability,
    load_calibration,
    measured_reliability,
)
from scoring.score import FuseConfig


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


def reliabilities(
    settings: GradingSettings, calibration: Calibration
) -> tuple[Reliability, tuple[tuple[str, Reliability], ...]]:
    """The configured model's reliability: (the default, per-language ones).

    Measured rates come from the calibration's section for `STEPGRADE_LLM_MODEL` (written by
    `stepgrade bench calibrate-llm`), one per language measured. A rate set explicitly
    (STEPGRADE_LLM_SENSITIVITY / STEPGRADE_LLM_FALSE_ALARM) wins over the measured one in every
    language: the user knows their model; the other rate stays as measured (or assumed). With
    neither, the assumed defaults hold (`source` "assumed": the grade says so).

    Raises:
        ValueError: the rates cannot work together (0 < false alarm < sensitivity < 1).
    """
    sens, fa = settings.llm_sensitivity, settings.llm_false_alarm
    measured = measured_reliability(calibration, settings.llm_model) if settings.llm_model else {}

    def overridden(base: Reliability) -> Reliability:
        if sens is None and fa is None:
            return base
        return Reliability(
            base.sensitivity if sens is None else sens,
            base.false_alarm if fa is None else fa,
            "set",
            base.wrong,
            base.right,
        )

    by_language = tuple((lang, overridden(r)) for lang, r in sorted(measured.items()))
    return overridden(RELIABILITY), by_language


def judge_config(settings: GradingSettings) -> JudgeConfig:
    """The calibration file (`STEPGRADE_CALIBRATION`, else the shipped one) and the LLM's
    reliability; a bad file or an impossible reliability stops start-up with the reason."""
    try:
        calibration = (
            load_calibration(settings.calibration) if settings.calibration else load_calibration()
        )
        reliability, by_language = reliabilities(settings, calibration)
    except ValueError as err:  # CalibrationError is one
        raise ConfigError(f"STEPGRADE_CALIBRATION / STEPGRADE_LLM_*: {err}") from None
    return JudgeConfig(calibration=calibration, reliability=reliability, by_language=by_language)


def make_grader(settings: GradingSettings) -> Grader:
    """The grader the settings describe: one place turns environment settings into a context.

    The score interval's statistics come from the same calibration file as the step model
    (its `uncertainty` section; a file without one grades without an interval)."""
    judge = judge_config(settings)
    try:
        context = Context(
            answer_timeout=settings.answer_timeout,
            judge=judge,
            fuse=FuseConfig(policy=settings.scoring_policy),
        )
    except ValueError as err:  # UncertaintyError is one
        raise ConfigError(f"STEPGRADE_CALIBRATION: {err}") from None
    if settings.embedding_model:
        context = replace(context, embed=EmbedConfig(model=settings.embedding_model))
    config = llm_config(settings)
    if config is not None:
        # Imported here: offline graders never load the OpenAI client stack.
        from agent.llm.client import LlmClient

        context = replace(context, llm=LlmClient(config), llm_model=config.model)
    return Grader(context)
