"""`paranmt paraphrase --rerank template|simile`: the whole beam is generated, and each request returns the
hypotheses the post-filter keeps first, then the ones in the asked template / closest to the source by SIMILE
(checked against the full beam of the same models written with `--rerank score --n-best BEAM`); `template` is
the default."""
import json
import math

import pytest

from paranmt.models.encoders import open_encoder
from paranmt.models.scoring.simile import SimileScorer
from paranmt.pipelines.cli import main

SENTENCES = ["A man is playing a guitar.", "A woman is slicing an onion.", "The kids are running in the park."]
BEAM = 3


def paraphrase(tiny_models, sentences_file, output, min_similarity, *arguments):
    assert main(["paraphrase", "--model", str(tiny_models), "--input", str(sentences_file), "--output", str(output),
                 "--templates", "top3", "--beam", str(BEAM), "--min-overlap", "0", "--min-similarity",
                 str(min_similarity), "--all", *arguments]) == 0
    return [json.loads(line) for line in output.read_text().splitlines()]


@pytest.mark.parametrize("rerank", ["template", "simile"])
def test_rerank_returns_the_best_of_the_beam(tiny_models, tmp_path, repo, rerank):
    sentences_file = tmp_path / "sentences.txt"
    sentences_file.write_text("\n".join(SENTENCES) + "\n")
    whole_beam = ["--rerank", "score", "--n-best", str(BEAM)]         # the generator's order
    loose = paraphrase(tiny_models, sentences_file, tmp_path / "loose.jsonl", -1, *whole_beam)
    # a similarity threshold under which some request's generator-best hypothesis is not kept (dropped by it, or by
    # another check) while a later one of its beam is: that later one's para_score must pass it, and rows not kept in
    # the loose run fail another check (overlap off, so a guard) whatever the threshold (requests with an empty
    # hypothesis, which has no para_score, left out)
    requests = [rows for rows in (loose[k:k + BEAM] for k in range(0, len(loose), BEAM))
                if all(r["para_score"] is not None for r in rows)]
    splits = []
    for rows in requests:
        later = max((r["para_score"] for r in rows[1:] if r["kept"]), default=None)
        if later is not None and not rows[0]["kept"]:
            splits.append(later - 0.01)
        elif later is not None and later > rows[0]["para_score"]:
            splits.append((rows[0]["para_score"] + later) / 2)
    assert splits
    beam = paraphrase(tiny_models, sentences_file, tmp_path / "beam.jsonl", splits[0], *whole_beam)
    chosen = paraphrase(tiny_models, sentences_file, tmp_path / "chosen.jsonl", splits[0],
                        *(["--rerank", rerank] if rerank != "template" else []))
    assert len(beam) == len(SENTENCES) * 3 * BEAM and len(chosen) == len(SENTENCES) * 3
    if rerank == "simile":
        scores = SimileScorer(open_encoder(str(repo / "assets" / "encoder-sp"))).score(
            [row["source"] for row in beam], [row["paraphrase"] for row in beam])
        second = [-math.inf if math.isnan(value) else float(value) for value in scores]
    else:
        second = [float(row["template_match"] is True) for row in beam]
    moved = 0
    for row in chosen:
        job = [(b, key) for b, key in zip(beam, second)
               if (b["source_id"], b["template"]) == (row["source_id"], row["template"])]
        assert len(job) == BEAM and row["rank"] == 0
        best = min(job, key=lambda item: (not item[0]["kept"], -item[1], -item[0]["score"], item[0]["rank"]))[0]
        assert (row["paraphrase"], row["kept"]) == (best["paraphrase"], best["kept"])
        moved += best["rank"] != 0
    assert moved                      # some requests get another hypothesis than the generator's best


def test_more_target_parses_pool_their_hypotheses(tiny_models, tmp_path):
    """--parses 2: each request decodes the parse generator's 2 best target parses; with --rerank score the
    n-best of the pooled hypotheses are returned, so the best score is at least that of --parses 1, whose target
    parse (the parse generator's best) is among the two."""
    sentences_file = tmp_path / "sentences.txt"
    sentences_file.write_text("\n".join(SENTENCES) + "\n")
    whole_beam = ["--rerank", "score", "--n-best", str(BEAM)]
    one = paraphrase(tiny_models, sentences_file, tmp_path / "one.jsonl", -1, *whole_beam)
    two = paraphrase(tiny_models, sentences_file, tmp_path / "two.jsonl", -1, *whole_beam, "--parses", "2")
    assert len(two) == len(one) == len(SENTENCES) * 3 * BEAM
    mixed = 0
    for start in range(0, len(one), BEAM):
        first, pooled = one[start:start + BEAM], two[start:start + BEAM]
        assert {(r["source_id"], r["template"]) for r in first + pooled} == {(first[0]["source_id"],
                                                                                 first[0]["template"])}
        assert [r["rank"] for r in pooled] == list(range(BEAM))
        assert [r["score"] for r in pooled] == sorted((r["score"] for r in pooled), reverse=True)
        assert pooled[0]["score"] >= first[0]["score"] - 1e-6
        assert len({r["target_parse"] for r in first}) == 1
        mixed += len({r["target_parse"] for r in pooled}) > 1
    assert mixed                    # some request's n-best come from both target parses
