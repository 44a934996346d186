# Two commands on a fresh machine:  make demo   |   make test
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
DEMO_OUT ?= out/demo

.PHONY: demo test install bench clean-demo

$(STAMP): setup.py requirements/lock.txt requirements/dev.txt requirements/build-constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	PIP_CONSTRAINT=requirements/build-constraints.txt $(VENV)/bin/pip install --quiet --disable-pip-version-check \
		-r requirements/lock.txt -r requirements/dev.txt
	# fairseq-fixed pulls torchaudio, whose .so does not load here; fairseq's text paths never import it
	$(VENV)/bin/pip uninstall --quiet --yes torchaudio
	$(VENV)/bin/pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	rm -rf $(DEMO_OUT)
	$(PY) -m paranmt.pipelines.cli build --config configs/demo.yaml --output $(DEMO_OUT)/shards
	@echo
	@echo "demo outputs:"
	@echo "  shards:   $(DEMO_OUT)/shards/*.parquet   (rejects in $(DEMO_OUT)/shards/rejects/)"
	@echo "  accounting: $(DEMO_OUT)/shards/metrics.json   manifest: $(DEMO_OUT)/shards/_manifest.json"

test: $(STAMP)
	$(PY) -m pytest -q tests

bench: $(STAMP)
	$(PY) benchmarks/bench_read_write.py
