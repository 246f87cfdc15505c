"""Announced rewrites ("simplifies to", "expanding, we get") must keep the value."""

from scoring.judge.checks.rewrite_check import broken_rewrites


def test_a_wrong_expansion_is_caught():
    found = broken_rewrites("Expanding, we get $h^2 + 6h + 6$.", "So the area is $(h+2)(h+4)$.")
    assert len(found) == 1 and "is not equal to (h+2)(h+4)" in found[0].detail


def test_the_right_expansion_stays_clean():
    assert (
        broken_rewrites("Expanding, we get $h^2 + 6h + 8$.", "So the area is $(h+2)(h+4)$.") == []
    )


def test_within_one_step():
    assert broken_rewrites("The total is $4m + 3m - m$, which simplifies to $6m$.") == []
    assert broken_rewrites("The total is $4m + 3m - m$, which simplifies to $8m$.") != []


def test_a_changed_operator_in_a_function_definition():
    prev = "So we get $q(s) = (s+1)^2 - 3$."
    assert broken_rewrites("Expanding, we get $q(s) = s^2 + 2s - 2$.", prev) == []
    assert broken_rewrites("Expanding, we get $q(s) = s^2 * 2s - 2$.", prev) != []


def test_equations_may_be_scaled_when_a_side_is_zero():
    prev = "We need $w^2 + 3w - 4 = 0$."
    assert broken_rewrites("That simplifies to $2w^2 + 6w - 8 = 0$.", prev) == []
    assert broken_rewrites("That simplifies to $2w^2 + 6w - 4 = 0$.", prev) != []


def test_linear_equations_must_stay_equivalent():
    assert (
        broken_rewrites("Adding them, $3a + b + a - b = 12$, which simplifies to $4a = 12$.") == []
    )
    assert (
        broken_rewrites("Adding them, $3a + b + a - b = 12$, which simplifies to $2a = 12$.") != []
    )


def test_inequalities_with_one_side_kept():
    prev = "So $3(2k-1) + 5 > 20$."
    assert broken_rewrites("This simplifies to $6k + 2 > 20$.", prev) == []
    assert broken_rewrites("This simplifies to $6k - 1 > 20$.", prev) != []


def test_a_rewrite_of_a_part_is_not_judged():
    prev = "The fraction is $\\frac{a^2 + 2a}{a + 2}$."
    assert broken_rewrites("The numerator simplifies to $a(a+2)$.", prev) == []
    assert broken_rewrites("Simplifying the numerator, we get $a + 2$.", prev) == []


def test_an_intent_to_simplify_is_not_a_rewrite():
    prev = "So far we have $S = \\frac{10}{2}(3 + 17)$."
    assert broken_rewrites("Now let's simplify. First $x = 7$.", prev) == []


def test_substitutions_named_in_words_are_not_judged():
    prev = "Since $x^2 = x + 1$, we have $x^3 = x \\cdot x^2$."
    # "becomes" after substituting a known relation is not an identity: not a cue
    assert broken_rewrites("This becomes $x^3 = 2x + 1$.", prev) == []


def test_unreadable_or_unbounded_input_is_not_decided():
    assert broken_rewrites("which simplifies to $\\int_0^1 f$", "We have $\\int_0^1 2f$.") == []
    assert (
        broken_rewrites("Simplifying, we get $9^{9^{9^{9}}} + y$.", "So $y + 9^{9^{9^9}}$.") == []
    )


def test_substitutions_are_not_rewrites():
    prev = "We have $5k = 12j + 7$."
    # k = 3r + 2 was substituted: new variable, not a rewrite
    assert broken_rewrites("This gives us $15r + 10 = 12j + 7$.", prev) == []
    assert broken_rewrites("With $z = 3$ this gives $12$.", "We want $z^2 + z$.") == []


def test_anaphoric_cues():
    prev = "So we need $4 \\cdot 25x^2 \\cdot \\frac{1}{5x^2}$."
    assert broken_rewrites("Simplifying, we get $20$.", prev) == []
    assert broken_rewrites("Simplifying, we get $25$.", prev) != []
    # after "equals" a variable that disappears may have been given a value: not judged
    assert broken_rewrites("The area is $\\pi r^2$, which equals $25\\pi$.") == []
    assert broken_rewrites("That is equal to $25$.", prev) == []
    prev = "We get $3u + 8 = 5v + 2$."
    assert broken_rewrites("That gives us $3u = 5v - 6$.", prev) == []
    assert broken_rewrites("That gives us $3u = 5v ^ 6$.", prev) != []
