"""Symbolic step checks: tables of real cases, adversarial inputs, and the perturbation set."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from scoring.parse.equations import (
    Relation,
    check_against,
    check_relation,
    check_step,
    extract_relations,
)


@pytest.mark.parametrize(
    ("step", "verdict"),
    [
        # closed arithmetic, LaTeX and plain
        (r"$8(3)^3 = 8(27) = 216$", "true"),
        ("8(3)^3 = 8(27) = 216", "true"),
        (r"$x = \frac{15}{8} = 1.875$", "true"),
        (r"$\dfrac{15}{8} = 1\tfrac{7}{8}$", "true"),  # a mixed number is a sum, not a product
        (r"$\dfrac{15}{8} = 1\tfrac{5}{8}$", "false"),
        (r"3 \times 4 = 12", "true"),
        (r"12 \div 4 = 3", "true"),
        (r"2 \cdot 3 = 6", "true"),
        ("1,000 + 24 = 1,024", "true"),
        (r"$1{,}000 + 24 = 1{,}024$", "true"),
        (r"50\% of 80 = 40", "true"),
        (r"So $0.2 \times 80 = 16$, i.e. $20\% \cdot 80 = 16$.", "true"),
        (r"The total is $\$1.24 + \$0.58 = \$1.82$.", "true"),
        (r"$12 \text{ cm} \times 3 \text{ cm} = 36 \text{ cm}^2$", "true"),
        ("3 × 4 = 12元", "true"),
        (r"所以 \(x = 3 \times 4 = 12\)", "true"),
        (
            r"总的抽法数为$C_{10}^4 = \frac{10 \times 9 \times 8 \times 7}{4 \times 3 \times 2 \times 1} = 210$",
            "true",
        ),
        (r"$\sqrt{16} + \sqrt[3]{27} = 7$", "true"),
        (r"$\binom{5}{2} = 10$ and $5! = 120$", "true"),
        (r"We have $7*2!=14$ possibilities.", "true"),
        (r"$629_{10}=1*343+5*49+5*7+6$", "true"),
        (r"$|-3| + 2^{10} = 1027$", "true"),
        # rounding to the digits shown, approximations
        ("$1/3 = 0.33$", "true"),
        ("$1/3 = 0.333$", "true"),
        ("$2/3 = 0.67$", "true"),
        (r"$\pi \approx 3.14$", "true"),
        (r"$\sqrt{2} \approx 1.41$", "true"),
        (r"$\pi \approx 3.5$", "false"),
        (r"$(100 \div 256) \times 100 \approx 39.06\%$", "true"),
        # slips: random numbers and random operations
        (r"$3 \times 7 = 24$", "false"),
        ("1.82 - 1.24 = 0.48", "false"),
        (r"$\frac{-1 + 3}{2} = -1$", "false"),  # sign flip
        ("$5+1=4$", "false"),
        ("Similarly, the average is (5*7)/2=6.", "false"),
        (r"That means $x=\frac{24}{6}=4$ and $z=2^6=12$.", "false"),
        (r"$\frac{15}{8} = 2.875$", "false"),
        (r"It divides it 5 times, with a remainder of $79-5*7=6$.", "false"),
        # integer division when counting with a remainder (scoring.parse.division), not switched off
        (r"The fourth division is $4 \div 5 = 0$ with a remainder of $4$.", "true"),
        (r"The fourth division is $4 \div 5 = 1$ with a remainder of $4$.", "false"),
        # inequalities
        ("$1+3>2$", "true"),
        (r"$2 \le 1$", "false"),
        (r"$7 \neq 8$", "true"),
        # symbols, prose and hedged statements stay unknown
        ("2p = 0.58", "unknown"),
        ("$5p+e-3p-e=1.15-1.24$", "unknown"),
        ("Let's call the price of a pencil p and the price of a jumbo eraser e.", "unknown"),
        ("So the price of a pencil is 29 cents.", "unknown"),
        ("I can use the given information that 1200 lire = $\\$1.50$ to find the rate.", "unknown"),
        (r"The exchange rate is $1250\text{ dollars} = 1,000,000\text{ lire}$.", "unknown"),
        ("The ratio 3:4 = 6:8 holds.", "unknown"),
        (r"And $1=3+4$ is clearly not true.", "unknown"),
        ("Ok. So, we can let $x = 0.555555...$", "unknown"),
        (r"$1 + 2 + \cdots + 10 = 55$", "unknown"),
        (
            "根据定义 a&b = a + 2b + 10ab - 3，3&2 = 3 + 2(2) + 10(3)(2) - 3 = 64",
            "unknown",
        ),  # half-read
        ("", "unknown"),
    ],
)
def test_check_step(step: str, verdict: str) -> None:
    assert check_step(step).verdict == verdict, check_step(step).evidence


@pytest.mark.parametrize(
    ("step", "verdict"),
    [
        # pi and inverse functions typed as plain text are read: before, `pi` was p times i
        ("sin(pi/6) = 0.6", "false"),
        ("sin(pi/6) = 0.5", "true"),
        ("2pi * 3 = 6pi = 20", "false"),
        ("arctan(1) = pi/4", "true"),
        # ... unless the step names a quantity pi, as it may with \\pi or π
        ("pi = 7900", "unknown"),
        ("let pi be the profit, pi = 200", "unknown"),
        # a run glued to a word, or a space after a function name it cannot read, opens inside
        # that word's argument: before, `log(100) = 2` was read as `(100) = 2`, false
        ("log(100) = 2", "unknown"),
        ("log2(8) = 3", "unknown"),
        ("lg100 = 2", "unknown"),
        ("log 8 / log 2 = 3", "unknown"),
        ("AB1 = 001", "unknown"),
        # prose before a run is not glued to it
        ("The total is 3 + 4 = 8.", "false"),
        ("so 3+4=7", "true"),
    ],
)
def test_plain_text_functions_and_names_glued_to_numbers(step: str, verdict: str) -> None:
    assert check_step(step).verdict == verdict


def test_evidence_names_the_false_relation() -> None:
    check = check_step("Subtracting: 1.82 - 1.24 = 0.48.")
    assert check.verdict == "false"
    assert check.evidence == "1.82 - 1.24 = 0.48 is false (0.58)"


def test_correct_multi_step_solution_is_all_true() -> None:
    steps = [
        r"The rectangle has area $12 \times 7 = 84$ square units.",
        r"The triangle has area $\frac{1}{2} \cdot 6 \cdot 4 = 12$.",
        r"Together: $84 + 12 = 96$.",
        r"As a share of the $120$ available: $\frac{96}{120} = 0.8 = 80\%$.",
    ]
    assert [check_step(s).verdict for s in steps] == ["true"] * 4


@pytest.mark.parametrize(
    ("step", "expected"),
    [
        ("8(3)^3 = 8(27) = 216", [("8(3)^3", "=", "8(27)"), ("8(27)", "=", "216")]),
        ("$5p+e-3p-e=1.82-1.24$.", [("5p+e-3p-e", "=", "1.82-1.24")]),
        (r"$0 < x \le 4$", [("0", "<", "x"), ("x", "<=", "4")]),
        (r"$\pi \approx 3.14$", [(r"\pi", "approx", "3.14")]),
        (r"$a_3 = 4, a_2 = 2$", [("a_3", "=", "4"), ("a_2", "=", "2")]),
        (r"\[x \equiv 3 \pmod 7\]", []),
        ("no math here at all", []),
    ],
)
def test_extract_relations(step: str, expected: list[tuple[str, str, str]]) -> None:
    assert [(r.lhs, r.op, r.rhs) for r in extract_relations(step)] == expected


def test_relation_keeps_its_source() -> None:
    (rel,) = extract_relations(r"We have $3 \times 7 = 21$ apples.")
    assert rel.source == r"$3 \times 7 = 21$"


@pytest.mark.parametrize(
    ("lhs", "rhs", "op", "verdict"),
    [
        ("1/3", "0.33", "=", "true"),
        ("2/3", "0.66", "=", "true"),  # truncated
        ("0.58", "0.59", "=", "false"),  # exact value shown with a wrong digit
        (r"\sin(3\pi)", "0", "=", "true"),  # float noise
        ("x", "4", "=", "unknown"),
        ("1/0", "1", "=", "unknown"),
        (r"\sqrt{-4}", "2", "=", "unknown"),
    ],
)
def test_check_relation(lhs: str, rhs: str, op: str, verdict: str) -> None:
    assert check_relation(Relation(lhs, rhs, op, f"{lhs} {op} {rhs}")).verdict == verdict  # type: ignore[arg-type]


def _rels(*steps: str) -> list[Relation]:
    return [r for s in steps for r in extract_relations(s)]


@pytest.mark.parametrize(
    ("known", "new", "verdict"),
    [
        (["$x = 4$"], "$2x + 1 = 9$", "true"),
        (["$x = 4$"], "$2x + 1 = 10$", "false"),
        (["$p = 0.29$"], "$100p = 29$", "true"),
        (["$3p+e=1.24$ and $5p+e=1.82$"], "$5p+e-3p-e=1.15-1.24$", "false"),
        (["$3p+e=1.24$ and $5p+e=1.82$"], "$5p+e-3p-e=1.82-1.24$", "true"),
        (["$x = 2$", "$x = 3$"], "$2x = 6$", "unknown"),  # reused variable: ambiguous
        (["$x = 6$", "But we required that $x>7$."], "$x + 5 = 13$", "unknown"),  # backtracked
        (["$x = 4$"], "$x = 5$", "unknown"),  # redefinitions are not contradictions
        (["$y = 1$"], "$y(0) = 1$", "unknown"),  # function notation
        (["$x = 4$"], "$2y = 6$", "unknown"),
    ],
)
def test_check_against(known: list[str], new: str, verdict: str) -> None:
    (rel,) = extract_relations(new)
    assert check_against(_rels(*known), rel).verdict == verdict


ADVERSARIAL = [
    r"$9^{9^{9^{9}}} = 1$",
    "$" + r"\frac{" * 500 + "1" + "}{2}" * 500 + " = 1$",
    r"$(10^{6})! = 1$ and $1000000! = 2$",
    r"$2^{2^{2^{2^{2^{2}}}}} = 4$",
    "$" + "1+" * 5000 + "1 = 2$",
    "1 = " + "(" * 3000 + "1" + ")" * 3000,
    r"\(" * 3000 + "x = 1",
    "$" * 10_000,
    "word " * 2000,
    ("The value " + r"\sqrt{" * 40 + "2" + "}" * 40 + " = 3 ") * 40,
]


@pytest.mark.parametrize("step", ADVERSARIAL, ids=range(len(ADVERSARIAL)))
def test_adversarial_inputs_are_bounded_and_unknown(step: str) -> None:
    start = time.monotonic()
    check = check_step(step)
    assert time.monotonic() - start < 2.0
    assert check.verdict == "unknown"


def test_relation_budget_is_reported() -> None:
    """The bound counts relations, not seconds: the same step gets the same verdict under load."""
    step = " ".join(f"${i} + {i} = {2 * i}$" for i in range(200))
    check = check_step(step)
    assert check.verdict == "true" and len(check.relations) == 64
    assert "only the first 64 relations are checked" in check.evidence


def _perturbation_figures(path: Path) -> tuple[float, float]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    hits = total = alarms = originals = 0
    seen: set[tuple[str, ...]] = set()
    for row in rows:
        if row["error_type"] in ("random number", "random operation"):
            total += 1
            hits += check_step(row["hypothesis_steps"][row["tags"]]).verdict == "false"
        key = tuple(row["reference_steps"])
        if key not in seen:
            seen.add(key)
            for step in key:
                originals += 1
                alarms += check_step(step).verdict == "false"
    return hits / total, alarms / originals


def test_perturbation_set_detection_and_false_alarms(shared_data: Path) -> None:
    """Measured: 18/83 perturbed steps flagged (21.7%), 2/666 original steps (0.3%, both real
    slips in the references: `7(23) + 5 = 164`, `2+1 > 3`)."""
    path = shared_data / "perturbation_dev.jsonl"
    if not path.is_file():
        pytest.skip(f"{path} not found")
    detection, false_alarms = _perturbation_figures(path)
    assert detection >= 0.19
    assert false_alarms <= 0.01


def test_a_rejection_only_excuses_its_own_sentence_and_what_follows():
    from scoring.parse.equations import check_step as check

    assert check("And $9 = 3 + 4$ is clearly not true.").verdict == "unknown"
    assert check("We get $1 = 3 + 4$. That is not true.").verdict == "unknown"
    # the rejection is about an earlier candidate; the new arithmetic stands on its own
    assert check("So that's not it. Then 6 times 7 is 41.").verdict == "false"
    assert check("So that's not it. Then 6 times 7 is 42.").verdict == "true"


@pytest.mark.parametrize(
    ("step", "verdict"),
    [
        # an operation stated in words before the number: the number alone is not the side
        # (before, `half of 30 = 15` was read as `30 = 15`, false, and the step labelled wrong);
        # a share the prose reader knows is read whole
        ("Half of 30 = 15.", "true"),
        ("a third of 30 = 10", "true"),
        ("15 percent of 40 = 6", "true"),
        ("two thirds of 30 = 20", "unknown"),
        ("2/3 of 30 = 20", "unknown"),
        ("20% off 50 = 40", "unknown"),
        ("the square root of 16 = 4", "unknown"),
        ("the sum of 5 and 7 = 12", "unknown"),
        ("the difference between 9 and 4 = 5", "unknown"),
        # a percent read as one operation stays checked
        ("25% of 20 = 4", "false"),
        ("25% of 20 = 5", "true"),
        # "of" naming a quantity is not an operation: its relation is read
        ("a height of 16/2 = 8 feet", "true"),
        ("a value of 56 - 42 = 15", "false"),
        # "and" between two relations joins them, it does not make an operand
        ("x = 3 and 2 + 2 = 5", "false"),
    ],
)
def test_a_number_that_an_operation_in_words_takes_is_not_a_side(step: str, verdict: str) -> None:
    assert check_step(step).verdict == verdict


@pytest.mark.parametrize(
    ("step", "verdict"),
    [
        # a fraction after a division sign is the divisor whole, as the student means it
        # (before, `3/5 ÷ 2/3` was read as 3/5 ÷ 2 ÷ 3 = 0.1 and the right step found false)
        ("3/5 ÷ 2/3 = 3/5 × 3/2 = 9/10", "true"),
        ("4/5 ÷ 2/5 = 4/5 × 5/2 = 2", "true"),
        ("1 ÷ 1/2 = 2", "true"),
        ("3/5 \\div 2/3 = 9/10", "true"),
        ("1 ÷ 1/2 = 3", "false"),
        ("3/5 ÷ 2/3 = 2/5", "false"),
        # the order-of-operations reading still holds where it was meant
        ("12 ÷ 4/2 = 1.5", "true"),
    ],
)
def test_a_fraction_after_a_division_sign_is_one_divisor(step: str, verdict: str) -> None:
    assert check_step(step).verdict == verdict


@pytest.mark.parametrize(
    ("step", "verdict"),
    [
        # a root sign typed as a character is a root (before: no relation found)
        ("√50 = √(25 × 2) = 5√2", "true"),
        ("√49 = 8", "false"),
        ("2√3 × √3 = 6", "true"),
        ("√72 = 6√3", "false"),
        ("∛8 = 2", "true"),
        ("√2 ≈ 1.41", "true"),
    ],
)
def test_root_signs_are_read(step: str, verdict: str) -> None:
    assert check_step(step).verdict == verdict


@pytest.mark.parametrize(
    ("step", "verdict"),
    [
        # a degree sign typed as a character marks a number (before: no relation found)
        ("180° − 50° − 60° = 80°", "false"),
        ("angle A = 180° - 90° - 30° = 60°", "true"),
        ("sin 30° = 0.5", "true"),
    ],
)
def test_degree_signs_do_not_stop_the_check(step: str, verdict: str) -> None:
    assert check_step(step).verdict == verdict


@pytest.mark.parametrize(
    ("step", "verdict"),
    [
        # a whole number before a proper fraction is a mixed number (before: not read)
        ("2 1/2 + 1 3/4 = 4 1/4", "true"),
        ("2 1/2 + 1 3/4 = 3 4/6", "false"),
        ("4 × 2 1/2 = 10", "true"),
        ("1 1/2 × 2 = 3 1/2", "false"),
        ("$2\\frac{3}{4} = \\frac{11}{4}$", "true"),
        ("$3\\frac{1}{3} - 1\\frac{2}{3} = 2\\frac{1}{3}$", "false"),
        # typed as one character
        ("2½ × 2 = 5", "true"),
        ("¾ + ½ = 1½", "false"),
    ],
)
def test_mixed_numbers_are_read(step: str, verdict: str) -> None:
    assert check_step(step).verdict == verdict


@pytest.mark.parametrize(
    "step",
    [
        "2 5/3 + 1 = 4",  # an improper fraction after a number is not a mixed number
        "$x^2\\frac{1}{2} = 3$",  # a product after an index
        "¾ of 12 = 9",  # an operand of an operation in words, not a side
    ],
)
def test_what_is_not_a_mixed_number_is_not_read_as_one(step: str) -> None:
    assert check_step(step).verdict == "unknown"


@pytest.mark.parametrize(
    "step",
    [
        # a quantity in two units is not the digits of its numbers glued together
        "2小时30分+1小时=3小时30分",  # was read 230 + 1 = 330: false
        "3元5角+2元=5元5角",  # was 35 + 2 = 55: false
        "8时30分+1小时45分=10时15分",
        "2 h 30 min + 1 h = 3 h 30 min",
    ],
)
def test_a_quantity_in_two_units_is_not_read_as_one_number(step: str) -> None:
    assert check_step(step).verdict == "unknown"


def test_units_after_numbers_still_leave_the_arithmetic() -> None:
    assert check_step("12cm+3cm=15cm").verdict == "true"
    assert check_step("3.5元×4=15元").verdict == "false"
