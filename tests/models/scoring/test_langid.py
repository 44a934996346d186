"""Language labels and confidences (models/scoring/langid.py) on the shared Czech and English sentences."""
import pytest

from paranmt.models.scoring.langid import LanguageIdentifier


@pytest.fixture(scope="module")
def identifier():
    return LanguageIdentifier()


def lines(bitext, name, n):
    return [line for line in (bitext / name).read_text(encoding="utf-8").splitlines()[:n] if line.strip()]


def test_czech_and_english_news_are_identified(identifier, bitext):
    for name, lang in (("newstest2017.ces", "cs"), ("newstest2017.eng", "en")):
        results = identifier.identify(lines(bitext, name, 300))
        assert sum(label == lang for label, _ in results) / len(results) >= 0.98
        assert all(0 < conf <= 1 for _, conf in results)
        assert sorted(conf for _, conf in results)[len(results) // 2] > 0.9, "median confidence on news"


def test_wrong_language_sides_get_their_own_label(identifier):
    results = identifier.identify(["Die Regierung hat am Montag neue Maßnahmen angekündigt.",
                                   "Vláda v pondělí oznámila nová opatření.",
                                   "The government announced new measures on Monday.",
                                   "Le gouvernement a annoncé lundi de nouvelles mesures."])
    assert [label for label, _ in results] == ["de", "cs", "en", "fr"]


def test_edge_cases_and_batch_order(identifier):
    sentences = [None, "", "   ", "12:30 - 14:00", "Hello, how are you today?", "Hello, how are you today?"]
    results = identifier.identify(sentences)
    assert results[:3] == [(None, None)] * 3
    assert results[3] == ("zxx", 1.0), "no letter: no linguistic content"
    assert results[4] == results[5] and results[4][0] == "en"


def test_the_probability_of_english_separates_english_from_czech(identifier, bitext, shared_data):
    """P(en | sentence), the paraphrase command's `min_english` rule (default 0.01, docs/paraphrase.md): every
    English sentence of SICK and Multi30k is above it, every Czech one of Multi30k below."""
    sick = [line.split("\t")[1] for line in
            (shared_data / "sts" / "SICK" / "SICK_trial.txt").read_text(encoding="utf-8").splitlines()[1:]]
    for name, sentences, english in [("SICK", sick, True),
                                     ("multi30k en", lines(bitext, "multi30k_test_2016_flickr.eng", 1000), True),
                                     ("multi30k cs", lines(bitext, "multi30k_test_2016_flickr.ces", 1000), False)]:
        probabilities = identifier.probability(sentences, "en")
        assert all((p >= 0.01) == english for p in probabilities), name
    assert identifier.probability(["12:30 - 14:00", "我今天去商店买了一些水果。"], "en")[0] is None
    assert identifier.probability(["我今天去商店买了一些水果。"], "en")[0] < 1e-6
