"""Repetition score of a back-translation (schema v2 `bt_repetition`): how much of a sentence is a loop, the
degenerate output of a weak or misbehaving NMT model ("San San San San", "the Ministry of the Ministry of the
Ministry").

Anchor: OpusFilter's RepetitionFilter flags a segment when a substring (3-100 characters, not starting with a
space) is repeated in a row, its score being the number of immediate repetitions. Here the same idea on word
tokens, made a share so that it is comparable across lengths:

    tokens t_0..t_{n-1} = sacremoses English tokenizer (escape=False), lowercased (as `trigram_overlap`)
    t_i is a repeat if, for some period 1 <= p <= MAX_PERIOD, it lies in a run of consecutive positions j with
        t_j = t_{j-p} that is at least p long (i.e. the run holds at least one whole copy of the preceding p-gram)
    bt_repetition = |{i : t_i is a repeat}| / n        in [0, (n-1)/n]; 0 = no immediate repetition

The first occurrence of the looping n-gram is never counted (as in OpusFilter), everything after it that
continues the loop is, including a trailing partial copy. A repeated word or phrase that is not immediately
repeated ("the cat saw the dog") is not a loop and scores 0; punctuation tokens break loops
("Thank you, thank you." scores 0: "thank you ," is not followed by "thank you ,").
Examples: "San San San San" -> 3/4; "the Ministry of the Ministry of the Ministry" -> 5/8 (p = 3, the copy
"the Ministry of" and the partial "the Ministry"); "very very good" -> 1/3; "The cat sat on the mat." -> 0.
A sentence without tokens (empty or whitespace) -> None (null).
"""
from __future__ import annotations

from paranmt.models.text.tokenize import lowercase_tokens

MAX_PERIOD = 10   # longest looping n-gram looked for, in tokens


def repeated_share(tokens: tuple[str, ...]) -> float | None:
    """The share of `tokens` that continue an immediate loop (module docstring); None for no tokens."""
    if not tokens:
        return None
    repeat = [False] * len(tokens)
    for period in range(1, min(MAX_PERIOD, len(tokens) // 2) + 1):
        run_start = None
        for j in range(period, len(tokens) + 1):
            if j < len(tokens) and tokens[j] == tokens[j - period]:
                run_start = j if run_start is None else run_start
                continue
            if run_start is not None and j - run_start >= period:
                repeat[run_start:j] = [True] * (j - run_start)
            run_start = None
    return sum(repeat) / len(tokens)


def repetition(sentence: str) -> float | None:
    """bt_repetition of `sentence` (module docstring)."""
    return repeated_share(lowercase_tokens(sentence))
