"""Back-substitution and case analyses: a step of an abandoned case is not judged by the final values."""

from scoring.judge.checks.back_substitution import back_substitute as bs
from scoring.parse.equations import extract_relations as ex


def test_a_step_of_an_abandoned_case_is_not_back_substituted():
    steps = [
        "So $a + 1 = 3$ and $b + 2 = 4$.",
        "So $a = 2$, which is too small.",
        "Take the other pair: $a + 1 = 6$ and $b + 2 = 9$.",
        "So $a = 5$ and $b = 7$.",
    ]
    # b = 7 contradicts `b + 2 = 4`, but that step belongs to the first case (a = 2, later a = 5)
    assert bs([ex(s) for s in steps], steps) == []
    single = ["So $b + 2 = 4$.", "So $b = 7$."]
    assert [f.step for f in bs([ex(s) for s in single], single)] == [0]
