"""The service benchmark's bookkeeping and options. (The benchmark itself starts the service and
a fake LLM for minutes: `make bench-service`.)"""

from __future__ import annotations

import pytest

from eval_sets.studies import service_bench as study
from eval_sets.studies.service_bench import CPU_TARGET_MS, THROUGHPUT_TARGET, Load, Result, main


def test_loads_of_client_processes_add_up() -> None:
    total = Load(grades=4, degraded=1, client_rate=2.0, waits=[0.1], node_ms=[{"judge": 3.0}])
    total.merge(Load(grades=6, resent=1, client_rate=3.0, waits=[0.2], served_waits=[0.05]))
    assert (total.grades, total.degraded, total.resent, total.client_rate) == (10, 1, 1, 5.0)
    assert total.waits == [0.1, 0.2] and total.served_waits == [0.05]
    assert total.node_ms == [{"judge": 3.0}] and total.seconds == 0.0  # set by the caller


def result(rate: float, cpu_ms: float) -> Result:
    return Result(
        latency=2.0, rate=rate, ideal=16.0, cpu_ms=cpu_ms, degraded=0, burst_rate=10, burst_cpu_ms=9
    )


def test_the_verdict_names_each_target() -> None:
    met = study._verdicts(result(THROUGHPUT_TARGET * 16.0, CPU_TARGET_MS))
    assert "steady 95% of the ideal 16.0" in met and "UNDER" not in met and "OVER" not in met
    missed = study._verdicts(result(8.0, CPU_TARGET_MS + 1))
    assert "steady 50% of the ideal 16.0" in missed
    assert "UNDER TARGET" in missed and "OVER TARGET" in missed


@pytest.mark.parametrize(
    "argv",
    [
        ["--latency", "0"],
        ["--clients", "0"],
        ["--requests", "0"],
        ["--rounds", "-2"],
        ["--workers", "0"],
        ["--client-processes", "0"],
        ["--fake-processes", "0"],
        ["--offline-clients", "0"],
    ],
)
def test_options_that_measure_nothing_or_divide_by_zero_exit_2(capsys, argv) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2 and "must be" in capsys.readouterr().err
