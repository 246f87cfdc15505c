import pytest

from scoring.judge.checks.latexlint import latex_problems


@pytest.mark.parametrize(
    "text",
    [
        r"$\frac{1}{2} + \sqrt{3}$",
        r"\(x = \dfrac{15}{8}\)",
        r"\[ \begin{aligned} x &= 1 \\ y &= 2 \end{aligned} \]",
        r"$\left( \frac12 \right)$",
        r"the set \{1, 2\} costs \$5",
        "plain prose without any math",
    ],
)
def test_well_formed(text):
    assert latex_problems(text) == []


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (r"$x = 1", "odd number of '$'"),
        (r"\(x = 1", r"unbalanced \( ... \)"),
        (r"\[x = 1", r"unbalanced \[ ... \]"),
        (r"$\frac{1}{2$", "never closed"),
        (r"$x}$", "closing brace"),
        (r"$\frac{1}$", r"\frac is missing an argument"),
        (r"$\frac{}$ and more", r"\frac is missing an argument"),
        (r"\begin{cases} x \end{aligned}", r"\end{aligned} does not close"),
        (r"\begin{cases} x", r"\begin{cases} is never closed"),
        (r"$\left( x$", r"\left without a matching \right"),
    ],
)
def test_malformed(text, problem):
    problems = latex_problems(text)
    assert any(problem in p for p in problems), problems
