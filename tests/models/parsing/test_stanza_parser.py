"""StanzaParser with the shipped model (assets/parser-en): real parses, device choice, split-and-retry."""
import pytest

from paranmt.models.device import cuda_available
from paranmt.models.parsing.evaluate import score_parses
from paranmt.models.parsing.parser import ParserModelError, StanzaParser, model_files
from paranmt.models.parsing.ptb import read_mrg
from paranmt.models.parsing.tokenize import ptb_tokenize
from paranmt.models.parsing.trees import ROOT

PTB_TAGS = {"CC", "CD", "DT", "EX", "FW", "IN", "JJ", "JJR", "JJS", "LS", "MD", "NN", "NNS", "NNP", "NNPS", "PDT",
            "POS", "PRP", "PRP$", "RB", "RBR", "RBS", "RP", "SYM", "TO", "UH", "VB", "VBD", "VBG", "VBN", "VBP",
            "VBZ", "WDT", "WP", "WP$", "WRB", "#", "$", "''", "``", ",", "-LRB-", "-RRB-", ".", ":"}


@pytest.fixture
def parser(shipped_parser):
    return shipped_parser


@pytest.mark.skipif(cuda_available(), reason="checks the error on a machine without CUDA")
def test_device_goes_through_the_project_device_choice(shipped_parser):
    """models/device.select_device decides (its logic: tests/models/test_device.py): `cuda` without CUDA is
    a ParserModelError, an unknown device too; `cpu` with `threads` sets torch's threads for the process."""
    import torch
    with pytest.raises(ParserModelError, match="no CUDA"):
        StanzaParser(shipped_parser.model_dir, device="cuda")
    with pytest.raises(ParserModelError, match="auto, cpu or cuda"):
        StanzaParser(shipped_parser.model_dir, device="tpu")
    before = torch.get_num_threads()
    try:
        parser = StanzaParser(shipped_parser.model_dir, device="cpu", threads=1)
        assert parser.device.kind == "cpu" and parser.pipeline.device == "cpu" and torch.get_num_threads() == 1
    finally:
        torch.set_num_threads(before)


def test_model_directory_errors(tmp_path):
    with pytest.raises(ParserModelError, match="does not exist"):
        model_files(str(tmp_path / "nothing"))
    with pytest.raises(ParserModelError, match="neither"):
        model_files(str(tmp_path))
    (tmp_path / "parser.json").write_text('{"pos_model": "pos.pt", "constituency_model": "c.pt", "pretrain": "p.pt"}')
    with pytest.raises(ParserModelError, match="missing"):
        model_files(str(tmp_path))


def test_parses_bitext_sentences(parser, bitext):
    lines = (bitext / "newstest2013.eng").read_text(encoding="utf-8").splitlines()[:12]
    sentences = [ptb_tokenize(line) for line in lines]
    trees = parser.parse(sentences)
    assert len(trees) == len(sentences)
    for tokens, tree in zip(sentences, trees):
        assert tree is not None and tree.label == ROOT
        assert tree.leaves() == tokens
        assert set(tree.tags()) <= PTB_TAGS


def test_heldout_ptb_quality(parser, shared_data):
    """Files wsj_0160.. are held out from training (configs/parser/ptb-sample.yaml)."""
    gold = read_mrg(shared_data / "treebank" / "ptb-sample" / "wsj_0160.mrg")
    scores = score_parses(gold, parser.parse([tree.leaves() for tree in gold]))
    # the MANIFEST's numbers on all 20 held-out files: POS 0.937, bracket F1 0.762, exact template 0.703
    assert scores.pos_accuracy > 0.9
    assert scores.bracket_f1 > 0.7


def test_failing_sentence_gets_none_and_the_rest_is_parsed(parser, monkeypatch):
    real_parse_all = parser._parse_all

    def parse_all_failing_on_poison(sentences):
        if ["POISON"] in sentences:
            raise RuntimeError("injected failure")
        return real_parse_all(sentences)

    monkeypatch.setattr(parser, "_parse_all", parse_all_failing_on_poison)
    sentences = [["I", "see", "."], ["POISON"], ["You", "run", "."], [], ["Go", "."]]
    trees = parser.parse(sentences)
    assert trees[1] is None and trees[3] is None
    assert [tree.leaves() for tree in (trees[0], trees[2], trees[4])] == [sentences[0], sentences[2], sentences[4]]
