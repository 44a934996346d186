"""`init_embeddings` from a saved encoder directory (and a text file keyed by sentencepiece pieces): tables start
as the source's rows of the same units, through the trainer and on its own."""
import json

import numpy as np
import pytest

from paranmt.models.encoders import create_encoder, load_encoder
from paranmt.models.encoders.word_vectors import WordVectorsError, initialize_embeddings
from paranmt.models.pairs import read_pairs
from paranmt.models.training.trainer import TrainConfig, Trainer
from paranmt.schemas.errors import ConfigError

TINY = dict(mode="bilingual", dim=8, batch_size=20, megabatch_size=2, anneal_every=0, log_every=1, vocab_size=500,
            sp_vocab_size=300)


@pytest.fixture(scope="module")
def pairs(bitext):
    return read_pairs([str(bitext / "newssyscomb2009")])[0][:80]


@pytest.fixture(scope="module")
def trained(tmp_path_factory, pairs):
    """kind -> directory of a tiny encoder of that kind trained for 3 steps (its table is no longer the random
    start of any seed)."""
    root = tmp_path_factory.mktemp("sources")
    out = {}
    for kind in ("sp", "word"):
        Trainer(TrainConfig(encoder=kind, epochs=1, max_steps=3, **TINY), root / kind).fit(pairs)
        out[kind] = root / kind
    return out


def table(directory, part=None):
    encoder = load_encoder(directory)
    return (encoder.parts[part] if part is not None else encoder).embedding.weight.detach().numpy()


def test_an_sp_encoder_starts_from_a_saved_one_with_its_sp_model_exactly(trained, pairs, tmp_path):
    source = trained["sp"]
    config = TrainConfig(encoder="sp", epochs=0, sp_model=str(source / "sp.model"), init_embeddings=str(source),
                         lambda_w=0.1, seed=9, **TINY)
    Trainer(config, tmp_path / "new").fit(pairs)
    coverage = json.loads((tmp_path / "new" / "init_embeddings.json").read_text())
    rows = len(table(source))
    assert coverage == {"file": str(source), "tables": 1, "found": rows, "vocabulary": rows, "units": ["sp"]}
    assert np.array_equal(table(tmp_path / "new"), table(source))
    assert np.array_equal(table(tmp_path / "new" / "initial"), table(source))      # lambda_w's anchor


def test_another_sp_model_copies_the_shared_pieces(trained, pairs, tmp_path):
    source = load_encoder(trained["sp"])
    encoder = create_encoder("sp", [s for pair in pairs for s in pair], dim=8, sp_vocab_size=200,
                             work_dir=tmp_path / "work")
    theirs = {piece: i for i, piece in enumerate(source.featurizer.tokens)}
    shared = [(i, theirs[p]) for i, p in enumerate(encoder.featurizer.tokens) if p in theirs]
    coverage = initialize_embeddings(encoder, trained["sp"])
    assert 0 < coverage.found == len(shared) < len(theirs)
    mine, source_table = encoder.embedding.weight.detach().numpy(), source.embedding.weight.detach().numpy()
    assert all(np.array_equal(mine[i], source_table[j]) for i, j in shared)


def test_a_word_encoder_starts_from_a_saved_word_encoder_and_a_sum_takes_the_units_the_source_has(trained, pairs,
                                                                                                   tmp_path):
    Trainer(TrainConfig(encoder="word", epochs=0, init_embeddings=str(trained["word"]), seed=9, **TINY),
            tmp_path / "word").fit(pairs)
    assert np.array_equal(table(tmp_path / "word"), table(trained["word"]))
    Trainer(TrainConfig(encoder="trigram+word", epochs=0, init_embeddings=str(trained["word"]), seed=9, **TINY),
            tmp_path / "sum").fit(pairs)
    coverage = json.loads((tmp_path / "sum" / "init_embeddings.json").read_text())
    assert (coverage["tables"], coverage["units"]) == (1, ["word"])
    assert np.array_equal(table(tmp_path / "sum", 1), table(trained["word"]))


def test_a_text_file_keyed_by_pieces_initializes_an_sp_table(trained, tmp_path):
    encoder = create_encoder("sp", sp_model=trained["sp"] / "sp.model", dim=2)
    piece = encoder.featurizer.tokens[5]
    (tmp_path / "pieces.txt").write_text(f"{piece} 1 2\nnot-a-piece 3 4\n")
    coverage = initialize_embeddings(encoder, tmp_path / "pieces.txt")
    assert (coverage.found, coverage.units) == (1, ["sp"])
    assert encoder.embedding.weight[5].tolist() == [1, 2]


def test_sources_that_do_not_fit_are_refused(trained, tmp_path):
    with pytest.raises(WordVectorsError, match="8-d sp embeddings .* 4-d; set dim to 8"):
        initialize_embeddings(create_encoder("sp", sp_model=trained["sp"] / "sp.model", dim=4), trained["sp"])
    with pytest.raises(WordVectorsError, match=r"no embeddings over the encoder's units \(trigram\); it has sp"):
        initialize_embeddings(create_encoder("trigram", ["a cat"], dim=8), trained["sp"])
    (tmp_path / "empty").mkdir()
    with pytest.raises(WordVectorsError, match="not an encoder directory"):
        initialize_embeddings(create_encoder("word", ["a cat"], dim=8), tmp_path / "empty")
    with pytest.raises(ConfigError, match="init_embeddings .* not found"):
        TrainConfig(init_embeddings=str(tmp_path / "missing")).validate()
