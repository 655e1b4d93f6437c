# Every target creates .venv when missing and installs what it needs:
# on a fresh machine with python3 (>= 3.11) and make, `make run` and `make test` are one command each.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev
BENCH_STAMP := $(VENV)/.installed-bench
JOBS ?=

.PHONY: run test lint bench golden samples clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,eval,ray]'
	touch $(STAMP)

$(BENCH_STAMP): pyproject.toml $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,eval,ray,bench]'
	touch $(BENCH_STAMP)

## run: PDFs in samples/ -> out/*.md -> out/chunks.jsonl -> check report
run: $(STAMP)
	$(BIN)/chunkcli convert samples -o out
	$(BIN)/chunkcli split out -o out/chunks.jsonl
	$(BIN)/chunkcli check out

## test: the whole test suite
test: $(STAMP)
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check chunkcli tests bench
	$(BIN)/mypy chunkcli

bench: $(BENCH_STAMP)
	$(BIN)/python bench/convert_bench.py $(BENCH_DIR)
	$(BIN)/python bench/split_bench.py

## samples: regenerate the sample PDFs; golden: regenerate their expected outputs (review the diff!)
samples: $(STAMP)
	$(BIN)/python samples/make_samples.py

golden: $(STAMP)
	UPDATE_GOLDEN=1 $(BIN)/python -m pytest tests/test_samples.py tests/test_split_golden.py
	@echo '--- what changed in samples/ (review it before committing):'
	@git --no-pager diff --stat -- samples/ tests/fixtures/
	@git --no-pager diff -- samples/ tests/fixtures/ | head -n 400

clean:
	rm -rf out .pytest_cache .mypy_cache .ruff_cache
