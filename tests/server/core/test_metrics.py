"""The service's Prometheus metrics: one registry per app, and what a finished grade adds."""

from __future__ import annotations

from prometheus_client import generate_latest

from scoring.schema import GradeReport, Meta
from server.core.metrics import Metrics


def report(**meta) -> GradeReport:
    """A report as `record_report` reads it: only its meta matters here."""
    return GradeReport.model_construct(meta=Meta(mode="llm", elapsed_ms=250.0, **meta))


def value(metrics: Metrics, name: str, **labels) -> float:
    found = metrics.registry.get_sample_value(name, labels)
    return 0.0 if found is None else found


def test_two_apps_have_registries_of_their_own():
    first, second = Metrics(), Metrics()
    first.degraded.inc()
    assert value(first, "stepgrade_degraded_grades_total") == 1
    assert value(second, "stepgrade_degraded_grades_total") == 0


def test_a_report_counts_its_grade_latency_tokens_degradation_and_failed_checks():
    metrics = Metrics()
    metrics.record_report(
        report(
            degraded=True,
            llm_calls=3,
            prompt_tokens=100,
            completion_tokens=20,
            failed_checks=["answer", "units"],
        ),
        endpoint="grade",
    )
    metrics.record_report(report(), endpoint="batch")
    assert value(metrics, "stepgrade_grades_total", mode="llm", endpoint="grade") == 1
    assert value(metrics, "stepgrade_grades_total", mode="llm", endpoint="batch") == 1
    assert value(metrics, "stepgrade_degraded_grades_total") == 1
    assert value(metrics, "stepgrade_llm_calls_total") == 3
    assert value(metrics, "stepgrade_llm_tokens_total", kind="prompt") == 100
    assert value(metrics, "stepgrade_llm_tokens_total", kind="completion") == 20
    assert value(metrics, "stepgrade_failed_checks_total", check="units") == 1
    assert value(metrics, "stepgrade_grade_duration_seconds_count", mode="llm") == 2
    assert value(metrics, "stepgrade_grade_duration_seconds_sum", mode="llm") == 0.5


def test_the_exposition_names_every_family():
    text = generate_latest(Metrics().registry).decode()
    for family in (
        "stepgrade_http_requests",
        "stepgrade_http_request_duration_seconds",
        "stepgrade_http_in_flight",
        "stepgrade_grade_failures",
    ):
        assert f"# TYPE {family}" in text
