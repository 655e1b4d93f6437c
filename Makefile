# Every target creates .venv when missing and installs what it needs:
# on a fresh machine with python3 (>= 3.11) and make, `make run` and `make test` are one command each.
#   make run      what running chunkcli needs (pip install -e .), then the samples job
#   make test     + the dev extras, the eval and Ray extras (their tests run too), lint, the tests
#   make install  links chunkcli onto PATH ($(PREFIX)/bin/chunkcli)
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PREFIX ?= $(HOME)/.local
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev
EVAL_STAMP := $(VENV)/.installed-eval
RAY_STAMP := $(VENV)/.installed-ray
BENCH_STAMP := $(VENV)/.installed-bench

.PHONY: run test lint install eval-deps ray-deps dev-deps bench golden samples clean fuzz ocr-deps

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(DEV_STAMP): pyproject.toml $(RUN_STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

$(EVAL_STAMP): pyproject.toml $(RUN_STAMP)
	$(BIN)/python -m pip install --quiet -e '.[eval]'
	touch $@

$(RAY_STAMP): pyproject.toml $(RUN_STAMP)
	$(BIN)/python -m pip install --quiet -e '.[ray]'
	touch $@

$(BENCH_STAMP): pyproject.toml $(DEV_STAMP)
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	touch $@

## dev-deps / eval-deps / ray-deps: the optional extras (tests; `chunkcli eval`; --engine ray)
dev-deps: $(DEV_STAMP)
eval-deps: $(EVAL_STAMP)
ray-deps: $(RAY_STAMP)

# OCR's default engine: Tesseract 5 and its language data, Debian packages. Installed with
# apt-get when missing and permitted (root, or sudo without a password); otherwise the command to
# run is printed and the target goes on (convert then marks scanned pages as it did before OCR).
OCR_DEBS := tesseract-ocr tesseract-ocr-osd tesseract-ocr-jpn tesseract-ocr-jpn-vert tesseract-ocr-kor tesseract-ocr-eng
OCR_LANGS := osd jpn jpn_vert kor eng

## ocr-deps: install Tesseract and its osd/jpn/jpn_vert/kor/eng data when missing (never fails)
ocr-deps:
	@langs="$$(tesseract --list-langs 2>/dev/null)"; missing=""; \
	for lang in $(OCR_LANGS); do printf '%s\n' "$$langs" | grep -qx "$$lang" || missing="$$missing $$lang"; done; \
	[ -z "$$missing" ] && exit 0; \
	if [ "$$(id -u)" = 0 ]; then sudo=""; elif sudo -n true 2>/dev/null; then sudo="sudo -n"; else sudo=no; fi; \
	if command -v apt-get >/dev/null 2>&1 && [ "$$sudo" != no ]; then \
	  echo "OCR: installing Tesseract (missing:$$missing): apt-get install $(OCR_DEBS)"; \
	  { $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq \
	    --no-install-recommends $(OCR_DEBS) >/dev/null; } \
	  || echo "OCR: apt-get failed; scanned pages stay without text until Tesseract is installed"; \
	else \
	  echo "OCR: Tesseract 5 with$$missing is missing; scanned pages stay without text. Install:"; \
	  echo "  Debian/Ubuntu: sudo apt-get install $(OCR_DEBS)"; \
	  echo "  macOS: brew install tesseract tesseract-lang; Fedora: sudo dnf install tesseract \
	tesseract-langpack-jpn tesseract-langpack-jpn_vert tesseract-langpack-kor"; \
	fi

## run: PDFs in samples/ -> out/*.md -> out/chunks.jsonl -> check report
run: ocr-deps $(RUN_STAMP)
	$(BIN)/chunkcli convert samples -o out
	$(BIN)/chunkcli split out -o out/chunks.jsonl
	$(BIN)/chunkcli check out

## test: lint (ruff, format, mypy --strict), then the whole test suite (eval and Ray included)
test: ocr-deps $(DEV_STAMP) $(EVAL_STAMP) $(RAY_STAMP) lint
	$(BIN)/python -m pytest

## lint: what CI checks before the tests
lint: $(DEV_STAMP)
	$(BIN)/ruff check chunkcli tests bench samples
	$(BIN)/ruff format --check chunkcli tests bench samples
	$(BIN)/mypy --strict chunkcli

## install: put chunkcli on PATH: a link $(PREFIX)/bin/chunkcli -> this checkout's .venv
install: $(RUN_STAMP)
	mkdir -p $(PREFIX)/bin
	ln -sf $(abspath $(BIN))/chunkcli $(PREFIX)/bin/chunkcli
	@echo "installed $(PREFIX)/bin/chunkcli -> $(abspath $(BIN))/chunkcli"
	@case ":$$PATH:" in *":$(PREFIX)/bin:"*) ;; *) echo "note: $(PREFIX)/bin is not on your PATH";; esac

bench: $(BENCH_STAMP)
	$(BIN)/python bench/convert_bench.py $(BENCH_DIR)
	$(BIN)/python bench/split_bench.py

## fuzz: the reliability campaign (>= 500 PDF mutants through convert/split/check, then the
## pathological Markdown speed table, then the issue-30 fault scenarios); slow: run it alone, niced
fuzz: $(DEV_STAMP)
	nice -n 10 $(BIN)/python bench/fuzz/run.py --mutants 500 --markdown
	nice -n 10 $(BIN)/python bench/fuzz/faults.py

## samples: regenerate the sample PDFs; golden: regenerate their expected outputs (review the diff!)
samples: $(DEV_STAMP)
	$(BIN)/python samples/make_samples.py

golden: $(DEV_STAMP)
	UPDATE_GOLDEN=1 $(BIN)/python -m pytest tests/test_samples.py tests/test_split_golden.py
	@echo '--- what changed in samples/ (review it before committing):'
	@git --no-pager diff --stat -- samples/ tests/fixtures/
	@git --no-pager diff -- samples/ tests/fixtures/ | head -n 400

clean:
	rm -rf out .pytest_cache .mypy_cache .ruff_cache
