"""PARAGRAM word embeddings (Wieting et al. 2015; thesis §3.5; SPEC §8): word vectors trained on word-pair
paraphrases with a margin loss against in-batch negatives and an L2 pull toward the initial vectors,

    l(w1, w2) = max(0, δ - s(w1, w2) + s(w1, t1)) + max(0, δ - s(w1, w2) + s(w2, t2))
    J = mean over the mini-batch of l  +  λ ||W_init - W||²

s = cosine (`similarity: cosine`, the 300-d PARAGRAM setting) or the dot product (`dot`, the 25-d setting);
t1, t2 = the negatives of w1, w2 chosen in the mini-batch by paranmt.models.training.negatives (MAX = the most
similar word by cosine among the other pairs' words, never the pair's own words; MIX; RAND). The optional PPDB
constraint of the thesis (negative not a PPDB partner of w) is not implemented: the in-batch exclusion of the
pair's own words is the only one (`siblings=True`: a word of another pair that shares a word with this one may be
the negative, unlike the sentence trainer's default). W_init = the vectors the training starts from:
`init_vectors` (a word2vec / GloVe text file) where it has the word, uniform in [-0.1, 0.1] otherwise.

Training pairs (both read lowercased, deduplicated as unordered pairs, identical words dropped):
- a `paranmt lexicon` output directory: its `lexicon-*.tsv` (table TSVs, schemas/tsv.py: header u v cross_count
  pmi_cross pmi_within pmi_adj);
  pairs with `score_column` >= `min_score` (default: adjusted PMI > 0, i.e. the pairs that replace each
  other across paraphrases more than they co-occur within sentences), best first, at most `max_pairs`;
- a PPDB file (plain or .gz): lines `LHS ||| PHRASE ||| PARAPHRASE ||| FEATURES ||| ALIGNMENT [||| ENTAILMENT]`;
  only fields 2 (PHRASE) and 3 (PARAPHRASE) are read, and only one-token pairs kept (PPDB's lexical pairs);
  LHS, features, alignment and entailment are ignored.
The model is a `word` averaging encoder over the pairs' vocabulary (a word is split by the word featurizer's
regex, so `well-known` is the mean of `well`, `-`, `known`): paranmt eval / encode / eval-words open it as any
encoder. `save_word2vec` also writes the vectors as word2vec text.
"""
from __future__ import annotations

import gzip
import logging
import math
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import ClassVar

import numpy as np
import torch
import torch.nn.functional as F

from paranmt.models.encoders.averaging import AveragingEncoder
from paranmt.models.encoders.featurizers import UNK, WordFeaturizer, word_tokens
from paranmt.models.encoders.word_vectors import WordVectorsError, initialize_embeddings
from paranmt.models.files import DataFileError, reading
from paranmt.models.loop import CpuLoopConfig, Loop, LoopState, Task, Window
from paranmt.models.training.negatives import STRATEGIES, mine_megabatch
from paranmt.models.training.regularizers import l2_to_initial
from paranmt.schemas import tsv
from paranmt.schemas.config import MAX_WIDTH, bounded, choice, setting
from paranmt.schemas.errors import ConfigError

log = logging.getLogger(__name__)
SIMILARITIES = ("cosine", "dot")
SCORE_COLUMNS = tsv.LEXICON_COLUMNS[2:]         # what a lexicon's pairs can be ranked by


class WordPairsError(DataFileError):
    """Missing or malformed word-pair input."""


@dataclass
class ParagramConfig(CpuLoopConfig):
    """The settings of `paranmt train-words` (`--config` YAML keys, `--set`, the flags): the loop's (CpuLoopConfig,
    a CPU run without checkpoints, nor a dev metric: patience is FIXED too; epochs, lr, max_steps,
    time_budget_minutes, log_every, seed, threads), the model's, and which pairs of a lexicon are read
    (score_column, min_score, max_pairs; max_pairs also for PPDB)."""
    FIXED: ClassVar[tuple[str, ...]] = (*CpuLoopConfig.FIXED, "patience")
    HELP: ClassVar[dict[str, str]] = {"epochs": "passes over the word pairs",
                                      "max_steps": "stop after this many steps (0 = no limit)",
                                      "seed": "random seed (initialization, batch order)"}
    lr: float = bounded(0.05, 0, open_low=True, help="AdaGrad learning rate")
    # 1, not 0 (one per core) as the other trainers: the steps are small matmuls; 2 threads ran 2.2-2.4x slower on 2
    # cores (benchmarks/RESULTS.md, "One and two threads")
    threads: int = bounded(1, 1, help="torch CPU threads")
    dim: int = bounded(300, 1, MAX_WIDTH, help="size of the word vectors")
    similarity: str = choice("cosine", SIMILARITIES, help="cosine (the 300-d setting) or dot (the 25-d one, with "
                             "margin 1)")
    margin: float = setting(0.4, help="margin delta of the hinge loss")
    negatives: str = choice("max", STRATEGIES, help="negative per word in the mini-batch: the most similar (max), max "
                            "or random half of the time (mix), random (rand)")
    batch_size: int = bounded(100, 2, help="word pairs per AdaGrad step")
    l2_to_init: float = bounded(1e-6, 0, help="lambda of lambda * ||W_init - W||^2")
    init_vectors: str | None = setting(None, help="word2vec / GloVe text file to start from (and regularize toward)")
    score_column: str = choice("pmi_adj", SCORE_COLUMNS, help="lexicon: column to rank by")
    min_score: float = setting(0.0, help="lexicon: keep pairs scoring >= this")
    max_pairs: int = bounded(0, 0, help="at most N pairs (best first; 0 = all)")

    def validate(self) -> "ParagramConfig":
        super().validate()
        if self.init_vectors and not Path(self.init_vectors).is_file():
            raise ConfigError(f"init_vectors {self.init_vectors} not found")
        return self


