"""Grades and their corrections.

Revision ID: 0001
Revises:
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the grades and corrections tables and their indexes."""
    op.create_table(
        "grades",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("request", sa.JSON(), nullable=False),
        sa.Column("report", sa.JSON(), nullable=False),
        sa.Column("calibration", sa.String(200), nullable=True),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("model", sa.String(200), nullable=True),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("needs_review", sa.Boolean(), nullable=False),
        sa.Column("interval_width", sa.Integer(), nullable=False),
        sa.Column("problem_excerpt", sa.String(200), nullable=False),
        sa.Column("corrected", sa.Boolean(), nullable=False),
    )
    op.create_index("ix_grades_owner_created", "grades", ["owner", "created_at", "id"])
    op.create_index(
        "ix_grades_owner_uncertainty", "grades", ["owner", "interval_width", "created_at", "id"]
    )
    op.create_index(
        "ix_grades_owner_review_uncertainty",
        "grades",
        ["owner", "needs_review", "interval_width", "created_at", "id"],
    )
    op.create_index("ix_grades_created", "grades", ["created_at"])
    op.create_table(
        "corrections",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "grade_id",
            sa.String(32),
            sa.ForeignKey("grades.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("step_labels", sa.JSON(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=True),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("reviewer", sa.String(200), nullable=True),
    )
    op.create_index("ix_corrections_grade_id", "corrections", ["grade_id"])


def downgrade() -> None:
    """Drop what `upgrade` created."""
    op.drop_table("corrections")
    op.drop_table("grades")
