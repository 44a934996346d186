"""PTB tokenization: the rules reproduce the Penn Treebank's own tokens on real PTB sentences."""
from paranmt.models.parsing.ptb import read_mrg
from paranmt.models.parsing.tokenize import ptb_tokenize


def test_contractions_quotes_brackets():
    assert ptb_tokenize('She said, "I can\'t go (now)!" It costs $5.') == [
        "She", "said", ",", "``", "I", "ca", "n't", "go", "-LRB-", "now", "-RRB-", "!", "''", "It", "costs",
        "$", "5", "."]
    assert ptb_tokenize("you'll don't it's 1,000 Mr. Smith.") == [
        "you", "'ll", "do", "n't", "it", "'s", "1,000", "Mr.", "Smith", "."]
    assert ptb_tokenize("I cannot wait... gonna go") == ["I", "can", "not", "wait", "...", "gon", "na", "go"]
    assert ptb_tokenize("") == [] and ptb_tokenize("   ") == []


def test_matches_treebank_tokens(shared_data):
    """Detokenize real PTB sentences naively (join with spaces, undo the PTB quote/bracket/clitic spacing) and
    check that the tokenizer gives the treebank's tokens back for most of them."""
    trees = read_mrg(shared_data / "treebank" / "ptb-sample" / "wsj_0001.mrg") + \
        read_mrg(shared_data / "treebank" / "ptb-sample" / "wsj_0002.mrg") + \
        read_mrg(shared_data / "treebank" / "ptb-sample" / "wsj_0003.mrg")
    same = 0
    for tree in trees:
        words = tree.leaves()
        text = " ".join(words)
        for token in ("n't", "'s", "'re", "'ll", "'ve", "'m", "'d", ",", ".", "''", ";", ":", "%"):
            text = text.replace(f" {token}", token)
        text = text.replace("`` ", '"').replace("''", '"').replace("$ ", "$")
        same += ptb_tokenize(text) == words
    assert len(trees) > 30
    assert same / len(trees) > 0.8
