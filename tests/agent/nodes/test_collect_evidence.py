"""`collect_evidence`: every offline check once per grade; what they found, and a check that
raised reported in the update rather than raised."""

from __future__ import annotations

from agent.nodes.collect_evidence import collect_evidence
from scoring.judge.checks import CHECKS
from tests.agent.nodes.conftest import call, slip, state_before


def test_the_slip_is_found_by_the_checks(offline):
    update = call(collect_evidence, state_before(collect_evidence, slip(), offline), offline)
    assert update["check_failures"] == []
    first_step = {f.kind for f in update["evidence"].at(0)}
    assert "calculation_false" in first_step  # 47 + 58 is not 95
    assert len(update["evidence"].depends_on) == 3


def test_a_check_that_raises_is_left_out_and_named(offline, monkeypatch):
    def boom(*args, **kwargs):
        raise ZeroDivisionError("a check broke")

    monkeypatch.setitem(CHECKS, "arithmetic", boom)
    update = call(collect_evidence, state_before(collect_evidence, slip(), offline), offline)
    assert [f.check for f in update["check_failures"]] == ["judge.arithmetic"]
    assert "calculation_false" not in {f.kind for f in update["evidence"].at(0)}
