"""Offline labels chosen together: Eq. 1 on them as close as it gets to its expectation."""

import pytest

from scoring.judge.decide.expected import closest_to_expected
from scoring.score.stepmath import expected_score, score_solution

FREE = [[], [], [], [], []]
OPEN = [False] * 5


def test_the_most_likely_steps_are_wrong_until_the_score_meets_its_expectation():
    p = [0.3, 0.5, 0.35, 0.45, 0.4]  # expected score 10 x (1 - 0.4) = 6
    wrong = closest_to_expected(p, "open_ended", FREE, OPEN)
    assert wrong == [False, True, False, True, False]
    labels = ["incorrect" if w else "correct" for w in wrong]
    assert score_solution(labels, "open_ended").score == 6
    assert expected_score(p, "open_ended") == pytest.approx(6)


def test_a_threshold_would_call_every_step_right():
    """Each step is 40% likely wrong: below any threshold of one half, yet the solution is
    expected to lose four points in ten."""
    wrong = closest_to_expected([0.4] * 5, "proof", FREE, OPEN)
    assert sum(wrong) == 2


def test_a_tie_keeps_the_fewer_errors():
    # expected 9: no error gives 10, one gives 8, both one point off
    assert closest_to_expected([0.1] * 5, "open_ended", FREE, OPEN) == [False] * 5


def test_lenience_moves_the_target_up():
    p = [0.5, 0.45, 0.4, 0.35, 0.3]  # expected 6
    assert sum(closest_to_expected(p, "open_ended", FREE, OPEN)) == 2
    assert sum(closest_to_expected(p, "open_ended", FREE, OPEN, lenience=1.5)) == 1  # 7.5: 8


def test_an_error_costs_the_steps_built_on_it():
    p = [0.6, 0.05, 0.05]  # expected 10 x 2.3 / 3 = 7.67
    alone = closest_to_expected(p, "open_ended", [[], [], []], [False] * 3)
    assert alone == [True, False, False]  # 6.67
    # step 2 uses step 1: calling step 1 wrong costs two points of three (3.33), further off
    assert closest_to_expected(p, "open_ended", [[], [0], []], [False] * 3) == [False] * 3
    # unless step 2 is shielded (a right final answer)
    assert closest_to_expected(p, "open_ended", [[], [0], []], [False, True, False]) == alone


def test_calculation_weighs_the_final_step():
    p = [0.05, 0.05, 0.05, 0.05, 0.55]  # expected 6 x 0.95 + 4 x 0.45 = 7.5
    assert expected_score(p, "calculation") == pytest.approx(7.5)
    assert closest_to_expected(p, "calculation", FREE, OPEN) == [False] * 4 + [True]  # 6


def test_no_steps_no_labels():
    assert closest_to_expected([], "calculation", [], []) == []


def test_forced_steps_are_wrong_first_and_the_rest_still_meet_the_expectation():
    """A step a precise check found wrong (`forced`) is wrong whatever the expectation: with
    step 1's false product forced, the final step built on it is no longer the one chosen."""
    p = [0.76, 0.26, 0.82]  # the final step is the most likely wrong
    chain = [[], [0], [1]]
    free = closest_to_expected(p, "calculation", chain, [False] * 3)
    assert free == [False, False, True]  # the expectation alone calls only the final step wrong
    forced = closest_to_expected(p, "calculation", chain, [False] * 3, forced=[True, False, False])
    assert forced[0]
    # forcing nothing is the old rule, and no forced step ever goes unlabelled
    assert closest_to_expected(p, "calculation", chain, [False] * 3, forced=[False] * 3) == free
    assert closest_to_expected(
        [0.01] * 3, "open_ended", FREE[:3], [False] * 3, forced=[False, True, False]
    ) == [False, True, False]
