"""Decoding guards of the paraphrasers (models/generation): characters the vocabulary lacks survive (byte fallback
for new vocabularies, base letters and the source's spelling for old ones), beam search that never repeats an
n-gram, and reranking the beam by template match or SIMILE."""
import pytest
import torch

from paranmt.models.generation.data import read_parsed_pairs
from paranmt.models.generation.paraphraser import is_mangled, load_generator, restore_source_words
from paranmt.models.generation.scpn import block_repeats
from paranmt.models.generation.units import PAD, UNK, SentencePieceUnits, base_letters
from paranmt.schemas.errors import ConfigError

SENTENCE = "Novotná achieved 5878 points."


@pytest.fixture(scope="module")
def pairs(paraphrase_pairs):
    return read_parsed_pairs([str(paraphrase_pairs)])


def test_a_new_vocabulary_keeps_a_character_its_training_text_lacks(pairs):
    texts = [p.s1 for p in pairs] + [p.s2 for p in pairs]
    assert not any("á" in text for text in texts)
    units = SentencePieceUnits.train(texts, 400)
    ids = units.encode(SENTENCE)
    assert units.byte_fallback and UNK not in ids
    assert units.decode(ids) == SENTENCE
    stray = units.encode("Novotn") + [units.processor.piece_to_id("<0xC3>")]    # half of á's two bytes
    assert units.decode(stray) == "Novotn"
    with pytest.raises(ConfigError, match="vocab_size 100 is below"):
        SentencePieceUnits.train(texts, 100)


def test_an_old_vocabulary_encodes_base_letters_and_the_source_spelling_comes_back(repo):
    units = SentencePieceUnits.load(repo / "tests" / "fixtures" / "units-before-byte-fallback")   # no byte fallback
    assert not units.byte_fallback and units.processor.piece_to_id("á") == UNK
    ids = units.encode(SENTENCE)
    assert UNK not in ids and units.decode(ids) == "Novotna achieved 5878 points."
    assert restore_source_words(SENTENCE, units.decode(ids)) == SENTENCE
    assert units.known("Łódź") == "Łodz"                            # Ł has no base letter: it stays unknown
    assert base_letters("á") == "a" and base_letters("ł") == "" and base_letters("a") == ""


def test_restoring_source_words():
    source = "Novotná met Dvořák in Zürich, naïve as ever."
    assert restore_source_words(source, "Novotn met Dvok in Zrich") == "Novotná met Dvořák in Zürich"
    assert restore_source_words(source, "Novotna was naive.") == "Novotná was naïve."
    assert restore_source_words(source, "Novotny met Dvorak") == "Novotny met Dvořák"       # y is not á
    assert restore_source_words("Łódź is big", "d is big") == "d is big"                     # too short
    assert restore_source_words("Ağa and Aga met", "Aga met") == "Aga met"                   # a source word itself
    assert restore_source_words("Müller and Mūller", "Muller came") == "Muller came"         # two candidates
    assert restore_source_words("plain ASCII", "plan ASCI") == "plan ASCI"
    assert is_mangled("Novotn", "Novotná") and not is_mangled("Novotná", "Novotná")
    assert not is_mangled("Nvotná", "Novotná")                                                # o is ASCII


def test_generate_restores_sentences_not_parses(tiny_paraphraser, monkeypatch):
    for task, source, condition in (("plain", SENTENCE, None),
                                    ("parse-generator", "(S(NP(NNP))(VP(VBD)(NP(CD)(NNS)))(.))", "(S(NP)(VP)(.))")):
        model = load_generator(tiny_paraphraser(task, "scpn"), "cpu", 1)
        monkeypatch.setattr(model, "_generate_batch",
                            lambda sources, *rest: [[("Novotn achieved points", -1.0)] for _ in sources])
        text = model.generate([source], [condition])[0][0][0]
        assert text == ("Novotná achieved points" if task == "plain" else "Novotn achieved points")


def repeats(ids: list[int], n: int) -> bool:
    grams = [tuple(ids[i:i + n]) for i in range(len(ids) - n + 1)]
    return len(grams) != len(set(grams))


def test_blocking_repeated_ngrams_by_hand():
    log_probs = torch.zeros(2, 10)
    block_repeats(log_probs, [[5, 6, 7, 5, 6], [5, 6]], 3)        # row 0: "5 6" was followed by 7
    assert log_probs[0].isinf().nonzero().flatten().tolist() == [7] and not log_probs[1].isinf().any()
    log_probs = torch.zeros(1, 10)
    block_repeats(log_probs, [[4, 2, 4]], 1)
    assert log_probs[0].isinf().nonzero().flatten().tolist() == [2, 4]


def test_beam_search_never_repeats_an_ngram_when_asked(tiny_paraphraser, pairs):
    model = load_generator(tiny_paraphraser("scpn", "scpn"), "cpu", 1)
    source, condition = model._tensors([p.s1 for p in pairs[:6]], [p.p2 for p in pairs[:6]])
    limits = [min(model.settings["max_target_units"], 2 * n + 10) for n in (source != PAD).sum(1).tolist()]
    free = model.network.beam_search(source, condition, 3, 3, limits)
    assert any(repeats(ids, 3) for hypotheses in free for ids, _ in hypotheses)     # the tiny model stutters
    guarded = model.network.beam_search(source, condition, 3, 3, limits, no_repeat_ngram=3)
    assert not any(repeats(ids, 3) for hypotheses in guarded for ids, _ in hypotheses)
    assert all(hypotheses for hypotheses in guarded)
    texts = model.generate([p.s1 for p in pairs[:6]], [p.p2 for p in pairs[:6]], beam=3, no_repeat_ngram=3)
    assert [output[0][0] for output in texts] == [model.units.decode(hypotheses[0][0]) for hypotheses in guarded]
