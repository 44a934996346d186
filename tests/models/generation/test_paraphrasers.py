"""Paraphraser training and the model API (models/generation): every task on both architectures (tiny models
trained for a few updates on real parsed pairs), save / reload / generate, the training data rules (reversed
pairs, the template-differs filter, sentence-only instances), resume, the CLI (device and precision choice:
tests/models/test_device.py)."""
import json
import random

import pytest

from paranmt.models.generation.data import (GenerationDataError, Instance, ParsedPair, pair_instances, read_parsed_pairs,
                                            sentence_instances, top_templates)
from paranmt.models.generation.paraphraser import ParaphraserModelError, load_generator
from paranmt.models.generation.units import ParseUnits, balance_parse
from paranmt.models.parsing.trees import template_of_linearized, to_scpn
from paranmt.pipelines.cli import main

TASKS = ("scpn", "parse-generator", "plain")
ARCHS = ("scpn", "transformers")


@pytest.fixture(scope="module")
def pairs(paraphrase_pairs):
    return read_parsed_pairs([str(paraphrase_pairs)])


def inputs_of(task, pairs):
    chosen = pairs[:5]
    if task == "scpn":
        return [p.s1 for p in chosen], [p.p2 for p in chosen]
    if task == "parse-generator":
        return [p.p1 for p in chosen], [p.t2 for p in chosen]
    return [p.s1 for p in chosen], [None] * len(chosen)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("task", TASKS)
def test_every_task_trains_saves_reloads_and_generates_n_best(tiny_paraphraser, pairs, task, arch):
    directory = tiny_paraphraser(task, arch)
    descriptor = json.loads((directory / "paraphraser.json").read_text())
    assert (descriptor["task"], descriptor["arch"]) == (task, arch)
    assert (directory / "checkpoint" / "trainer_state.pt").is_file()
    generator = load_generator(directory, device="cpu")
    assert generator.task == task and generator.device == "cpu"
    assert generator.templates[0] == "(S(NP)(VP))" or generator.templates[0].startswith("(")
    assert len(generator.templates) == 20
    sources, conditions = inputs_of(task, pairs)
    results = generator.generate(sources, conditions, beam=3, n_best=2)
    assert len(results) == len(sources)
    for hypotheses in results:
        assert len(hypotheses) == 2
        scores = [score for _, score in hypotheses]
        assert scores == sorted(scores, reverse=True) and all(s <= 0 for s in scores)
        assert all(isinstance(text, str) for text, _ in hypotheses)
    # batched, deterministic on CPU, independent of the batch it is decoded in
    again = load_generator(directory, device="cpu").generate(sources[::-1], conditions[::-1], beam=3, n_best=2)
    assert again[::-1] == results
    alone = generator.generate(sources[:1], conditions[:1], beam=3, n_best=2, batch_size=1)
    assert [text for text, _ in alone[0]] == [text for text, _ in results[0]]
    if task == "parse-generator":
        for text, _ in results[0]:
            assert balance_parse(text) == text


def test_the_most_frequent_templates_of_the_training_corpus_are_stored(tiny_paraphraser, pairs):
    generator = load_generator(tiny_paraphraser("scpn", "scpn"), device="cpu")
    expected = top_templates([p for pair in pairs for p in (pair.p1, pair.p2)], 20)
    assert generator.template_counts == expected
    assert expected[0][1] >= expected[-1][1]


def test_scpn_instances_come_in_both_directions_and_only_for_pairs_whose_templates_differ(pairs):
    instances, counts = pair_instances("scpn", pairs, "template")
    differing = [p for p in pairs if p.t1 != p.t2]
    assert 0 < len(differing) < len(pairs)
    assert counts.skipped["same_template"] == len(pairs) - len(differing)
    assert len(instances) == 2 * len(differing)
    first = differing[0]
    assert Instance(first.s1, first.p2, first.s2) in instances
    assert Instance(first.s2, first.p1, first.s1) in instances
    by_parse, counts = pair_instances("scpn", pairs, "parse")
    assert len(by_parse) == 2 * sum(p.p1 != p.p2 for p in pairs) > len(instances)
    generator_instances, _ = pair_instances("parse-generator", pairs, "template")
    assert Instance(first.p1, first.t2, first.p2) in generator_instances
    assert all(template_of_linearized(i.condition) == i.condition for i in generator_instances)
    plain, _ = pair_instances("plain", pairs)
    assert plain[0] == Instance(pairs[0].s1, None, pairs[0].s2) and len(plain) == len(pairs)


