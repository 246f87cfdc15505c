"""Problem memory: each grade's problem key, and the corrected solutions remembered per problem.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add `grades.problem_key` (null for grades stored before) and the `memory_solutions` table,
    whose rows go with their grade."""
    with op.batch_alter_table("grades") as batch:
        batch.add_column(sa.Column("problem_key", sa.String(64), nullable=True))
    op.create_index("ix_grades_owner_problem", "grades", ["owner", "problem_key", "corrected"])
    op.create_table(
        "memory_solutions",
        sa.Column(
            "grade_id",
            sa.String(32),
            sa.ForeignKey("grades.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("problem_key", sa.String(64), nullable=False),
        sa.Column("corrected_at", sa.DateTime(), nullable=False),
        sa.Column("steps", sa.JSON(), nullable=False),
        sa.Column("answer", sa.Text(), nullable=True),
        sa.Column("note", sa.Text(), nullable=False),
    )
    op.create_index(
        "ix_memory_owner_problem", "memory_solutions", ["owner", "problem_key", "corrected_at"]
    )


def downgrade() -> None:
    """Drop what `upgrade` added."""
    op.drop_table("memory_solutions")
    op.drop_index("ix_grades_owner_problem", "grades")
    with op.batch_alter_table("grades") as batch:
        batch.drop_column("problem_key")
