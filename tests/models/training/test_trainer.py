"""Loss, negative mining, mega-batch schedule and the trainer (real cs-en bitext)."""
import json
import math

import numpy as np
import pytest
import torch

from paranmt.models.curves import read_records, run_curves
from paranmt.models.encoders import load_encoder
from paranmt.models.evaluation.sts import sts_dev
from paranmt.models.pairs import read_pairs
from paranmt.models.training.loss import MarginLoss
from paranmt.models.training.negatives import forbidden_mask, mine_megabatch, select_negatives
from paranmt.models.loop import LoopState, epoch_order
from paranmt.models.training.trainer import EncoderTask, TrainConfig, Trainer, megabatch_size_at
from paranmt.schemas.errors import ConfigError


def test_margin_loss_two_sided_hinge():
    e = torch.eye(3)
    g1, g2 = e[[0]], e[[0]]                       # cos(g1, g2) = 1
    n1, n2 = e[[0]], e[[1]]                       # cos(g1, n1) = 1 -> 0.4; cos(g2, n2) = 0 -> 0
    loss = MarginLoss(torch.nn.Identity(), 0.4)
    assert loss.hinge(g1, g2, n1, n2).item() == pytest.approx(0.4)
    assert loss.hinge(g1, g2, n1, n2, torch.tensor([False]), torch.tensor([True])).item() == 0.0
    g2 = e[[1]]                                   # cos(g1, g2) = 0: both terms 0.4 + cos(anchor, negative)
    assert loss.hinge(g1, g2, e[[2]], e[[1]]).item() == pytest.approx(0.4 + 1.4)


def test_select_negatives_on_a_6x6_similarity():
    anchors = np.eye(6)
    pool = np.eye(6) + 0.5 * np.roll(np.eye(6), 1, axis=1)   # anchor i: pool i most similar, then pool i-1
    forbidden = np.eye(6, dtype=bool)                        # own pair excluded
    chosen, valid = select_negatives(anchors, pool, forbidden, "max", np.random.default_rng(0))
    assert list(chosen) == [5, 0, 1, 2, 3, 4] and valid.all()
    forbidden[2] = True
    rng = np.random.default_rng(0)
    for strategy in ("rand", "mix"):
        for _ in range(20):
            chosen, valid = select_negatives(anchors, pool, forbidden, strategy, rng)
            assert not valid[2] and all(not forbidden[i, j] for i, j in enumerate(chosen) if valid[i])


def test_duplicates_are_never_negatives_and_bilingual_uses_the_other_side():
    text1 = ["a cat", "a dog", "a cat", "the sun"]
    text2 = ["kočka", "pes", "kočka", "slunce"]
    g = np.array([[1.0, 0], [0.9, 0.1], [1.0, 0], [0, 1.0]])
    rng = np.random.default_rng(0)
    side1, index1, valid1, side2, index2, valid2 = mine_megabatch(g, g.copy(), text1, text2, True, "max", rng)
    assert (side1 == 2).all() and (side2 == 1).all()
    assert list(index1[[0, 2]]) == [1, 1], "pair 2 duplicates pair 0: the next most similar is pair 1"
    side1, index1, *_ = mine_megabatch(g, g.copy(), text1, text2, False, "max", rng)
    picked = [(text1 if s == 1 else text2)[i] for s, i in zip(side1, index1)]
    assert picked[0] not in ("a cat", "kočka") and picked[2] not in ("a cat", "kočka")


def test_forbidden_mask_is_own_pair_or_any_text_of_it():
    """forbidden[i, j] = pool_pair[j] == anchor_pair[i] or pool_text[j] in anchor_texts[i] (texts repeat here)."""
    rng = np.random.default_rng(0)
    anchor_pair, anchor_texts = np.arange(50), rng.integers(0, 30, (50, 2))
    pool_pair, pool_text = np.concatenate([anchor_pair, anchor_pair]), rng.integers(0, 30, 100)
    expected = [[pool_pair[j] == anchor_pair[i] or pool_text[j] in anchor_texts[i] for j in range(100)]
                for i in range(50)]
    forbidden = forbidden_mask(anchor_pair, anchor_texts, pool_pair, pool_text)
    assert forbidden.tolist() == expected and 0 < forbidden.mean() < 0.5


