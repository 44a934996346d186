"""SignalsStage (models/scoring/signals.py) on real CzEng rows (tests/fixtures/czeng) after the score stage."""
import gzip
import math
import pickle

import pytest

from paranmt.models.scoring.diversity import kendall_tau, unigram_f1
from paranmt.models.scoring.repetition import repetition
from paranmt.models.scoring.signals import COLUMNS, SignalsStage
from paranmt.models.scoring.stage import ScoreStage
from paranmt.models.stage import run_stage
from paranmt.schemas.build_config import ScoreConfig
from paranmt.schemas.records import PAIR_SCHEMA, empty_row


@pytest.fixture(scope="module")
def rows(repo):
    """CzEng 1.6 fixture pairs with back-translations of the kinds the stage must tell apart."""
    with gzip.open(repo / "tests" / "fixtures" / "czeng" / "czeng16-block001.gz", "rt", encoding="utf-8") as f:
        pairs = [line.rstrip("\n").split("\t")[2:4] for line in f][:8]
    out = [empty_row(f"czeng16:block001:{i}", "czeng16", cs, ref) for i, (cs, ref) in enumerate(pairs)]
    out[0]["bt"] = out[0]["ref"]                                           # a perfect copy
    out[1]["bt"] = "We looked everywhere, but we could not find it anywhere."  # a paraphrase of row 1
    out[2]["bt"] = "The the the atmosphere atmosphere of the Ministry of the Ministry of the Ministry"  # degenerate
    out[3]["bt"] = out[3]["cs"]                                            # untranslated: Czech copied through
    out[4]["bt"] = "…"                                                     # no words, no letters
    return out                                                             # rows 5-7: bt null (not translated)


@pytest.fixture(scope="module")
def signalled(rows, repo):
    encoder = str(repo / "assets" / "encoder-sp")
    scored, _ = run_stage(ScoreStage(encoder, ScoreConfig()), rows, 4)
    out, counts = run_stage(SignalsStage(encoder), scored, 3)
    assert counts["batches"] == 3 and "batch_splits" not in counts
    return scored, out


def test_every_column_is_a_schema_v2_column(signalled):
    names = set(PAIR_SCHEMA.names)
    assert set(COLUMNS) <= names
    _, out = signalled
    assert all(set(COLUMNS) <= set(row) for row in out)


def test_languages_of_each_side(rows, signalled):
    _, out = signalled
    assert [row["cs_lang"] for row in out].count("cs") >= 7 and [row["ref_lang"] for row in out].count("en") >= 7
    assert out[0]["bt_lang"] == "en" and out[3]["bt_lang"] == "cs", "the untranslated bt is caught"
    assert out[4]["bt_lang"] == "zxx" and out[4]["bt_lang_conf"] == 1.0
    assert all(row["bt_lang"] is None and row["bt_lang_conf"] is None for row in out[5:])


def test_pair_signals(rows, signalled):
    scored, out = signalled
    assert out[0]["simile"] == pytest.approx(scored[0]["para_score"], abs=1e-6) and out[0]["unigram_f1"] == 1.0
    assert out[0]["kendall_tau"] == 1.0 and out[0]["bt_repetition"] == 0.0
    assert out[1]["simile"] < scored[1]["para_score"], "different lengths are penalized"
    assert out[1]["unigram_f1"] == pytest.approx(unigram_f1(rows[1]["ref"], rows[1]["bt"]))
    assert out[1]["kendall_tau"] == pytest.approx(kendall_tau(rows[1]["ref"], rows[1]["bt"]))
    assert out[2]["bt_repetition"] == pytest.approx(repetition(rows[2]["bt"])) and out[2]["bt_repetition"] > 0.5
    assert out[4]["unigram_f1"] is None and out[4]["kendall_tau"] is None
    for row in out[5:]:
        assert all(row[c] is None for c in ("simile", "bt_repetition", "unigram_f1", "kendall_tau"))
    for row, before in zip(out, scored):
        assert (row["simile"] is None) == (before["para_score"] is None or row["bt"] is None)
        assert all(row[k] == before[k] for k in before if k not in COLUMNS), "the stage only fills its columns"
    assert all(not isinstance(row["simile"], float) or not math.isnan(row["simile"]) for row in out)


def test_stage_is_cheap_to_pickle_before_setup(repo):
    stage = pickle.loads(pickle.dumps(SignalsStage(str(repo / "assets" / "encoder-sp"))))
    assert stage.encoder is None and stage.identifier.identifier is None


def test_the_per_process_sentence_caches_stay_within_their_bound():
    """The tokens, words and trigrams of a sentence are cached per process, at most SENTENCE_CACHE_ENTRIES each:
    more distinct sentences than that (a worker's share of a big build) do not grow them."""
    from paranmt.models.scoring.diversity import unigram_f1, words
    from paranmt.models.scoring.overlap import sentence_trigrams, trigram_overlap
    from paranmt.models.text.tokenize import SENTENCE_CACHE_ENTRIES, lowercase_tokens

    for k in range(SENTENCE_CACHE_ENTRIES + 500):
        ref, bt = f"The report {k} was read twice.", f"The report {k} was read again."
        assert trigram_overlap(ref, bt) == 3 / 5 and unigram_f1(ref, bt) == 2 * 5 / 12
    for cache in (lowercase_tokens, words, sentence_trigrams):
        info = cache.cache_info()
        assert info.maxsize == SENTENCE_CACHE_ENTRIES and info.currsize == SENTENCE_CACHE_ENTRIES, cache
