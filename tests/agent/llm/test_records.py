"""What LLM operations leave behind: a record per operation, the grade's totals, and an error
that marks its record degraded."""

from __future__ import annotations

import time

from agent.llm.records import LlmError, LlmRun, OperationRecord, elapsed_ms, fail


def test_a_run_totals_its_operations_requests_and_tokens():
    run = LlmRun()
    assert not run.degraded
    assert run.meta_fields() == {
        "llm_calls": 0,
        "llm_operations": [],
        "prompt_tokens": 0,
        "completion_tokens": 0,
    }
    run.operations += [
        OperationRecord("segmentation", requests=1, prompt_tokens=100, completion_tokens=20),
        OperationRecord("step_judgement", requests=2, prompt_tokens=300, completion_tokens=50),
    ]
    fields = run.meta_fields()
    assert (fields["llm_calls"], fields["prompt_tokens"], fields["completion_tokens"]) == (
        3,
        400,
        70,
    )
    assert [op.operation for op in fields["llm_operations"]] == ["segmentation", "step_judgement"]


def test_a_failure_marks_its_record_and_the_run_degraded():
    run = LlmRun()
    record = OperationRecord("difficulty")
    run.operations.append(record)
    err = fail(record, "format", "x" * 600)
    assert isinstance(err, LlmError) and err.reason == "format" and err.record is record
    assert record.degraded == "format" and len(record.detail) == 500
    assert str(err).startswith("difficulty: format: xxx")
    assert run.degraded and run.meta_fields()["llm_operations"][0].degraded == "format"


def test_elapsed_milliseconds_are_rounded():
    start = time.perf_counter() - 0.25
    ms = elapsed_ms(start)
    assert 250 <= ms < 1000 and ms == round(ms, 3)