def test_another_translation_of_the_anchors_reference_is_never_its_negative(shared_data, repo):
    """Real wmt-bt rows (WMT22 de-en, several systems' outputs of each reference) embedded by the shipped SP encoder:
    by default no anchor's negative comes from a pair sharing its reference (sibling); with sibling_negatives the
    hardest negative is often such a translation (benchmarks/megabatch_negatives.py: 43% at M = 40)."""
    import csv
    import gzip

    from paranmt.models.encoders import load_encoder
    with gzip.open(shared_data / "wmt-bt" / "wmt22.de-en.tsv.gz", "rt", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
                if int(r["id"].split(".")[2]) < 60 and r["ref"] != r["bt"]]      # segments 0-59, every system
    pairs = sorted({(r["ref"], r["bt"]) for r in rows})
    refs, bts = [p[0] for p in pairs], [p[1] for p in pairs]
    assert len(set(refs)) < len(refs) / 2, "the sample holds several translations per reference"
    encoder = load_encoder(repo / "assets" / "encoder-sp")
    g1, g2 = encoder.encode(refs), encoder.encode(bts)
    sibling_share = {}
    for siblings in (False, True):
        side1, index1, valid1, side2, index2, valid2 = mine_megabatch(
            g1, g2, refs, bts, False, "max", np.random.default_rng(0), siblings=siblings)
        assert valid1.all() and valid2.all()
        siblings_chosen = [refs[i] == refs[j] for i, j in enumerate(index2)]      # j: the negative's pair row
        sibling_share[siblings] = np.mean(siblings_chosen)
        picked = [(refs if s == 1 else bts)[j] for s, j in zip(side2, index2)]
        assert all(p not in (refs[i], bts[i]) for i, p in enumerate(picked))
    assert sibling_share[False] == 0 and sibling_share[True] > 0.5, (len(pairs), sibling_share)


def test_megabatch_annealing_schedule():
    assert [megabatch_size_at(s, 3, 2) for s in range(8)] == [1, 1, 2, 2, 3, 3, 3, 3]
    assert megabatch_size_at(0, 40, 0) == 40


def _megabatches(config, pairs, groups, tmp_path, position=0):
    """The mega-batches of epoch 1 as EncoderTask cuts them (the loop advancing position and step), from
    `position` on (at step 0 there)."""
    task = EncoderTask(config, tmp_path, pairs, groups)
    task.rng = np.random.default_rng(0)
    state, out = LoopState(epoch=1, position=position), []
    for advance, (m, chunk) in task.batches(state):
        assert len(chunk) == advance <= m * config.batch_size
        out.append(chunk)
        state.position += advance
        state.step += math.ceil(advance / config.batch_size)
    return out, task.steps_per_epoch()


