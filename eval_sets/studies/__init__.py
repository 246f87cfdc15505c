"""The studies: one measurement per module, each registered by name (`eval_sets.study_cli`).

`stepgrade study list` names them; `stepgrade study NAME [options]` (or `python -m
eval_sets.studies.NAME [options]`) runs one. What each measures: docs/benchmarks.md.
"""
