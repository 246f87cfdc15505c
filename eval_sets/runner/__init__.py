"""The benchmark runner: grade a data set into results.jsonl, then summarise and draw it."""
