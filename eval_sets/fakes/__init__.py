"""Test doubles: fake OpenAI-compatible servers for the tests and the benchmarks.

They are not part of the service: nothing in `server/`, `agent/` or `scoring/` imports them.
They ship in the wheel so that `stepgrade study service_bench`, `eval_sets.studies.soak` and
`eval_sets.studies.fallible_bench` run from an install as well as from a checkout:

- `openai_server`: a real HTTP server on 127.0.0.1 answering like a model (latency, faults,
  streaming), `python -m eval_sets.fakes.openai_server --port P`;
- `label_oracle`: a fake model answering StepMathBench items from their human labels, exactly
  or with seeded miss and false-alarm rates;
- `label_server`: the oracle behind `openai_server`,
  `python -m eval_sets.fakes.label_server --data PATH --port P`;
- `replay_oracle`: a fake model answering MR-MATH invalid items as a real model's published
  verdicts say (`make bench-replay`), `python -m eval_sets.fakes.replay_oracle --data PATH
  --verdicts PATH --port P`. A test double, here rather than under `tests/` because
  `eval_sets/` may not import `tests/`;
- `obeying_oracle`: a fake model that grades the red-team set honestly until it is shown text
  addressed to the grader, and then obeys it (docs/injection.md).
"""