def _unique_pairs(pairs) -> list[tuple[str, str]]:
    seen, out = set(), []
    for u, v in pairs:
        key = (u, v) if u <= v else (v, u)
        if u != v and key not in seen:
            seen.add(key)
            out.append(key)
    return out


def read_lexicon_pairs(directory: str | Path, score_column: str = "pmi_adj", min_score: float = 0.0,
                       max_pairs: int = 0) -> list[tuple[str, str]]:
    """Word pairs of a `paranmt lexicon` output (see module doc), best `score_column` first."""
    files = sorted(Path(directory).glob("lexicon-*.tsv"))
    if not files:
        raise WordPairsError(f"{directory}: no lexicon-*.tsv (the output of `paranmt lexicon`)")
    if score_column not in SCORE_COLUMNS:
        raise WordPairsError(f"score column must be one of {', '.join(tsv.LEXICON_COLUMNS[2:])}")
    column = tsv.LEXICON_COLUMNS.index(score_column)
    scored = []
    for file in files:
        with reading(file, "lexicon file (UTF-8 TSV)", DataFileError), \
                file.open(encoding="utf-8", newline="") as handle:
            rows = tsv.read_rows(handle)
            if tuple(next(rows, ())) != tsv.LEXICON_COLUMNS:
                raise WordPairsError(f"{file}: expected the header {' '.join(tsv.LEXICON_COLUMNS)}")
            for fields in rows:
                try:
                    score = float(fields[column])
                except (IndexError, ValueError):
                    raise WordPairsError(f"{file}:{rows.line_num}: expected 6 tab-separated fields") from None
                if score >= min_score:
                    scored.append((score, fields[0].lower(), fields[1].lower()))
    scored.sort(key=lambda item: (-item[0], item[1], item[2]))
    pairs = _unique_pairs((u, v) for _, u, v in scored)
    return pairs[:max_pairs] if max_pairs else pairs


