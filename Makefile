# stepgrade: `make serve` and `make test` create .venv when missing and install first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DATA ?= ../shared/data
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: install serve test bench lint clean

install: $(STAMP)

# torch first: the local CPU wheel, not the registry's multi-GB CUDA build.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet torch==2.13.0
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

serve: $(STAMP)
	$(BIN)/stepgrade serve

test: $(STAMP)
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python -m eval_sets.latency
	$(BIN)/python -m eval_sets.aggregation_check $(DATA)/stepmathbench_dev.jsonl
	$(BIN)/python -m eval_sets.answer_agreement $(DATA)/answer_equivalence_cases.jsonl

lint: $(STAMP)
	$(BIN)/ruff check agent prompts scoring server eval_sets tests

clean:
	rm -rf $(VENV)