def test_pairs_without_parses_or_with_an_empty_side_are_counted_not_used():
    pairs = [ParsedPair("A man sleeps.", "A man is sleeping.", "(S(NP(DT)(NN))(VP(VBZ))(.))", None),
             ParsedPair("", "Nothing.", None, None)]
    instances, counts = pair_instances("scpn", pairs)
    assert instances == [] and counts.skipped == {"no_parse": 1, "empty_side": 1, "same_template": 0}


def test_sentence_only_instances_shuffle_the_words_every_time_they_are_drawn():
    sentence = "the quick brown fox jumps over the lazy dog"
    instances, counts = sentence_instances("scpn", [sentence, sentence, "no parse here"],
                                           {sentence: "(S(NP)(VP))"})
    assert counts.instances == 1 and counts.skipped == {"no_parse": 1, "duplicate": 1}
    rng = random.Random(3)
    drawn = {instances[0].drawn(rng).source for _ in range(5)}
    assert len(drawn) > 1
    assert all(sorted(s.split()) == sorted(sentence.split()) for s in drawn)
    assert instances[0].drawn(rng).target == sentence and instances[0].drawn(rng).condition == "(S(NP)(VP))"
    with pytest.raises(GenerationDataError, match="needs pairs"):
        sentence_instances("parse-generator", [sentence], {})


def test_parse_units_and_balancing():
    units = ParseUnits.train(["(S(NP(PRP))(VP(VBD)(NP(NN)))(.))"])
    ids = units.encode("(S(NP(PRP))(VP(VBD)(NP(NN)))(.))")
    assert units.decode(ids) == "(S(NP(PRP))(VP(VBD)(NP(NN)))(.))"
    assert units.decode(units.encode("(S(XX))")) == "(S))"         # an unknown label is <unk>, not shown
    assert balance_parse("(S(NP)") == "(S(NP))"
    assert balance_parse(")(S(NP))(VP)") == "(S(NP))"


def test_resume_continues_from_the_checkpoint(tmp_path, paraphrase_pairs):
    from paranmt.models.generation.tiny import train_tiny_paraphraser

    full = train_tiny_paraphraser("plain", "scpn", tmp_path / "full", paraphrase_pairs, steps=8, checkpoint_every=4)
    train_tiny_paraphraser("plain", "scpn", tmp_path / "half", paraphrase_pairs, steps=4, checkpoint_every=4)
    resumed = train_tiny_paraphraser("plain", "scpn", tmp_path / "half", paraphrase_pairs, steps=8,
                                     checkpoint_every=4, resume=True)
    log = [json.loads(line) for line in (tmp_path / "half" / "metrics.jsonl").read_text().splitlines()]
    assert [r["step"] for r in log if r.get("done")] == [4, 8]
    full_state = full.module.state_dict()
    for name, value in resumed.module.state_dict().items():
        assert (value - full_state[name]).abs().max() < 1e-5, name


def test_not_a_paraphraser_directory(tmp_path):
    with pytest.raises(ParaphraserModelError, match="paraphraser.json"):
        load_generator(tmp_path)


def test_cli_trains_from_an_scpn_export_tsv_and_says_what_is_wrong(tmp_path, pairs, capsys):
    lines = ["source\ttarget_parse\ttarget_template\ttarget"]
    for pair in pairs[:60]:
        if pair.p2 and pair.p1 != pair.p2:
            lines.append(f"{pair.s1}\t{to_scpn(pair.p2)}\t{to_scpn(pair.t2)}\t{pair.s2}")
    tsv = tmp_path / "scpn.tsv"
    tsv.write_text("\n".join(lines) + "\n")
    out = tmp_path / "model"
    assert main(["train-paraphraser", "--input", str(tsv), "--output", str(out), "--task", "scpn",
                 "--vocab-size", "300", "--embed-dim", "16", "--hidden", "32", "--parse-hidden", "16",
                 "--max-steps", "3", "--batch-size", "8", "--device", "cpu"]) == 0
    data = json.loads((out / "train_data.json").read_text())
    assert data["data"]["pairs"]["instances"] == len(lines) - 1      # directed lines: no reversed pair added
    assert load_generator(out, device="cpu").generate([pairs[0].s1], [pairs[0].p2], beam=2)[0]
    assert main(["train-paraphraser", "--input", str(tmp_path / "missing.tsv"), "--output", str(tmp_path / "new"),
                 "--task", "plain"]) == 2
    assert "not found" in capsys.readouterr().err
    assert main(["train-paraphraser", "--input", str(tsv), "--output", str(out), "--task", "scpn",
                 "--hidden", "33"]) == 2
    assert "even" in capsys.readouterr().err


