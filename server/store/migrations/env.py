"""Alembic environment: runs on the connection `server.store.engine.upgrade` hands it."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from server.store.models import Base

config = context.config


def run(connection: Connection) -> None:
    """Apply the migrations on one connection (batch mode on SQLite, which cannot alter tables)."""
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


given = config.attributes.get("connection")
if given is not None:
    run(given)
else:  # the alembic command line: `alembic -x url=... revision --autogenerate`
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option(
        "sqlalchemy.url"
    )
    if not url:
        raise SystemExit("alembic: pass -x url=<database URL>")
    with create_engine(url).connect() as conn:
        run(conn)
        conn.commit()
