"""Gathering the findings of every check on one solution, and what a check that fails leaves."""

from scoring.judge import JudgeInput, collect_findings
from scoring.judge.checks import CHECKS
from scoring.judge.findings import Finding
from scoring.judge.guard import CheckFailure, Guard
from scoring.verdict import AnswerVerdict

NO_REF = AnswerVerdict(None, ())


def test_a_check_that_raises_is_left_out_and_named(monkeypatch):
    def broken(inp):
        raise OverflowError("int too large to convert to float")

    monkeypatch.setitem(CHECKS, "arithmetic", broken)
    evidence = collect_findings(JudgeInput("", ["$3 - 8 = 5$", "$2 = 2$"], "calculation", NO_REF))
    assert evidence.failed_checks == ("judge.arithmetic",)
    assert not any(f.kind.startswith("calculation") for f in evidence.findings)
    assert len(evidence.depends_on) == 2


def test_findings_come_in_check_order_and_dependencies_per_step():
    def second(inp):
        return [Finding("repeat", 0, "second")]

    def first(inp):
        return [Finding("off_topic", 1, "first")]

    steps = ["Let $a = 3$.", "Then $b = a + 1 = 4$."]
    evidence = collect_findings(
        JudgeInput("", steps, "calculation", NO_REF), checks={"x": first, "y": second}
    )
    assert [f.detail for f in evidence.findings] == ["first", "second"]
    assert len(evidence.depends_on) == 2 and evidence.depends_on[0] == ()
    assert evidence.failed_checks == ()


def test_a_shared_guard_collects_the_failures_of_this_grade_only():
    def broken(inp):
        raise ValueError("unreadable")

    guard = Guard()
    guard.failures.append(CheckFailure("judge.earlier", "E"))
    evidence = collect_findings(
        JudgeInput("", ["$1 = 1$"], "calculation", NO_REF), checks={"broken": broken}, guard=guard
    )
    assert evidence.failed_checks == ("judge.broken",)
    assert [f.check for f in guard.failures] == ["judge.earlier", "judge.broken"]


def test_a_failing_dependency_reading_leaves_every_step_without_dependencies(monkeypatch):
    from scoring.judge import collect

    def broken(steps, problem):
        raise RecursionError("too deep")

    monkeypatch.setattr(collect, "dependencies", broken)
    evidence = collect_findings(JudgeInput("", ["a", "b", "c"], "calculation", NO_REF), checks={})
    assert evidence.depends_on == ((), (), ())
    assert evidence.failed_checks == ("judge.dependencies",)