def test_per_pair_batches_hold_one_input_each_and_mixed_batches_keep_the_epoch_order(bitext, tmp_path):
    """`batch_languages`: mixed (the default) cuts mega-batches from epoch_order as before; per-pair keeps each
    mega-batch within one input's pairs (fixed seed, the same cut each time and from a mid-epoch position), every
    pair once per epoch, the inputs interleaved over the epoch; the CLI's inputs give the groups (read_pairs)."""
    paths = [str(bitext / name) for name in ("newstest2013", "newstest2014", "newstest2015")]
    read, counts = read_pairs(paths)
    assert sum(counts.kept_per_input) == len(read) and len(counts.kept_per_input) == 3
    ends, group_of = np.cumsum(counts.kept_per_input), {}    # the first 900 / 500 / 250 distinct pairs of each input
    for group, (start, end, n) in enumerate(zip([0, *ends[:2]], ends, (900, 500, 250))):
        fresh = [p for p in dict.fromkeys(read[start:end]) if p not in group_of][:n]
        group_of.update((p, group) for p in fresh)
    pairs, groups = list(group_of), list(group_of.values())
    base = dict(encoder="word", mode="bilingual", dim=8, batch_size=20, megabatch_size=4, anneal_every=3, seed=3)

    mixed, steps = _megabatches(TrainConfig(**base), pairs, groups, tmp_path)
    assert [p for chunk in mixed for p in chunk] == [pairs[i] for i in epoch_order(3, 1, len(pairs))]
    assert [len(c) for c in mixed[:5]] == [20, 20, 20, 40, 40] and steps == math.ceil(1650 / 20)
    assert any(len({group_of[p] for p in chunk}) > 1 for chunk in mixed)

    per_pair, steps = _megabatches(TrainConfig(**base, batch_languages="per-pair"), pairs, groups, tmp_path)
    assert all(len({group_of[p] for p in chunk}) == 1 for chunk in per_pair)
    assert sorted(p for chunk in per_pair for p in chunk) == sorted(pairs)
    assert steps == 45 + 25 + 13 == sum(math.ceil(len(c) / 20) for c in per_pair)
    sequence = [group_of[chunk[0]] for chunk in per_pair]
    assert len(set(sequence)) == 3 and sequence != sorted(sequence)
    again, _ = _megabatches(TrainConfig(**base, batch_languages="per-pair"), pairs, groups, tmp_path)
    assert again == per_pair
    position = sum(len(c) for c in per_pair[:7])
    resumed, _ = _megabatches(TrainConfig(**base, batch_languages="per-pair"), pairs, groups, tmp_path, position)
    assert [p for c in resumed for p in c] == [p for c in per_pair[7:] for p in c]
    assert all(len({group_of[p] for p in chunk}) == 1 for chunk in resumed)
    with pytest.raises(ConfigError, match="batch_languages"):
        TrainConfig(batch_languages="by-language").validate()


@pytest.fixture(scope="module")
def bitext_pairs(bitext):
    return read_pairs([str(bitext / "newstest2013")])[0][:1500]


def _retrieval_accuracy(encoder, pairs):
    a = encoder.encode([p[0] for p in pairs])
    b = encoder.encode([p[1] for p in pairs])
    a /= np.linalg.norm(a, axis=1, keepdims=True)
    b /= np.linalg.norm(b, axis=1, keepdims=True)
    return float(np.mean((a @ b.T).argmax(1) == np.arange(len(pairs))))


def test_bilingual_training_learns_translation_retrieval(bitext_pairs, tmp_path):
    """A bilingual trigram model trained 2 epochs on 1,500 news pairs finds the right translation among 300 of its
    training pairs far more often than its random initialization does; the loss goes down; files are written."""
    config = TrainConfig(encoder="trigram", mode="bilingual", dim=64, epochs=2, batch_size=50, megabatch_size=4,
                         anneal_every=5, log_every=10, vocab_size=20_000)
    trainer = Trainer(config, tmp_path / "out")
    torch.manual_seed(1)
    sample = bitext_pairs[:300]
    random_encoder = load_encoder_after_zero_epochs(bitext_pairs, tmp_path)
    trained = trainer.fit(bitext_pairs)
    assert _retrieval_accuracy(trained, sample) > _retrieval_accuracy(random_encoder, sample) + 0.2
    records = [json.loads(line) for line in (tmp_path / "out" / "metrics.jsonl").read_text().splitlines()]
    losses = [r["loss"] for r in records if "loss" in r]
    assert losses[-1] < losses[0] and records[-1]["done"] and records[-1]["step"] == 60
    assert (tmp_path / "out" / "config.json").is_file() and (tmp_path / "out" / "checkpoint").is_dir()


def load_encoder_after_zero_epochs(pairs, tmp_path):
    config = TrainConfig(encoder="trigram", mode="bilingual", dim=64, epochs=0, vocab_size=20_000)
    Trainer(config, tmp_path / "random").fit(pairs)
    return load_encoder(tmp_path / "random")


