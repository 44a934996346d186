"""An offline English check by a function-word heuristic (NOT a trained language identifier), computed on whole
Arrow arrays of sentences (Arrow compute with RE2 Unicode classes, numpy for the per-sentence sums).

For a sentence s, let W(s) be its words (maximal runs of letters, Unicode category L, lowercased) and L(s) its
letters:

    function_word_ratio(s) = |{w in W(s) : w in ENGLISH_FUNCTION_WORDS}| / |W(s)|
    ascii_letter_ratio(s)  = |{c in L(s) : c in a-z, A-Z}| / |L(s)|

A sentence looks English when ascii_letter_ratio >= min_ascii_ratio and, if it has at least `min_words` words,
function_word_ratio >= min_function_word_ratio. Shorter sentences are judged by the letter check alone (too few
words for the ratio to mean anything). A sentence without letters is not English (ratio 0); neither is a null.

Measured on the shared Tatoeba and newstest2017 sets (tests/models/filters/test_english.py) it separates English
from Czech well; it cannot tell English from other Latin-script languages that share few function words with it
only by chance (e.g. it will usually reject German and French, but that is not measured), and it accepts English
word salad. Use it to catch untranslated / copied Czech and garbage, not as a general language identifier.
"""
from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

# Closed-class English words (articles, pronouns, auxiliaries, prepositions, conjunctions, common adverbs) plus
# the clitic fragments a letter-run split leaves behind ("don't" -> "don", "t").
ENGLISH_FUNCTION_WORDS = pa.array(sorted(set("""
a an the this that these those some any no every each all both either neither
i me my mine myself you your yours yourself we us our ours he him his himself she her hers herself it its itself
they them their theirs themselves one who whom whose which what where when why how
is am are was were be been being have has had having do does did done will would shall should can could may
might must ought
to of in on at by for with from into onto about over under after before between through during without within
upon across against along among around behind below beside beyond near off out up down since until till than
and or but nor so yet if then else because while although though unless whether as
not never also too very just only even still already again here there now ever more most much many such own
s t ll re ve d m don didn doesn isn aren wasn weren won wouldn couldn shouldn haven hasn hadn can't
""".split())))


NOT_LETTERS = r"[^\p{L}]+"


def _per_sentence_sum(lists: pa.ListArray, values: np.ndarray) -> np.ndarray:
    """Sum of `values` (one per list item) for each list of `lists`."""
    parents = pc.list_parent_indices(lists).to_numpy()
    return np.bincount(parents, weights=values, minlength=len(lists))


def looks_english(sentences: pa.Array, min_function_word_ratio: float = 0.15, min_ascii_ratio: float = 0.97,
                  min_words: int = 4) -> np.ndarray:
    """The heuristic of the module docstring for every sentence (bool array; null -> False)."""
    if isinstance(sentences, pa.ChunkedArray):
        sentences = sentences.combine_chunks()
    letters = pc.count_substring_regex(sentences, r"\p{L}").fill_null(0).to_numpy(zero_copy_only=False)
    ascii_letters = pc.count_substring_regex(sentences, "[A-Za-z]").fill_null(0).to_numpy(zero_copy_only=False)
    ascii_ratio = np.divide(ascii_letters, letters, out=np.zeros(len(letters)), where=letters > 0)
    pieces = pc.split_pattern_regex(pc.utf8_lower(sentences), NOT_LETTERS)
    flat = pc.list_flatten(pieces)
    is_word = pc.greater(pc.utf8_length(flat), 0).to_numpy(zero_copy_only=False)
    is_function_word = is_word & pc.is_in(flat, ENGLISH_FUNCTION_WORDS).to_numpy(zero_copy_only=False)
    words = _per_sentence_sum(pieces, is_word)
    function_words = _per_sentence_sum(pieces, is_function_word)
    word_ratio = np.divide(function_words, words, out=np.zeros(len(words)), where=words > 0)
    valid = sentences.is_valid().to_numpy(zero_copy_only=False)
    return valid & (ascii_ratio >= min_ascii_ratio) & ((words < min_words) | (word_ratio >= min_function_word_ratio))