def test_cli_settings_from_config_file_flags_and_set(tmp_path, bitext, capsys):
    """ParaphraserTrainConfig defaults <- `--config FILE.yaml` <- flags <- `--set KEY=VALUE` (as train_config.json
    keeps them; `--no-copy` is the key copy); an unknown key is one line, exit 2."""
    text = tmp_path / "sentences.txt"
    text.write_text("\n".join((bitext / "multi30k_test_2016_flickr.eng").read_text().splitlines()[:12]) + "\n")
    config = tmp_path / "train.yaml"
    config.write_text("task: plain\nvocab_size: 400\nembed_dim: 16\nhidden: 32\nmax_steps: 4\nbatch_size: 8\n"
                      "device: cpu\n")
    out = tmp_path / "model"
    assert main(["train-paraphraser", "--sentences", str(text), "--output", str(out), "--config", str(config),
                 "--max-steps", "3", "--no-copy", "--set", "max_steps=1", "--set", "hidden=16"]) == 0
    written = json.loads((out / "train_config.json").read_text())
    assert (written["task"], written["embed_dim"], written["hidden"], written["max_steps"], written["copy"]) == (
        "plain", 16, 16, 1, False)
    capsys.readouterr()
    assert main(["train-paraphraser", "--sentences", str(text), "--output", str(tmp_path / "o"), "--set",
                 "hiden=16"]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and "(did you mean 'hidden'" in error


def test_cli_trains_on_single_sentences_parsed_once_with_the_shipped_parser(tmp_path, bitext, paraphrase_pairs):
    sentences = [s for s in (bitext / "multi30k_test_2016_flickr.eng").read_text().splitlines()[:12]]
    text = tmp_path / "sentences.txt"
    text.write_text("\n".join(sentences + sentences[:2]) + "\n")
    out = tmp_path / "model"
    flags = ["--vocab-size", "400", "--embed-dim", "16", "--hidden", "32", "--parse-hidden", "16", "--max-steps", "2",
             "--batch-size", "8", "--device", "cpu"]
    assert main(["train-paraphraser", "--sentences", str(text), "--input", str(paraphrase_pairs), "--output",
                 str(out), "--task", "scpn"] + flags) == 0
    cache = (out / "parses.tsv").read_text().splitlines()
    assert sorted(line.split("\t")[0] for line in cache) == sorted(sentences)     # each distinct sentence once
    assert all(line.split("\t")[1].startswith("(") for line in cache)
    record = json.loads((out / "train_data.json").read_text())
    assert record["parser"] == "assets/parser-en"                # as given, not this machine's absolute path
    data = record["data"]
    assert data["sentences"]["instances"] == 12 and data["sentences"]["skipped"]["duplicate"] == 2
    assert data["pairs"]["instances"] > 0
    mtime = (out / "parses.tsv").stat().st_mtime_ns
    assert main(["train-paraphraser", "--sentences", str(text), "--output", str(out), "--task", "plain",
                 "--overwrite"] + flags) == 0
    assert (out / "parses.tsv").stat().st_mtime_ns == mtime       # plain needs no parse; --overwrite keeps the cache
    generator = load_generator(out, device="cpu")
    assert generator.task == "plain" and len(generator.generate(sentences[:2], beam=2)) == 2


def test_demo_data_holds_out_pairs_and_their_sentences(shared_data):
    from paranmt.models.generation.corpora import pair_rows, split_corpora

    corpora = split_corpora(shared_data, held_out_per_mille=50, max_words=30, max_sentences=1000)
    train, held = corpora["pairs_train"], corpora["pairs_held_out"]
    assert {p.corpus for p in train} == {"sick", "mrpc", "sts"} and 0.02 < len(held) / len(train) < 0.1
    held_sentences = {s for p in held for s in (p.s1, p.s2)}
    assert not held_sentences & set(corpora["sentences_train"]) and len(corpora["sentences_train"]) == 1000
    assert not {(p.s1, p.s2) for p in held} & {(p.s1, p.s2) for p in train}
    sick_test = (shared_data / "sts" / "SICK" / "SICK_test_annotated.txt").read_text().splitlines()[1]
    assert sick_test.split("\t")[1] not in {s for p in train for s in (p.s1, p.s2)}
    row = pair_rows(held[:1], {held[0].s1: "(S(NP(PRP))(VP(VBD))(.))"})[0]
    assert (row["ref"], row["bt"], row["ref_template"], row["bt_parse"]) == (held[0].s1, held[0].s2,
                                                                            "(S(NP)(VP)(.))", None)


def tiny_t5(out, sentences):
    """A random T5 model with its sentencepiece tokenizer, in the published layout (spiece.model + config)."""
    import io

    import sentencepiece
    from transformers import T5Config, T5ForConditionalGeneration, T5Tokenizer

    writer = io.BytesIO()
    sentencepiece.SentencePieceTrainer.train(
        sentence_iterator=iter(sentences), model_writer=writer, vocab_size=300, model_type="unigram", pad_id=0,
        eos_id=1, unk_id=2, bos_id=-1, minloglevel=2, hard_vocab_limit=False)
    out.mkdir()
    (out / "spiece.model").write_bytes(writer.getvalue())
    tokenizer = T5Tokenizer(str(out / "spiece.model"), extra_ids=0, legacy=True)
    tokenizer.save_pretrained(str(out))
    config = T5Config(vocab_size=len(tokenizer), d_model=32, d_kv=8, d_ff=64, num_layers=1, num_heads=2,
                      decoder_start_token_id=0, pad_token_id=0, eos_token_id=1)
    T5ForConditionalGeneration(config).save_pretrained(str(out))
    return out


@pytest.mark.parametrize("family", ["marian", "t5"])
def test_transformers_fine_tunes_a_local_checkpoint(tmp_path, pairs, paraphrase_pairs, family):
    from transformers import AutoModelForSeq2SeqLM, AutoTokenizer

    from paranmt.models.nmt.hf_build import build_hf_model

    sentences = [s for p in pairs for s in (p.s1, p.s2)]
    checkpoint = tiny_t5(tmp_path / "t5", sentences) if family == "t5" else \
        build_hf_model("marian", str(tmp_path / "marian"), sentences, sentences, vocab_size=300, d_model=32,
                       layers=1, heads=2, ffn=64)
    out = tmp_path / "model"
    assert main(["train-paraphraser", "--input", str(paraphrase_pairs), "--output", str(out), "--task", "scpn",
                 "--arch", "transformers", "--hf-model", str(checkpoint), "--max-steps", "3", "--batch-size", "8",
                 "--lr", "0.001", "--device", "cpu", "--max-target-units", "40"]) == 0
    descriptor = json.loads((out / "paraphraser.json").read_text())
    assert descriptor["model"]["fine_tuned_from"] == str(checkpoint)
    tokenizer = AutoTokenizer.from_pretrained(str(out), use_fast=False)    # no tokenizer.json saved
    assert len(tokenizer.tokenize("a <sep> b")) == 3                          # the separator is one token
    assert AutoModelForSeq2SeqLM.from_pretrained(str(out)).config.model_type == family
    generator = load_generator(out, device="cpu")
    results = generator.generate([pairs[0].s1, pairs[1].s1], [pairs[0].p2, pairs[1].p2], beam=2, n_best=2)
    assert [len(r) for r in results] == [2, 2] and results[0][0][1] >= results[0][1][1]
    greedy = generator.generate([pairs[0].s1], [pairs[0].p2], beam=1)
    assert greedy[0][0][1] <= 0


def test_the_checkpoint_with_the_lowest_held_out_loss_is_kept_in_best(tmp_path, paraphrase_pairs):
    from paranmt.models.generation.data import top_templates
    from paranmt.models.generation.tiny import TINY_SIZES
    from paranmt.models.generation.train import ParaphraserTrainConfig, ParaphraserTrainer

    pairs = read_parsed_pairs([str(paraphrase_pairs)])
    instances, _ = pair_instances("plain", pairs, "none")
    config = ParaphraserTrainConfig(**TINY_SIZES["scpn"], task="plain", arch="scpn", batch_size=8, lr=3e-3,
                                    max_steps=12, checkpoint_every=3, log_every=3, device="cpu", threads=1)
    ParaphraserTrainer(config, tmp_path).fit(instances[8:], top_templates([]), dev=instances[:8])
    dev = [json.loads(line) for line in (tmp_path / "metrics.jsonl").read_text().splitlines()
           if "dev_loss" in line]
    best = min(dev, key=lambda record: record["dev_loss"])
    kept = json.loads((tmp_path / "best" / "paraphraser.json").read_text())["training"]
    assert (kept["steps"], kept["dev_loss"]) == (best["step"], best["dev_loss"])
    assert load_generator(tmp_path / "best").generate(["a man is playing"], [None], beam=2, n_best=1)


def test_attention_mask_works_in_half_precision():
    """fp16 autocast on a GPU gives half-precision scores: a fill of -1e9 overflowed there (found on an H200)."""
    import torch

    from paranmt.models.generation.scpn import masked_softmax

    scores = torch.tensor([[[1.0, 2.0, 3.0, 4.0]]])
    mask = torch.tensor([[[True, True, False, False]]])
    half = masked_softmax(scores.half(), mask)
    assert half.dtype == torch.float16 and half[0, 0, 2:].tolist() == [0.0, 0.0]
    assert torch.allclose(half.float(), masked_softmax(scores, mask), atol=1e-3)


def test_a_plain_model_can_be_trained_on_the_units_of_an_scpn_model(tmp_path, tiny_paraphraser, paraphrase_pairs,
                                                                     capsys):
    """--units-from DIR: the new model's units.model is DIR's, byte for byte (what fusion in decoding needs); a
    directory without units.model, or a parse generator, is one line and exit 2."""
    scpn = tiny_paraphraser("scpn", "scpn")
    common = ["train-paraphraser", "--input", str(paraphrase_pairs), "--task", "plain", "--max-steps", "2",
              "--embed-dim", "16", "--hidden", "16", "--batch-size", "8", "--device", "cpu", "--threads", "1"]
    assert main(common + ["--output", str(tmp_path / "plain"), "--units-from", str(scpn)]) == 0
    assert (tmp_path / "plain" / "units.model").read_bytes() == (scpn / "units.model").read_bytes()
    assert load_generator(tmp_path / "plain").generate(["a man is playing"], [None], beam=2)
    capsys.readouterr()
    assert main(common + ["--output", str(tmp_path / "bad"), "--units-from", str(tmp_path)]) == 2
    assert "has no units.model" in capsys.readouterr().err.strip().splitlines()[-1]
    assert main(common[:4] + ["parse-generator"] + common[5:] + ["--output", str(tmp_path / "pg"),
                                                                  "--units-from", str(scpn)]) == 2
    assert "units_from needs arch scpn and task scpn or plain" in capsys.readouterr().err


def test_an_scpn_trains_in_bf16_on_the_cpu_with_fp32_weights_and_resumes(tmp_path, paraphrase_pairs):
    """`fp16: bf16` (models/device.py MixedPrecision): bfloat16 autocast, the LSTMs in bf16 or fp32 as the CPU
    allows (models/recurrence.py cpu_autocast_lstm), the master weights fp32, no scaler state to save."""
    import math

    import torch

    from paranmt.models.generation.tiny import train_tiny_paraphraser

    train_tiny_paraphraser("scpn", "scpn", tmp_path, paraphrase_pairs, steps=2, checkpoint_every=1, log_every=1,
                           fp16="bf16")
    state = torch.load(tmp_path / "checkpoint" / "trainer_state.pt", weights_only=True)
    assert state["scaler"] == {} and state["config"]["fp16"] == "bf16"
    resumed = train_tiny_paraphraser("scpn", "scpn", tmp_path, paraphrase_pairs, steps=3, checkpoint_every=1,
                                     log_every=1, fp16="bf16", resume=True)
    losses = [json.loads(line)["loss"] for line in (tmp_path / "metrics.jsonl").read_text().splitlines()
              if '"loss"' in line]
    assert len(losses) == 3 and all(math.isfinite(loss) for loss in losses)
    assert {p.dtype for p in resumed.module.parameters()} == {torch.float32}