def test_resume_continues_exactly(bitext_pairs, tmp_path):
    pairs = bitext_pairs[:600]
    base = dict(encoder="word", mode="monolingual", dim=16, epochs=2, batch_size=50, megabatch_size=3,
                anneal_every=2, negatives="mix", dropout=0.1, word_dropout=0.1, scramble=0.3, vocab_size=5000)
    whole = Trainer(TrainConfig(**base), tmp_path / "whole").fit(pairs)
    Trainer(TrainConfig(**base, max_steps=9), tmp_path / "parts").fit(pairs)
    assert json.loads((tmp_path / "parts" / "metrics.jsonl").read_text().splitlines()[-1])["step"] < 24
    resumed = Trainer(TrainConfig(**base), tmp_path / "parts").fit(pairs, resume=True)
    assert torch.equal(whole.embedding.weight, resumed.embedding.weight)


def test_dev_sts_at_checkpoints_keeps_the_best_encoder_and_patience_stops(bitext_pairs, shared_data, tmp_path):
    """`dev_at: checkpoint` scores STS2017 at each checkpoint; `best/` is the encoder of the highest score (its
    dev.json names the evaluation, and it scores what dev.json says); patience 2 stops two evaluations after it
    (fixed seed: 100-pair WORD training first moves away from its random start, so the first evaluation is best)."""
    config = TrainConfig(encoder="word", mode="bilingual", dim=16, epochs=10, batch_size=50, megabatch_size=2,
                         anneal_every=0, vocab_size=5000, checkpoint_every=3, log_every=0, device="cpu",
                         dev_sts_dir=str(shared_data / "sts"), dev_at="checkpoint", patience=2)
    Trainer(config, tmp_path / "out").fit(bitext_pairs[:600])
    records = [json.loads(line) for line in (tmp_path / "out" / "metrics.jsonl").read_text().splitlines()]
    dev = [(r["step"], r["dev"]["STS2017/track5.en-en"]) for r in records if "dev" in r]
    best = max(range(len(dev)), key=lambda i: (dev[i][1], -i))
    assert len(dev) == best + 3 and dev[-1][0] < 120, "stopped two evaluations after the best, before 10 epochs"
    assert records[-1]["done"] and records[-1]["stopped"] == "patience" and records[-1]["step"] == dev[-1][0]
    kept = json.loads((tmp_path / "out" / "best" / "dev.json").read_text())
    assert (kept["step"], kept["dev"]["STS2017/track5.en-en"]) == dev[best]
    rescored = sts_dev(load_encoder(tmp_path / "out" / "best").encode, str(shared_data / "sts"), config.dev_datasets)
    assert rescored["dev"] == kept["dev"]
    drawn = run_curves(read_records(tmp_path / "out" / "metrics.jsonl"), EncoderTask.shown, ("dev", "max"))
    assert drawn.best[1:] == (dev[best][0], pytest.approx(dev[best][1])) and drawn.stopped == "patience"
    assert (tmp_path / "out" / "metrics.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", "its curves beside it"
    with pytest.raises(ConfigError, match="patience 2 needs a dev evaluation"):
        Trainer(TrainConfig(encoder="word", dim=8, patience=2, device="cpu"), tmp_path / "nodev").fit(bitext_pairs[:20])
    with pytest.raises(ConfigError, match="dev_at"):
        TrainConfig(dev_at="step").validate()


def test_device_selection(bitext_pairs, tmp_path, monkeypatch):
    """The trainer takes the project's one device choice (models/device.py): cuda without CUDA is a
    ConfigError (one line from the CLI), never a silent CPU run."""
    import paranmt.models.device as device

    monkeypatch.setattr(device, "cuda_available", lambda: False)
    with pytest.raises(ConfigError, match="no CUDA device"):
        Trainer(TrainConfig(encoder="word", dim=8, max_steps=1, device="cuda"), tmp_path).fit(bitext_pairs[:20])
    with pytest.raises(ConfigError, match="device"):
        TrainConfig(device="tpu").validate()


def test_config_validation():
    with pytest.raises(ConfigError, match="unknown encoder"):
        TrainConfig(encoder="bert").validate()
    with pytest.raises(ConfigError, match="negatives"):
        TrainConfig(negatives="hard").validate()
    assert TrainConfig(encoder="lstm").scramble_probability == 0.3
    assert TrainConfig(encoder="sp").scramble_probability == 0.0
