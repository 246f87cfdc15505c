"""The store over the service's life: opened (and migrated) at start-up, old grades deleted
then and every hour after (STEPGRADE_RETENTION_DAYS), closed at shutdown."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

import anyio
from sqlalchemy.exc import SQLAlchemyError

from server.core.security import DEFAULT_OWNER
from server.core.settings import Settings
from server.store.engine import GradeStore, open_store
from server.store.repository import count_by_owner, delete_older_than, utcnow

log = logging.getLogger("stepgrade.store")

RETENTION_EVERY_S = 3600.0


async def start_store(settings: Settings) -> GradeStore | None:
    """The migrated store of `settings`, or None when the service keeps no grades."""
    url = settings.store_url
    if url is None:
        return None
    return await anyio.to_thread.run_sync(open_store, url)


def prune(store: GradeStore, days: float) -> int:
    """Delete the grades older than `days`; how many went."""
    with store.session() as session:
        deleted = delete_older_than(session, utcnow() - timedelta(days=days))
    if deleted:
        log.info("old grades deleted", extra={"deleted": deleted, "retention_days": days})
    return deleted


async def keep_pruning(store: GradeStore, days: float, every: float = RETENTION_EVERY_S) -> None:
    """Prune every `every` seconds until cancelled (start-up prunes before serving, with
    `prune` itself); a failed round is logged, not fatal."""
    while True:
        await asyncio.sleep(every)
        try:
            await anyio.to_thread.run_sync(prune, store, days)
        except SQLAlchemyError:
            log.exception("deleting old grades failed")


def warn_hidden_grades(store: GradeStore) -> int:
    """With API keys on, say how many grades were stored without a key: no key sees them until
    `stepgrade store assign` gives them to one. Returns that count."""
    with store.session() as session:
        hidden = count_by_owner(session, DEFAULT_OWNER)
    if hidden:
        log.warning(
            "grades stored without an API key are hidden from every key; give them to "
            "one with `stepgrade store assign` (docs/review.md)",
            extra={"hidden_grades": hidden},
        )
    return hidden
