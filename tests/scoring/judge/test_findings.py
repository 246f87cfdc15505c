"""Findings and the evidence they make: every kind has a source and a polarity; the kind sets
the decision reads are consistent with one another."""

from scoring.judge.findings import (
    ANSWER_KINDS,
    FINDING_KINDS,
    MEMORY_KINDS,
    REDUNDANCY_KINDS,
    SOURCE,
    SUPPORT_KINDS,
    UNGRADED_KINDS,
    WEIGHED_KINDS,
    Evidence,
    Finding,
)


def test_every_kind_has_a_source_and_a_polarity():
    assert set(SOURCE) == set(FINDING_KINDS)
    assert {Finding(k, 0, "").polarity for k in FINDING_KINDS} == {"error", "support"}


def test_polarity_is_read_off_the_kind():
    assert Finding("calculation_true", 0, "").polarity == "support"
    assert Finding("memory_accepted", 0, "").polarity == "support"
    assert Finding("calculation_false", 0, "").polarity == "error"
    assert Finding("repeat", 0, "").polarity == "error"  # not support: the decision reads it apart


def test_the_kind_sets_are_subsets_of_the_kinds():
    kinds = set(FINDING_KINDS)
    for subset in (SUPPORT_KINDS, ANSWER_KINDS, MEMORY_KINDS, REDUNDANCY_KINDS, UNGRADED_KINDS):
        assert subset <= kinds
    assert set(WEIGHED_KINDS) == kinds - UNGRADED_KINDS
    assert len(set(FINDING_KINDS)) == len(FINDING_KINDS)
    assert {SOURCE[k] for k in MEMORY_KINDS} == {"memory"}
    assert {SOURCE[k] for k in ANSWER_KINDS} == {"answer"}


def test_evidence_at_a_step_keeps_the_order_of_the_findings():
    findings = (
        Finding("calculation_true", 1, "a"),
        Finding("repeat", 0, "b"),
        Finding("off_topic", 1, "c"),
    )
    evidence = Evidence(findings, ((), (0,)))
    assert [f.detail for f in evidence.at(1)] == ["a", "c"]
    assert [f.detail for f in evidence.at(0)] == ["b"]
    assert evidence.at(5) == [] and evidence.failed_checks == ()
