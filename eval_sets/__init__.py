"""Benchmark sets, loaders, metrics and the runner (docs/architecture.md section 6; see README.md here)."""
