"""The fit and check halves: split by problem, so a problem's solutions stay together."""

from eval_sets.halves import half_of


def test_halves_keep_a_problems_solutions_together():
    assert half_of("Find x.  ") == half_of("Find  x.")
    halves = {half_of(f"problem {i}") for i in range(50)}
    assert halves == {"fit", "check"}
