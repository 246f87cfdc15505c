"""The grade store's tables: every grade the service answered, and the corrections made to it.

The request and report are kept whole as JSON, so that nothing a later recalibration may want
is lost; what the review queue filters and sorts on is copied into indexed columns at insert
time (`server.store.review.review_fields`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import JSON, ForeignKey, Index, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

NO_INTERVAL = -1  # `Grade.interval_width` of a report without a score interval: sorts last


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {
        dict[str, Any]: JSON,
        list[str]: JSON,
        list[dict[str, str]]: JSON,
    }


class Grade(Base):
    __tablename__ = "grades"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    owner: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime]  # naive UTC: SQLite keeps no time zone, so none is kept anywhere
    request: Mapped[dict[str, Any]]
    report: Mapped[dict[str, Any]]
    calibration: Mapped[str | None] = mapped_column(String(200))
    mode: Mapped[str] = mapped_column(String(16))
    model: Mapped[str | None] = mapped_column(String(200))
    score: Mapped[int]
    needs_review: Mapped[bool]
    interval_width: Mapped[int]
    problem_excerpt: Mapped[str] = mapped_column(String(200))
    corrected: Mapped[bool] = mapped_column(default=False)
    # `scoring.judge.memory.problem_key` of the request's problem; null for grades stored before it
    problem_key: Mapped[str | None] = mapped_column(String(64), default=None)

    corrections: Mapped[list[Correction]] = relationship(
        back_populates="grade", order_by="Correction.id", passive_deletes=True
    )

    __table_args__ = (
        Index("ix_grades_owner_created", "owner", "created_at", "id"),
        Index("ix_grades_owner_uncertainty", "owner", "interval_width", "created_at", "id"),
        Index(
            "ix_grades_owner_review_uncertainty",
            "owner",
            "needs_review",
            "interval_width",
            "created_at",
            "id",
        ),
        Index("ix_grades_created", "created_at"),
        Index("ix_grades_owner_problem", "owner", "problem_key", "corrected"),
    )


class Correction(Base):
    __tablename__ = "corrections"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    grade_id: Mapped[str] = mapped_column(ForeignKey("grades.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime]
    step_labels: Mapped[list[str]]
    score: Mapped[int | None]
    note: Mapped[str] = mapped_column(Text, default="")
    reviewer: Mapped[str | None] = mapped_column(String(200))

    grade: Mapped[Grade] = relationship(back_populates="corrections")


class MemorySolution(Base):
    """A corrected grade as its problem's memory holds it (docs/architecture.md 4.12): the
    report's steps with the latest correction's labels. One row per grade, replaced by a later
    correction, deleted with the grade."""

    __tablename__ = "memory_solutions"

    grade_id: Mapped[str] = mapped_column(
        ForeignKey("grades.id", ondelete="CASCADE"), primary_key=True
    )
    owner: Mapped[str] = mapped_column(String(64))
    problem_key: Mapped[str] = mapped_column(String(64))
    corrected_at: Mapped[datetime]
    steps: Mapped[list[dict[str, str]]]  # [{"text", "label"}], the report's steps in order
    answer: Mapped[str | None] = mapped_column(Text)
    note: Mapped[str] = mapped_column(Text, default="")

    __table_args__ = (Index("ix_memory_owner_problem", "owner", "problem_key", "corrected_at"),)
