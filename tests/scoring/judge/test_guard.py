"""Containing a failing check: its default instead of its result, the failure recorded under
its name, and warnings that say which check failed where."""

import pytest

from scoring.judge.guard import CheckFailure, Guard, describe, failed_names, failure_warnings


def boom(message="bad step"):
    raise ValueError(message)


def test_a_check_that_works_gives_its_result_and_records_nothing():
    guard = Guard()
    assert guard.run("judge.add", lambda a, b=0: a + b, 2, b=3, default=0) == 5
    assert guard.failures == []


def test_a_check_that_raises_gives_its_default_and_is_recorded():
    guard = Guard()
    assert guard.run("judge.arithmetic", boom, default=(), step=2) == ()
    assert guard.failures == [CheckFailure("judge.arithmetic", "ValueError: bad step", 2)]
    assert guard.failures[0].outcome == "graded without it"


def test_without_containment_the_error_is_raised():
    with pytest.raises(ValueError, match="bad step"):
        Guard(contain=False).run("judge.arithmetic", boom, default=())


def test_each_guard_keeps_its_own_failures():
    first, second = Guard(), Guard()
    first.run("a", boom, default=None)
    assert second.failures == [] and len(first.failures) == 1


def test_failed_names_are_unique_and_sorted():
    failures = [CheckFailure("b", "E"), CheckFailure("a", "E"), CheckFailure("b", "E", 3)]
    assert failed_names(failures) == ["a", "b"]
    assert failed_names([]) == []


def test_failure_warnings_name_the_check_and_its_steps():
    failures = [
        CheckFailure("judge.repeat", "KeyError: 'x'"),
        CheckFailure("judge.arithmetic", "ValueError: one", 5),
        CheckFailure("judge.arithmetic", "ValueError: two", 2),
        CheckFailure("judge.arithmetic", "ValueError: three", 5),
        CheckFailure("judge.units", "OverflowError", 4, "left undecided"),
    ]
    assert failure_warnings(failures) == [
        "check judge.arithmetic failed on steps 2, 5 (ValueError: one); graded without it",
        "check judge.repeat failed (KeyError: 'x'); graded without it",
        "check judge.units failed on step 4 (OverflowError); left undecided",
    ]


def test_a_long_list_of_steps_is_shortened():
    failures = [CheckFailure("c", "E", s) for s in range(1, 14)]
    [warning] = failure_warnings(failures)
    assert "on steps 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 3 more (E)" in warning


@pytest.mark.parametrize(
    ("err", "text"),
    [
        (ValueError("bad"), "ValueError: bad"),
        (KeyError("k"), "KeyError: 'k'"),
        (RuntimeError(), "RuntimeError"),
        (ValueError("two\nlines"), "ValueError: two lines"),
        (ValueError("x" * 300), "ValueError: " + "x" * 200 + "..."),
    ],
)
def test_describe(err, text):
    assert describe(err) == text
