"""`paranmt stats` end to end from the CLI: report files, numbers against direct computation, plots are PNGs."""
import json
from collections import Counter

import numpy as np
import pyarrow.parquet as pq
import pytest

from paranmt.models.filters.text_keys import sample_hash
from paranmt.models.stats.corpus_stats import SAMPLE_SEED, score_bin
from paranmt.pipelines.cli import main
from paranmt.schemas.records import table_to_pairs

LOCAL = ["--runner=DirectRunner", "--direct_running_mode=in_memory"]


@pytest.fixture(scope="module")
def stats_dir(corpus_shards, tmp_path_factory, shared_data):
    output = tmp_path_factory.mktemp("stats")
    reference = shared_data / "bitext" / "cs-en" / "newstest2017.eng"
    assert main(["stats", "--input", str(corpus_shards), "--output", str(output),
                 "--idf-reference", str(reference), *LOCAL]) == 0
    return output


def test_report_files_and_plots(stats_dir):
    assert {p.name for p in stats_dir.iterdir()} == {"stats.md", "stats.json", "score_histograms.png",
                                                      "para_vs_overlap.png", "templates.png", "signals.png"}
    for png in stats_dir.glob("*.png"):
        data = png.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000, png.name
    markdown = (stats_dir / "stats.md").read_text()
    assert "| Corpus | Avg. Length | Avg. IDF |" in markdown and "newstest2017.eng (3005 sentences)" in markdown
    assert markdown.count("## Score bins:") == 6  # five corpora + all


def test_numbers_match_a_direct_computation(stats_dir, corpus_shards):
    rows = [r for path in sorted(corpus_shards.glob("*.parquet")) for r in table_to_pairs(pq.read_table(path))]
    report = json.loads((stats_dir / "stats.json").read_text())
    assert set(report["corpora"]) == {"captions", "forum", "news", "sick", "sowreap", "all"}
    news = [r for r in rows if r["corpus"] == "news"]
    table = report["corpora"]["news"]["table1"]
    assert table["rows"] == table["sample_rows"] == len(news)
    assert table["ref_length"]["mean"] == pytest.approx(np.mean([r["ref_len"] for r in news]))
    assert table["para_score"]["mean"] == pytest.approx(np.mean([r["para_score"] for r in news]), rel=1e-6)
    assert 2.0 < table["ref_idf"]["mean"] < 12.0 and table["vocab_entropy"] > 5.0
    bins = report["corpora"]["all"]["score_bins"]
    expected = Counter(score_bin(r["para_score"]) for r in rows)
    assert [b["rows"] for b in bins] == [expected.get(i, 0) for i in range(len(bins))]
    high = [r["trigram_overlap"] for r in rows if r["para_score"] > 0.8]
    assert bins[-1]["overlap_mean"] == pytest.approx(np.mean(high), rel=1e-5)
    templates = Counter(t for r in rows for t in (r["ref_template"], r["bt_template"]) if t)
    top = report["corpora"]["all"]["templates_top"]
    assert top[0] == {"template": templates.most_common(1)[0][0], "count": templates.most_common(1)[0][1]}
    assert len(top) == min(20, len(templates))
    assert sum(map(sum, report["corpora"]["all"]["para_overlap_histogram"])) == len(rows)


def test_bad_idf_reference_is_a_configuration_error(corpus_shards, tmp_path, capsys):
    assert main(["stats", "--input", str(corpus_shards), "--output", str(tmp_path / "s"),
                 "--idf-reference", str(tmp_path / "missing.txt"), *LOCAL]) == 2
    assert "cannot read --idf-reference" in capsys.readouterr().err


def test_small_sample_is_the_smallest_hashes_per_corpus(corpus_shards, tmp_path):
    assert main(["stats", "--input", str(corpus_shards), "--output", str(tmp_path), "--sample-size", "50",
                 *LOCAL]) == 0
    report = json.loads((tmp_path / "stats.json").read_text())
    rows = [r for path in sorted(corpus_shards.glob("*.parquet")) for r in table_to_pairs(pq.read_table(path))]
    for corpus in ("captions", "sick", "sowreap"):
        members = [r for r in rows if r["corpus"] == corpus]
        sample = sorted(members, key=lambda r: sample_hash(r["id"], SAMPLE_SEED))[:50]
        table = report["corpora"][corpus]["table1"]
        assert table["sample_rows"] == len(sample) and table["rows"] == len(members)
        assert table["ref_length"]["mean"] == pytest.approx(np.mean([r["ref_len"] for r in sample]))


def test_pair_signals_get_histograms_and_a_language_table(corpus_rows, write_fixture_shards, tmp_path, repo):
    """Rows scored by the real SignalsStage (shipped encoder, py3langid): every non-null signal value lands in its
    histogram, the language table names the labels, and signals.png is drawn (v1-style null columns: no plot)."""
    from paranmt.models.scoring.signals import SignalsStage

    rows = SignalsStage(str(repo / "assets" / "encoder-sp")).process_batch(corpus_rows[:400])
    write_fixture_shards(rows, tmp_path / "shards")
    assert main(["stats", "--input", str(tmp_path / "shards"), "--output", str(tmp_path / "stats"), *LOCAL]) == 0
    report = json.loads((tmp_path / "stats" / "stats.json").read_text())
    everything = report["corpora"].get("all") or next(iter(report["corpora"].values()))
    for column in ("simile", "bt_repetition", "unigram_f1", "kendall_tau"):
        assert sum(everything["signal_histograms"][column]) == sum(r[column] is not None for r in rows), column
    assert everything["languages"]["ref_lang"]["en"] == sum(r["ref_lang"] == "en" for r in rows)
    assert "| ref_lang | en " in (tmp_path / "stats" / "stats.md").read_text()
    assert (tmp_path / "stats" / "signals.png").read_bytes()[:4] == b"\x89PNG"
