"""Benchmark sets, loaders, metrics and the runner (DESIGN.md section 6; see README.md here)."""
