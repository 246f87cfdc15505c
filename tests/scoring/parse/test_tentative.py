"""Whether a step only explores (supposes, tries, checks, rejects) rather than states."""

import pytest

from scoring.parse.tentative import is_tentative


@pytest.mark.parametrize(
    "text",
    [
        "Suppose $x = 3$.",
        "Let's try $n = 4$: then $2n = 8$.",
        "Check: $2 \\cdot 4 + 3 = 11$.",
        "假设 $x = 3$，则 $2x = 6$。",
    ],
)
def test_exploring_steps_are_tentative(text):
    assert is_tentative(text)


@pytest.mark.parametrize(
    "text", ["So $x = 4$.", "The area is $5 \\times 10 = 50$.", "所以 $x = 4$。", ""]
)
def test_stating_steps_are_not(text):
    assert not is_tentative(text)


def test_the_answer_is_kept_per_text():
    is_tentative.cache_clear()
    is_tentative("Suppose $x = 3$.")
    is_tentative("Suppose $x = 3$.")
    is_tentative("So $x = 4$.")
    info = is_tentative.cache_info()
    assert (info.hits, info.misses) == (1, 2)
