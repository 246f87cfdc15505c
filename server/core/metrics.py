"""Prometheus metrics on a registry per app (tests build many apps; no global collisions)."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

from scoring.schema import GradeReport

_LATENCY_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60)


class Metrics:
    """HTTP traffic, grades, LLM calls and tokens, degraded grades, contained check failures."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.requests = Counter(
            "stepgrade_http_requests",
            "HTTP requests answered.",
            ["method", "route", "status"],
            registry=r,
        )
        self.latency = Histogram(
            "stepgrade_http_request_duration_seconds",
            "Time to the end of the response.",
            ["method", "route"],
            buckets=_LATENCY_BUCKETS,
            registry=r,
        )
        self.in_flight = Gauge("stepgrade_http_in_flight", "Requests being answered.", registry=r)
        self.grades = Counter(
            "stepgrade_grades", "Grades produced.", ["mode", "endpoint"], registry=r
        )
        self.grade_latency = Histogram(
            "stepgrade_grade_duration_seconds",
            "Grading time of one item.",
            ["mode"],
            buckets=_LATENCY_BUCKETS,
            registry=r,
        )
        self.degraded = Counter(
            "stepgrade_degraded_grades",
            "Grades that needed the LLM and fell back to offline.",
            registry=r,
        )
        self.llm_calls = Counter(
            "stepgrade_llm_calls", "LLM round trips made while grading.", registry=r
        )
        self.tokens = Counter("stepgrade_llm_tokens", "LLM tokens.", ["kind"], registry=r)
        self.failures = Counter(
            "stepgrade_grade_failures", "Items that got no report.", ["code"], registry=r
        )
        self.failed_checks = Counter(
            "stepgrade_failed_checks",
            "Checks that raised and were left out of a grade (the grade went on without them).",
            ["check"],
            registry=r,
        )

    def record_report(self, report: GradeReport, endpoint: str) -> None:
        """Count a finished grade and observe its latency, degradation and failed checks."""
        meta = report.meta
        self.grades.labels(mode=meta.mode, endpoint=endpoint).inc()
        self.grade_latency.labels(mode=meta.mode).observe(meta.elapsed_ms / 1000.0)
        if meta.degraded:
            self.degraded.inc()
        self.llm_calls.inc(meta.llm_calls)
        self.tokens.labels(kind="prompt").inc(meta.prompt_tokens)
        self.tokens.labels(kind="completion").inc(meta.completion_tokens)
        for check in meta.failed_checks:
            self.failed_checks.labels(check=check).inc()
