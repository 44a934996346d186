# Two commands on a fresh machine:  make demo   |   make test
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
DEMO_OUT ?= out/demo

.PHONY: demo test test-core install bench clean-demo

$(STAMP): setup.py requirements/lock.txt requirements/dev.txt requirements/build-constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	PIP_CONSTRAINT=requirements/build-constraints.txt $(VENV)/bin/pip install --quiet --disable-pip-version-check \
		-r requirements/lock.txt -r requirements/dev.txt
	# fairseq-fixed pulls torchaudio, whose .so does not load here; fairseq's text paths never import it
	$(VENV)/bin/pip uninstall --quiet --yes torchaudio
	$(VENV)/bin/pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $(STAMP)

install: $(STAMP)

PARANMT := $(PY) -m paranmt.pipelines.cli

demo: $(STAMP)
	rm -rf $(DEMO_OUT)
	$(PARANMT) build --config configs/demo.yaml --output $(DEMO_OUT)/shards
	$(PARANMT) stats --input $(DEMO_OUT)/shards --output $(DEMO_OUT)/stats
	$(PARANMT) report --input $(DEMO_OUT)/shards --output $(DEMO_OUT)/report
	$(PARANMT) filter --config paranmt-5m --tsv --input $(DEMO_OUT)/shards --output $(DEMO_OUT)/paranmt-5m
	$(PARANMT) filter --config simile --input $(DEMO_OUT)/shards --output $(DEMO_OUT)/simile
	$(PARANMT) export --format paranmt-txt --input $(DEMO_OUT)/shards --output $(DEMO_OUT)/export/para-nmt.txt
	$(PARANMT) export --format scpn --input $(DEMO_OUT)/shards --output $(DEMO_OUT)/export/scpn.tsv
	$(PARANMT) export --format hf --input $(DEMO_OUT)/paranmt-5m --output $(DEMO_OUT)/export/hf
	$(PARANMT) filter --config lexicon --input $(DEMO_OUT)/shards --output $(DEMO_OUT)/lexicon-data
	@if [ -f ../shared/data/word-sim/EN-SIMLEX-999.txt ]; then \
		$(PARANMT) lexicon --input $(DEMO_OUT)/lexicon-data --output $(DEMO_OUT)/lexicon; \
	else echo "lexicon skipped: its SimLex-999 evaluation file ../shared/data/word-sim/EN-SIMLEX-999.txt is absent"; fi
	$(PARANMT) paraphrase --input data/paraphrase-demo.txt --templates data/paraphrase-demo-templates.txt --all \
		--output $(DEMO_OUT)/paraphrases.tsv
	@echo; echo "SCPN paraphrases (shipped demo models; source | target template -> paraphrase):"
	@awk -F'\t' 'NR > 1 && $$7 != "" {printf "  %-40.40s | %-24s -> %s%s\n", $$2, $$4, $$7, ($$13 == "true" ? "" : "   [post-filter: " $$14 "]")}' \
		$(DEMO_OUT)/paraphrases.tsv
	@echo
	@echo "demo outputs (all under $(DEMO_OUT)/):"
	@echo "  shards/*.parquet       ParaNMT-style pairs: xsim, bt, bt_score, trigram_overlap, para_score, simile, bt_repetition, languages, parses"
	@echo "  shards/__paranmt__/    rejects/*.pq (rejected input with stage and reason; Parquet), metrics.json (the accounting)"
	@echo "  stats/                 corpus statistics report (Markdown, JSON, PNG plots)"
	@echo "  report/index.html      the corpus report: open it in a browser (accounting, rejects, distributions, samples per band, filter previews)"
	@echo "  paranmt-5m/            training corpus, the paper's recipe (top two para-score tenths, <= 30 tokens, no copies of the reference, no loops, English); __paranmt__/pairs.tsv"
	@echo "  simile/                SIMILE-style corpus (para >= 0.5, overlap <= 0.2)"
	@echo "  export/                para-nmt.txt (ref TAB bt TAB score), scpn.tsv, hf/ (Hugging Face parquet + card)"
	@echo "  lexicon/               paraphrase lexicon (cross-sentence and adjusted PMI) and its SimLex-999 Spearman"
	@echo "  paraphrases.tsv        SCPN paraphrases of data/paraphrase-demo.txt, three templates, re-parsed and post-filtered"
	@echo
	@$(PY) -c "from paranmt.models.nmt.model_dir import demo_model_notice as n; print('NOTE:', n('assets/nmt-cs-en'))"

# The suite on every core, at most 4 (pytest-xdist worker processes); `make test TEST_WORKERS=0` runs it in one
# process. --dist loadfile keeps each test file on one worker, so that a file's module fixtures are built once.
TEST_WORKERS ?= $(shell n=$$(nproc 2>/dev/null || echo 1); [ $$n -gt 4 ] && n=4; echo $$n)

test: $(STAMP)
	$(PY) -m pytest -q -n $(TEST_WORKERS) --dist loadfile tests

# The core install (`pip install .`: setup.py's install_requires, no extras, versions from the lock file) in a
# second venv, and the tests of what it must do: filter, stats, export; a missing extra named in one line.
CORE_VENV := .venv-core
CORE_STAMP := $(CORE_VENV)/.installed

$(CORE_STAMP): setup.py requirements/lock.txt requirements/dev.txt
	test -x $(CORE_VENV)/bin/python || $(PYTHON) -m venv $(CORE_VENV)
	$(CORE_VENV)/bin/pip install --quiet --disable-pip-version-check -c requirements/lock.txt -c requirements/dev.txt \
		. pytest
	touch $(CORE_STAMP)

# (pip builds the wheel in the tree: its build/ copy of the sources is removed, so no tool reads it as code)
test-core: $(CORE_STAMP)
	$(CORE_VENV)/bin/pip install --quiet --disable-pip-version-check --no-deps --force-reinstall .
	rm -rf build
	PARANMT_CORE_INSTALL=1 $(CORE_VENV)/bin/python -m pytest -q tests/pipelines/corpus_tools/test_core_install.py

bench: $(STAMP)
	$(PY) benchmarks/bench_read_write.py
	$(PY) benchmarks/bench_filter.py