def read_ppdb_pairs(path: str | Path, max_pairs: int = 0) -> list[tuple[str, str]]:
    """One-token (PHRASE, PARAPHRASE) pairs of a PPDB file, fields 2 and 3 of `LHS ||| PHRASE ||| PARAPHRASE ||| ...`
    (file order; plain or gzip'd)."""
    path = Path(path)
    if not path.is_file():
        raise WordPairsError(f"{path} not found")
    opener = gzip.open if path.suffix == ".gz" else open
    pairs = []
    with reading(path, "PPDB file (UTF-8 text, plain or gzip'd)", DataFileError), \
            opener(path, "rt", encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            fields = [f.strip() for f in line.split("|||")]
            if len(fields) < 3:
                if line.strip():
                    raise WordPairsError(f"{path}:{number}: expected `LHS ||| PHRASE ||| PARAPHRASE ||| ...`")
                continue
            phrase, paraphrase = fields[1].lower(), fields[2].lower()
            if len(phrase.split()) == 1 and len(paraphrase.split()) == 1:
                pairs.append((phrase, paraphrase))
    pairs = _unique_pairs(pairs)
    return pairs[:max_pairs] if max_pairs else pairs


def paragram_loss(w1: torch.Tensor, w2: torch.Tensor, t1: torch.Tensor, t2: torch.Tensor, margin: float,
                  similarity: str, valid1: torch.Tensor | None = None,
                  valid2: torch.Tensor | None = None) -> torch.Tensor:
    """Mean over rows of max(0, δ - s(w1,w2) + s(w1,t1)) + max(0, δ - s(w1,w2) + s(w2,t2)); a term whose anchor
    has no valid negative counts 0."""
    if similarity == "cosine":
        s = lambda a, b: F.cosine_similarity(a, b, dim=1)  # noqa: E731
    else:
        s = lambda a, b: (a * b).sum(1)  # noqa: E731
    positive = s(w1, w2)
    term1 = torch.relu(margin - positive + s(w1, t1))
    term2 = torch.relu(margin - positive + s(w2, t2))
    if valid1 is not None:
        term1 = term1 * valid1.float()
    if valid2 is not None:
        term2 = term2 * valid2.float()
    return (term1 + term2).mean()


def build_encoder(pairs: list[tuple[str, str]], config: ParagramConfig) -> tuple[AveragingEncoder, dict]:
    """A `word` encoder over the pairs' tokens, initialized from `init_vectors` where they have the token;
    returns it and {vocabulary, initialized}."""
    tokens = sorted({t for pair in pairs for word in pair for t in word_tokens(word)} - {UNK})
    encoder = AveragingEncoder(WordFeaturizer([UNK] + tokens), dim=config.dim)
    initialized = 0
    if config.init_vectors:
        try:
            initialized = initialize_embeddings(encoder, config.init_vectors).found
        except WordVectorsError as error:
            raise WordPairsError(str(error)) from None
    return encoder, {"vocabulary": len(tokens), "initialized": initialized}


class ParagramTask(Task):
    """PARAGRAM training as a task of the shared loop (models/loop.py): per epoch a permutation of the
    pairs from the one generator seeded with `seed` (it also draws MIX / RAND negatives), cut into mini-batches;
    per mini-batch one AdaGrad step on J; one metrics line per epoch: mean loss and seconds of training so far."""
    description = "train-words"

    def __init__(self, pairs: list[tuple[str, str]], config: ParagramConfig):
        self.pairs, self.config = pairs, config

    def setup(self, checkpoint, device) -> None:
        self.rng = np.random.default_rng(self.config.seed)
        self.encoder, self.report = build_encoder(self.pairs, self.config)
        self.encoder.embedding.sparse = False          # λ ||W_init - W||² has a dense gradient
        self.regularizer = l2_to_initial({"embedding": self.encoder.embedding.weight}, self.config.l2_to_init)
        self.optimizer = torch.optim.Adagrad(self.encoder.parameters(), lr=self.config.lr)

    def steps_per_epoch(self) -> int:
        return math.ceil(len(self.pairs) / self.config.batch_size)

    def epoch_size(self) -> int:
        return self.steps_per_epoch()

    def batches(self, state: LoopState):
        order, size = self.rng.permutation(len(self.pairs)), self.config.batch_size
        for start in range(state.position * size, len(order), size):
            yield 1, [self.pairs[i] for i in order[start:start + size]]

    def step(self, batch: list[tuple[str, str]], state: LoopState) -> tuple[int, dict]:
        c, encoder = self.config, self.encoder
        first, second = [u for u, _ in batch], [v for _, v in batch]
        side1, index1, valid1, side2, index2, valid2 = mine_megabatch(
            encoder.encode(first), encoder.encode(second), first, second, False, c.negatives, self.rng, siblings=True)
        sides = {1: first, 2: second}
        negatives1 = [sides[s][i] for s, i in zip(side1, index1)]
        negatives2 = [sides[s][i] for s, i in zip(side2, index2)]
        encoder.train()
        w1, w2, t1, t2 = encoder.embed(first + second + negatives1 + negatives2).split(len(batch))
        loss = paragram_loss(w1, w2, t1, t2, c.margin, c.similarity, torch.from_numpy(valid1),
                             torch.from_numpy(valid2))
        self.optimizer.zero_grad()
        (loss + self.regularizer()).backward()
        self.optimizer.step()
        return 1, {"loss": loss.item()}

    def parameters(self):
        return self.encoder.parameters()

    def record(self, window: Window, state: LoopState) -> dict:
        return {"loss": window.sums["loss"] / window.updates, "seconds": state.elapsed}


def train_paragram(pairs: list[tuple[str, str]], config: ParagramConfig,
                   metrics_file: Path | None = None) -> tuple[AveragingEncoder, dict]:
    """Train PARAGRAM vectors on `pairs` (`ParagramTask` in the shared loop); returns the encoder (eval mode) and a
    report."""
    config.validate()
    if len(pairs) < 2:
        raise WordPairsError(f"need at least 2 word pairs, got {len(pairs)}")
    task = ParagramTask(pairs, config)
    started = time.perf_counter()
    state = Loop(task, config.validate(), metrics_file=metrics_file).run()
    encoder, report = task.encoder, task.report
    encoder.embedding.sparse = True
    report.update({"pairs": len(pairs), "steps": state.step, "seconds": round(time.perf_counter() - started, 1),
                   "config": asdict(config)})
    return encoder.eval(), report


def save_word2vec(encoder: AveragingEncoder, path: str | Path) -> int:
    """The encoder's vectors as word2vec text (`COUNT DIM`, then `word v1 ... vD`; `<unk>` left out); returns
    the number of words written."""
    weights = encoder.embedding.weight.detach().cpu().numpy()
    words = encoder.featurizer.tokens[1:]
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(f"{len(words)} {weights.shape[1]}\n")
        for row, word in enumerate(words, 1):
            handle.write(word + " " + " ".join(f"{x:.6g}" for x in weights[row]) + "\n")
    return len(words)
