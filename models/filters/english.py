"""An offline English check by a function-word heuristic (NOT a trained language identifier).

For a sentence s, let W(s) be its words (maximal runs of letters, lowercased) and L(s) its letters:

    function_word_ratio(s) = |{w in W(s) : w in ENGLISH_FUNCTION_WORDS}| / |W(s)|
    ascii_letter_ratio(s)  = |{c in L(s) : c in a-z, A-Z}| / |L(s)|

A sentence looks English when ascii_letter_ratio >= min_ascii_ratio and, if it has at least `min_words` words,
function_word_ratio >= min_function_word_ratio. Shorter sentences are judged by the letter check alone (too few
words for the ratio to mean anything). A sentence without letters is not English (ratio 0).

Measured on the shared Tatoeba and newstest2017 sets (tests/models/filters/test_english.py) it separates English
from Czech well; it cannot tell English from other Latin-script languages that share few function words with it
only by chance (e.g. it will usually reject German and French, but that is not measured), and it accepts English
word salad. Use it to catch untranslated / copied Czech and garbage, not as a general language identifier.
"""
from __future__ import annotations

import regex

WORD = regex.compile(r"\p{L}+")
LETTER = regex.compile(r"\p{L}")
ASCII_LETTER = regex.compile(r"[A-Za-z]")

# Closed-class English words (articles, pronouns, auxiliaries, prepositions, conjunctions, common adverbs) plus
# the clitic fragments a letter-run split leaves behind ("don't" -> "don", "t").
ENGLISH_FUNCTION_WORDS = frozenset("""
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
""".split())


def function_word_ratio(sentence: str) -> float:
    words = WORD.findall(sentence.lower())
    if not words:
        return 0.0
    return sum(word in ENGLISH_FUNCTION_WORDS for word in words) / len(words)


def ascii_letter_ratio(sentence: str) -> float:
    letters = LETTER.findall(sentence)
    if not letters:
        return 0.0
    return sum(bool(ASCII_LETTER.match(letter)) for letter in letters) / len(letters)


def looks_english(sentence: str, min_function_word_ratio: float = 0.15, min_ascii_ratio: float = 0.97,
                  min_words: int = 4) -> bool:
    """The heuristic of the module docstring for one sentence."""
    if ascii_letter_ratio(sentence) < min_ascii_ratio:
        return False
    if len(WORD.findall(sentence)) < min_words:
        return True
    return function_word_ratio(sentence) >= min_function_word_ratio
