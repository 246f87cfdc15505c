"""Start-up work for the lifespan: load the embedding model and the math-verify worker pool once."""

from __future__ import annotations

import logging

from starlette.concurrency import run_in_threadpool

from agent.grader import Grader
from scoring.align import load_model
from scoring.answer import default_verifier
from server.core.settings import Settings

log = logging.getLogger("stepgrade.server")


async def warm_up(grader: Grader, settings: Settings) -> dict[str, str]:
    """Readiness of each dependency: "ok", "lazy" (loads on first use) or "failed"."""
    checks = {"embedding_model": "lazy", "answer_worker": "lazy"}
    if grader.context.embedder is not None:
        checks["embedding_model"] = "ok"
    elif settings.preload_embedding:
        try:
            await run_in_threadpool(load_model, grader.context.embed.model)
            checks["embedding_model"] = "ok"
        except Exception:  # reported by /readyz; grading then fails per request, not here
            log.exception("embedding model failed to load")
            checks["embedding_model"] = "failed"
    if settings.preload_answer_worker:
        # Every worker of the pool starts now and answers one real comparison.
        started = await run_in_threadpool(default_verifier().warm)
        checks["answer_worker"] = "ok" if started else "failed"
    return checks
