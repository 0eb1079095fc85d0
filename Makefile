# The two commands a newcomer needs: `make run` and `make test`. Both bootstrap .venv on first use.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test test-datasets test-slow lint bench clean

# --system-site-packages lets a Raspberry Pi's apt picamera2 and lgpio be seen; elsewhere it is harmless
# because every pinned package is installed inside the venv and shadows the system copy.
$(STAMP): pyproject.toml requirements/dev.txt requirements/pi.txt
	test -x $(BIN)/python || $(PYTHON) -m venv --system-site-packages $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c requirements/dev.txt -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/pipkeeper run

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

test: $(STAMP) lint
	$(BIN)/python -m pytest -q

test-datasets: $(STAMP)
	$(BIN)/python -m pytest -q -m datasets

test-slow: $(STAMP)
	$(BIN)/python -m pytest -q -m slow

bench: $(STAMP)
	$(BIN)/pipkeeper bench-vision

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
