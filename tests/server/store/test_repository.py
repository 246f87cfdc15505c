"""The grade store itself: schema, review columns, keyset pages, corrections, retention, and
writes from many threads at once. SQLite by default; PostgreSQL under `make test-db`."""

from __future__ import annotations

from datetime import timedelta

import pytest

from server.store.repository import (
    GradeNotFound,
    InvalidCursor,
    LabelsMismatch,
    add_correction,
    count_by_owner,
    export_grades,
    get_grade,
    list_grades,
    new_grade,
    reassign_owner,
    save_grades,
    utcnow,
)
from tests.server.store.conftest import report_json, request_json, save


def test_a_grade_is_read_back_whole_by_its_owner_only(store):
    grade = save(store, owner="a", score=7)
    with store.session() as session:
        stored = get_grade(session, "a", grade.id)
        assert (stored.request, stored.report["score"], stored.mode) == (
            request_json(),
            7,
            "offline",
        )
        with pytest.raises(GradeNotFound):
            get_grade(session, "b", grade.id)
        with pytest.raises(GradeNotFound):
            get_grade(session, "a", "no-such-id")


def test_uncertainty_order_widest_first_none_last_then_newest_across_pages(store):
    start = utcnow() - timedelta(hours=1)
    widths = [None, 2, 6, None, 6, 0, 4, 2]
    rows = []
    for i, width in enumerate(widths):
        interval = None if width is None else [1, 1 + width]
        rows.append(
            new_grade(
                "a",
                request_json(f"p{i}"),
                report_json(interval=interval, needs_review=i % 2 == 0),
                now=start + timedelta(minutes=i),
            )
        )
    rows.append(new_grade("b", request_json(), report_json(interval=[0, 10])))  # not a's
    save_grades(store, rows)
    with store.session() as session:
        pages, cursor = [], None
        while True:
            page = list_grades(session, "a", order="uncertainty", limit=3, cursor=cursor)
            pages.append([g.problem_excerpt for g in page.grades])
            if page.next_cursor is None:
                break
            cursor = page.next_cursor
        assert pages == [["p4", "p2", "p6"], ["p7", "p1", "p5"], ["p3", "p0"]]
        review = list_grades(session, "a", order="uncertainty", needs_review=True, limit=10)
        assert [g.problem_excerpt for g in review.grades] == ["p4", "p2", "p6", "p0"]
        assert review.next_cursor is None
        newest = list_grades(session, "a", order="created", needs_review=False, limit=10)
        assert [g.problem_excerpt for g in newest.grades] == ["p7", "p5", "p3", "p1"]


def test_a_cursor_is_opaque_and_bound_to_its_order(store):
    for _ in range(3):
        save(store)
    with store.session() as session:
        cursor = list_grades(session, "a", order="created", limit=1).next_cursor
        assert cursor is not None and "2026" not in cursor
        with pytest.raises(InvalidCursor):
            list_grades(session, "a", order="uncertainty", cursor=cursor)
        with pytest.raises(InvalidCursor):
            list_grades(session, "a", cursor="not-a-cursor")


def test_a_later_correction_supersedes_and_every_one_is_kept(store):
    grade = save(store, steps=2)
    with store.session() as session:
        with pytest.raises(LabelsMismatch, match="1 labels for a report of 2 steps"):
            add_correction(session, "a", grade.id, step_labels=["correct"])
        with pytest.raises(LabelsMismatch, match="'wrong' is not one of"):
            add_correction(session, "a", grade.id, step_labels=["correct", "wrong"])
        with pytest.raises(GradeNotFound):
            add_correction(session, "b", grade.id, step_labels=["correct", "correct"])
        add_correction(session, "a", grade.id, step_labels=["correct", "correct"], score=9)
        add_correction(
            session,
            "a",
            grade.id,
            step_labels=["correct", "incorrect"],
            score=4,
            note="step 2",
            reviewer="t",
        )
        stored = get_grade(session, "a", grade.id)
        assert [c.score for c in stored.corrections] == [9, 4] and stored.corrected
        [row] = export_grades(session, "a")
        assert row.correction is not None and row.correction.step_labels == ["correct", "incorrect"]
        assert export_grades(session, "b") == []


def test_export_takes_only_corrected_grades_unless_asked_for_all(store):
    corrected, plain = save(store), save(store)
    with store.session() as session:
        add_correction(session, "a", corrected.id, step_labels=["incorrect", "incorrect"])
        assert [r.grade.id for r in export_grades(session, "a")] == [corrected.id]
        every = export_grades(session, "a", corrected_only=False)
        assert {r.grade.id: r.correction is None for r in every} == {
            corrected.id: False,
            plain.id: True,
        }


def test_a_repeated_correction_stores_nothing_new(store):
    grade = save(store, steps=2)
    with store.session() as session:
        first = add_correction(session, "a", grade.id, step_labels=["correct", "correct"], score=9)
        again = add_correction(session, "a", grade.id, step_labels=["correct", "correct"], score=9)
        assert first.created and not again.created
        assert again.correction.id == first.correction.id
        assert len(get_grade(session, "a", grade.id).corrections) == 1


def test_grades_are_counted_and_given_to_another_owner_with_their_corrections(store):
    grade, _ = save(store, owner="default"), save(store, owner="default")
    save(store, owner="b")
    with store.session() as session:
        add_correction(session, "default", grade.id, step_labels=["correct", "correct"])
        assert (count_by_owner(session, "default"), count_by_owner(session, "c")) == (2, 0)
        assert reassign_owner(session, "default", "c") == 2
        assert (count_by_owner(session, "default"), count_by_owner(session, "c")) == (0, 2)
        assert len(get_grade(session, "c", grade.id).corrections) == 1
        assert count_by_owner(session, "b") == 1


def test_a_long_problem_is_cut_to_an_excerpt_on_one_line():
    short = new_grade("a", request_json("Solve\n  2x = 8."), report_json())
    assert short.problem_excerpt == "Solve 2x = 8."
    long = new_grade("a", request_json("word " * 100), report_json())
    assert len(long.problem_excerpt) == 160 and long.problem_excerpt.endswith("…")


def test_the_teach_order_is_one_page_and_skips_corrected_grades(store):
    corrected, plain = save(store), save(store)
    with store.session() as session:
        add_correction(session, "a", corrected.id, step_labels=["correct", "correct"])
        page = list_grades(session, "a", order="teach")
        assert [g.id for g in page.grades] == [plain.id] and page.next_cursor is None
        with pytest.raises(InvalidCursor, match="one page"):
            list_grades(session, "a", order="teach", cursor="abc")
