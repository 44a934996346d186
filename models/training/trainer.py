"""The mega-batch contrastive trainer (SPEC §3; P17, P18 §4, P19 §2).

One update step:
1. take the next mega-batch of M * batch_size pairs (M follows the annealing schedule: M = min(megabatch_size,
   1 + step // anneal_every), or megabatch_size throughout when anneal_every = 0; `batch_languages: per-pair`
   keeps each mega-batch within the pairs of one input, `per_pair_order`);
2. scramble: with probability `scramble`, shuffle the word order of both sentences of a pair (recurrent
   encoders; default 0.3 for them, 0 otherwise);
3. embed the whole mega-batch without gradients (eval mode) and choose each sentence's negative over it
   (`negatives`: max/mix/rand; monolingual: from both sides; bilingual: from the other side only; a pair's own
   texts and their duplicates are never negatives, nor, unless `sibling_negatives`, a pair sharing a text with it);
4. split back into mini-batches of `batch_size` pairs; for each: the objective (`margin`: MarginLoss with cosine
   or squared Euclidean `distance`; `bicvm`: BiCVMLoss against `noise_samples` random noise sentences per side,
   drawn in step 3 instead of mining), its backward pass, then the regularizers (lambda_w: L2 toward the initial
   embeddings; lambda_c: L2 on the composition parameters; lambda_frobenius: L2 of the embeddings toward 0; see
   regularizers.py) and one Adam step (SparseAdam on the embedding tables, Adam on the rest).
Precision (`fp16`; models/device.py `MixedPrecision`): in fp32 unless asked (auto: fp16 on CUDA; bf16 on CUDA or the
CPU): then each mini-batch's forward pass runs under autocast and the objective in fp32 on the embeddings cast to
float (models/training/loss.py `embed_batch`); the losses and the regularizers go backward through the loss scaler
(fp16), whose unscale and overflow check take the embedding tables' sparse gradients as well as the dense ones
(torch's GradScaler coalesces them), before the SparseAdam and Adam steps. The weights and the optimizers' states
stay fp32. The step-by-step cells run in fp32 inside autocast (models/encoders/cells.py `run_sorted`); torch's LSTM
on the CPU in bf16 where oneDNN has a bf16 LSTM for the CPU (AMX, avx512_bf16), else in fp32 (models/recurrence.py
`cpu_autocast_lstm`). The negative search (step 3, no gradients) stays fp32:
deterministic, and the same negatives as an fp32 run of the same weights.
`init_embeddings` initializes the embedding tables before training, row by unit string, from a saved encoder
directory (the tables of the unit kinds it has: word, trigram, n-gram, sp) or from a word2vec/GloVe text file (the
word tables; the sp tables of an encoder without word tables; models/encoders/word_vectors.py); the initial encoder
(after that initialization) is saved to `<output>/initial/` whenever a regularizer pulls toward it (resume reads it
back).
The steps run in the shared training loop (models/loop.py; `EncoderTask`): per epoch the pairs in
`epoch_order(seed, epoch)`; checkpoints (encoder + optimizer + counters + RNG states) in `<output>/checkpoint/`
every `checkpoint_every` steps and at the end; `resume=True` continues from there exactly (same data order). The
JSON-lines metrics log (`<output>/metrics.jsonl`) gets loss, mega-batch size and pairs/s every `log_every` steps
and, with `dev_sts_dir`, the dev STS (Pearson x100 of each dataset matching `dev_datasets`, default STS2017 en-en)
at each epoch end (`dev_at: epoch`) or at each checkpoint and the end (`dev_at: checkpoint`). With a dev set the
loop keeps the best (the mean of those Pearsons, higher is better): `<output>/best/` is the encoder of the best dev
evaluation so far (models/encoder_dev.py `EncoderDevTask`), and `patience` N stops training after N evaluations
without a new best.
"""
from __future__ import annotations

import dataclasses
import json
import logging
import math
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import numpy as np
import torch

from paranmt.models.device import MixedPrecision
from paranmt.models.encoder_dev import EncoderDevTask
from paranmt.models.encoders import BASE_KINDS, RECURRENT_KINDS, SentenceEncoder, create_encoder, load_encoder
from paranmt.models.encoders.word_vectors import WordVectorsError, initialize_embeddings
from paranmt.models.loop import Loop, LoopConfig, LoopState, Window, epoch_order
from paranmt.models.training.loss import DISTANCES, BiCVMLoss, MarginLoss, PairBatch
from paranmt.models.training.negatives import STRATEGIES, mine_megabatch, mine_noise
from paranmt.models.training.regularizers import composition_l2, embedding_l2
from paranmt.schemas.config import MAX_LAYERS, MAX_VOCABULARY, MAX_WIDTH, bounded, check_choice, choice, setting
from paranmt.schemas.errors import ConfigError

log = logging.getLogger(__name__)
MODES = ("monolingual", "bilingual")
OBJECTIVES = ("margin", "bicvm")
DEV_AT = ("epoch", "checkpoint")
BATCH_LANGUAGES = ("mixed", "per-pair")


@dataclass
class TrainConfig(LoopConfig):
    """The encoder trainer's settings (the loop's own: LoopConfig, models/loop.py)."""
    SAVED_AS: ClassVar[str] = "train_config.json"
    SHAPES: ClassVar[tuple[str, ...]] = (
        "encoder", "dim", "hidden", "recurrent_units", "activation", "layers", "peepholes", "bidirectional_combine",
        "ngram_orders", "ngram_min_count", "vocab_size", "sp_vocab_size", "dropout", "word_dropout", "max_words")
    HELP: ClassVar[dict[str, str]] = {
        "patience": "stop after N dev evaluations in a row without a new best (needs --dev-sts-dir; 0: off)",
        "lr": "Adam learning rate",
        "log_every": "log loss, M and pairs/s to <output>/metrics.jsonl every N mini-batches"}
    encoder: str = setting("sp", help=f"encoder architecture, one of {', '.join(BASE_KINDS)} (docs/encoders.md), or a "
                           "sum (word+trigram+lstm) or concatenation (word,trigram) of any of them")
    mode: str = choice("monolingual", MODES, help="monolingual: English paraphrase pairs; bilingual: cs-en bitext "
                       "(negatives from the other side)")
    dim: int = bounded(300, 1, MAX_WIDTH, help="embedding size")
    hidden: int | None = bounded(None, 1, MAX_WIDTH, help="hidden size of the recurrent encoders (default: dim)")
    recurrent_units: str = choice("word", ("word", "sp"), help="units of the recurrent encoders and of add/proj/dan: "
                                  "words or sentencepiece pieces")
    activation: str = choice("tanh", ("tanh", "relu", "linear"), help="activation of dan and rnn (tanh, relu) and of "
                             "charagram (tanh, linear)")
    layers: int = bounded(1, 1, MAX_LAYERS, help="layers of dan")
    peepholes: bool = setting(True, help="peephole connections of lstm-og / lstm-nog (true/false)")
    bidirectional_combine: str = choice("sum", ("sum", "ff"), help="bigran: sum the directions (sum) or one tanh "
                                        "layer over both (ff)")
    ngram_orders: list[int] = setting(default_factory=lambda: [2, 3, 4], help="character n-gram orders of charagram")
    ngram_min_count: int = bounded(2, 1, help="charagram keeps the n-grams seen at least this often in the training "
                                   "data")
    vocab_size: int = bounded(200_000, 1, MAX_VOCABULARY, help="word / trigram vocabulary: the most frequent units of "
                              "the training data")
    sp_vocab_size: int = bounded(20_000, 1, MAX_VOCABULARY, help="vocabulary of the sentencepiece model trained on "
                                 "the data")
    sp_model: str | None = setting(None, help="an existing sentencepiece model for sp encoders (else one is trained "
                                   "on the training data)")
    batch_size: int = bounded(100, 1, help="pairs per mini-batch (one Adam step)")
    margin: float = bounded(0.4, 0, help="margin of the contrastive loss (delta; Elgohary & Carpuat tuned 1/10/100 "
                            "for squared Euclidean)")
    objective: str = choice("margin", OBJECTIVES, help="margin: the papers' two-sided hinge against mined negatives; "
                            "bicvm: BiCVM's squared-Euclidean hinge against --noise-samples random sentences (use "
                            "with --encoder add)")
    distance: str = choice("cosine", DISTANCES, help="similarity of the margin objective: cosine, or minus the "
                           "squared Euclidean distance (euclidean)")
    noise_samples: int = bounded(5, 1, help="bicvm: random noise sentences per side (k)")
    lambda_w: float = bounded(0.0, 0, help="L2 of the used embedding rows toward their initial values (lambda_w)")
    lambda_c: float = bounded(0.0, 0, help="L2 of the composition parameters, toward 0 (iRNN: toward its identity "
                              "initialization) (lambda_c)")
    lambda_frobenius: float = bounded(0.0, 0, help="L2 of the used embedding rows toward 0 (BiCVM's "
                                      "(lambda/2)||W||_F^2 = this value)")
    init_embeddings: str | None = setting(None, help="initial embeddings, matched row by unit: an encoder directory "
                                          "(e.g. assets/encoder-sp: its word/trigram/sp tables; with its sp.model as "
                                          "--sp-model the sp table is copied whole) or a word2vec/GloVe text file "
                                          "(words; sp pieces for an encoder without word units); dim must match")
    epochs: int = bounded(5, 0, help="passes over the training pairs (0 saves the randomly initialized encoder)")
    megabatch_size: int = bounded(40, 1, help="mega-batch size M, in mini-batches: negatives are chosen among M x "
                                  "batch-size pairs")
    anneal_every: int = bounded(150, 0, help="grow M by 1 every N mini-batches up to --megabatch-size (0: M fixed)")
    negatives: str = choice("max", STRATEGIES, help="negative per sentence in each mega-batch: the most similar "
                            "(max), max or random half of the time (mix), random (rand)")
    batch_languages: str = choice("mixed", BATCH_LANGUAGES, help="with several --train inputs (one language pair "
                                  "each): mixed: every mega-batch draws from all of them (one shuffled stream); "
                                  "per-pair: each mega-batch holds the pairs of one input only, so its negatives come "
                                  "from that language pair")
    sibling_negatives: bool = setting(False, help="let a pair that shares a text with the anchor's pair (another "
                                      "translation of the same reference) give its negative (true/false; default "
                                      "false: such a pair is a paraphrase, not a negative)")
    dropout: float = bounded(0.0, 0, 1, open_high=True, help="dropout on the embeddings")
    word_dropout: float = bounded(0.0, 0, 1, open_high=True, help="probability of dropping each word (unit) of a "
                                  "training sentence")
    scramble: float | None = bounded(None, 0, 1, help="probability of shuffling a pair's word order (default 0.3 for "
                                     "recurrent encoders, else 0)")
    max_words: int = bounded(100, 1, help="skip training pairs with a longer side (whitespace words)")
    dev_sts_dir: str | None = setting(None, help="STS root folder; its STS2017 en-en (dev_datasets) is scored at each "
                                      "--dev-at and the best model kept in <output>/best/")
    dev_datasets: list[str] = setting(default_factory=lambda: ["STS2017/track5.en-en"], help="the datasets of "
                                      "--dev-sts-dir scored as dev, each by its name or a part of it")
    dev_at: str = choice("epoch", DEV_AT, help="score the dev STS at each epoch end (epoch) or at each checkpoint and "
                         "the end (checkpoint)")

    def validate(self) -> "TrainConfig":
        from paranmt.models.encoders import SQUARE_KINDS, EncoderError, check_kind

        super().validate()
        try:
            parts, _ = check_kind(self.encoder)
        except EncoderError as error:
            raise ConfigError(str(error)) from None
        square = [part for part in parts if part in SQUARE_KINDS]
        if square and self.hidden not in (None, self.dim):
            raise ConfigError(f"{', '.join(square)} needs hidden == dim; got hidden {self.hidden}, dim {self.dim}")
        allowed = {"dan": ("tanh", "relu"), "rnn": ("tanh", "relu"), "charagram": ("tanh", "linear"),
                   "charagram-word": ("tanh", "linear")}
        for part in parts:
            if part in allowed:
                check_choice(f"activation of {part}", self.activation, allowed[part])
        if not self.ngram_orders or min(self.ngram_orders) < 1:
            raise ConfigError(f"ngram_orders must be positive n-gram orders, not {self.ngram_orders}")
        if self.init_embeddings and not Path(self.init_embeddings).exists():
            raise ConfigError(f"init_embeddings {self.init_embeddings} not found")
        if self.sp_model and not Path(self.sp_model).is_file():
            raise ConfigError(f"sp_model {self.sp_model} not found")
        return self

    def model_size(self) -> tuple[int, str] | None:
        """At most: an embedding table per part of the encoder (vocab_size, or sp_vocab_size for sentencepiece
        units, x dim) and the hidden layers of the recurrent, proj and dan parts."""
        from paranmt.models.encoders import KINDS, EncoderError, check_kind

        try:
            parts = check_kind(self.encoder)[0]
        except EncoderError:
            return None                   # validate() names the unknown kind
        hidden, names, parameters = self.hidden or self.dim, {"dim"}, 0
        for part in parts:
            units = KINDS[part].units or self.recurrent_units
            rows = "sp_vocab_size" if units == "sp" else "vocab_size"
            names.add(rows)
            parameters += getattr(self, rows) * self.dim
            if part in RECURRENT_KINDS or part in ("proj", "dan"):
                names.add("hidden" if self.hidden else "dim")
                parameters += 8 * hidden * (self.dim + hidden) * (self.layers if part == "dan" else 1)
        return parameters, f"encoder {self.encoder} with " + ", ".join(f"{name} {getattr(self, name)}"
                                                                        for name in sorted(names))

    @property
    def scramble_probability(self) -> float:
        if self.scramble is not None:
            return self.scramble
        from paranmt.models.encoders import check_kind

        return 0.3 if any(part in RECURRENT_KINDS for part in check_kind(self.encoder)[0]) else 0.0


def megabatch_size_at(step: int, size: int, anneal_every: int) -> int:
    """M at global mini-batch `step`: min(size, 1 + step // anneal_every), or size when anneal_every == 0."""
    return size if anneal_every == 0 else min(size, 1 + step // anneal_every)


def per_pair_order(seed: int, epoch: int, groups: np.ndarray, run: int) -> tuple[np.ndarray, np.ndarray]:
    """Epoch `epoch`'s order for `batch_languages: per-pair`: each group's pairs (`groups[i]`: the input pair i came
    from) in a shuffle, cut into runs of `run` pairs (a group's last run shorter), the runs of all groups shuffled
    together (numpy's default_rng(seed + epoch), as `epoch_order`); returns (the order, the end position of each
    run). A mega-batch never crosses a run's end, so each holds one group's pairs."""
    rng = np.random.default_rng(seed + epoch)
    runs = []
    for group in np.unique(groups):
        members = rng.permutation(np.flatnonzero(groups == group))
        runs += [members[start:start + run] for start in range(0, len(members), run)]
    runs = [runs[i] for i in rng.permutation(len(runs))]
    return np.concatenate(runs), np.cumsum([len(r) for r in runs])


def scramble_pairs(pairs: list[tuple[str, str]], probability: float, rng: np.random.Generator):
    """With `probability` per pair, shuffle the whitespace-token order of both of its sentences."""
    if probability <= 0:
        return pairs
    out = []
    for side1, side2, flip in zip(*zip(*pairs), rng.random(len(pairs)) < probability):
        if flip:
            side1, side2 = (" ".join(rng.permutation(s.split())) for s in (side1, side2))
        out.append((side1, side2))
    return out


class Optimizers:
    """Adam over an encoder: SparseAdam for the (sparse-gradient) embedding tables, so a step costs the rows a
    mini-batch touches rather than the whole vocabulary; Adam for every other parameter (LSTM, gates)."""

    def __init__(self, sparse: list[torch.nn.Parameter], dense: list[torch.nn.Parameter], lr: float):
        self.optimizers = []
        if sparse:
            self.optimizers.append(torch.optim.SparseAdam(sparse, lr=lr))
        if dense:
            self.optimizers.append(torch.optim.Adam(dense, lr=lr))

    def zero_grad(self) -> None:
        for optimizer in self.optimizers:
            optimizer.zero_grad()

    def state_dict(self) -> dict:
        return {str(i): optimizer.state_dict() for i, optimizer in enumerate(self.optimizers)}

    def load_state_dict(self, state: dict) -> None:
        for i, optimizer in enumerate(self.optimizers):
            optimizer.load_state_dict(state[str(i)])


def make_optimizer(encoder: SentenceEncoder, lr: float) -> Optimizers:
    sparse_ids = {id(m.weight) for m in encoder.modules() if isinstance(m, torch.nn.Embedding) and m.sparse}
    parameters = list(encoder.parameters())
    return Optimizers([p for p in parameters if id(p) in sparse_ids],
                      [p for p in parameters if id(p) not in sparse_ids], lr)


class Trainer:
    def __init__(self, config: TrainConfig, output: str | Path):
        self.config = config.validate()
        self.output = Path(output)

    def fit(self, pairs: list[tuple[str, str]], resume: bool = False,
            groups: list[int] | np.ndarray | None = None) -> SentenceEncoder:
        """Train on `pairs` (side1, side2) in the shared loop (`EncoderTask`); save the final encoder into the
        output directory and return it. `groups`: per pair, the input it came from (`batch_languages: per-pair`
        keeps each mega-batch within one; None: all pairs one group)."""
        c = self.config
        if not pairs:
            raise ConfigError("no training pairs")
        task = EncoderTask(c, self.output, pairs, groups)
        Loop(task, c, self.output, resume=resume, save_config=True).run()
        task.encoder.save(self.output, dtype=c.weights_dtype)
        return task.encoder.eval()


class EncoderTask(EncoderDevTask):
    """The mega-batch trainer as a task of the shared loop (module docstring): a position counts pairs of the
    epoch's order (`batch_languages: per-pair`: `per_pair_order` of the pairs' `groups`); a batch is a mega-batch of
    M x batch_size pairs, M following the annealing schedule (per-pair: cut short at the end of its group's run); with
    a dev set, evaluated at `dev_at`, the best encoder is kept in `<output>/best/`."""
    shown = ("loss", "megabatch")

    def __init__(self, config: TrainConfig, output: Path, pairs: list[tuple[str, str]],
                 groups: list[int] | np.ndarray | None = None):
        self.config, self.output, self.pairs = config, output, pairs
        self.groups = np.zeros(len(pairs), dtype=int) if groups is None else np.asarray(groups)
        if len(self.groups) != len(pairs):
            raise ValueError(f"{len(self.groups)} groups for {len(pairs)} pairs")
        self.description = f"train {config.encoder}"
        self.evaluate_at = config.dev_at

    @property
    def initial_dir(self) -> Path:
        return self.output / "initial"

    def setup(self, checkpoint, device) -> None:
        c = self.config
        if checkpoint is not None:
            encoder = load_encoder(checkpoint.directory)
            self.rng = np.random.default_rng()
            self.rng.bit_generator.state = json.loads(checkpoint.state["rng"])
        else:
            encoder = self._new_encoder()
            self.rng = np.random.default_rng(c.seed)
        self.encoder: SentenceEncoder = encoder.to(device.kind)
        self.optimizer = make_optimizer(self.encoder, c.lr)
        self.precision = MixedPrecision.select(device, c.fp16)
        if checkpoint is not None:
            self.optimizer.load_state_dict(checkpoint.state["optimizer"])
            self.precision.load_state_dict(checkpoint.state.get("scaler"))
        self.objective = (BiCVMLoss(self.encoder, c.margin) if c.objective == "bicvm" else
                          MarginLoss(self.encoder, c.margin, c.distance))
        self.regularizers = self._regularizers(self.encoder)

    def _new_encoder(self) -> SentenceEncoder:
        c = self.config
        texts = [s for pair in self.pairs for s in pair]
        encoder = create_encoder(c.encoder, texts, dim=c.dim, hidden=c.hidden, vocab_size=c.vocab_size,
                                 sp_model=c.sp_model, sp_vocab_size=c.sp_vocab_size,
                                 recurrent_units=c.recurrent_units, dropout=c.dropout,
                                 word_dropout=c.word_dropout, activation=c.activation, layers=c.layers,
                                 peepholes=c.peepholes, bidirectional_combine=c.bidirectional_combine,
                                 ngram_orders=c.ngram_orders, ngram_min_count=c.ngram_min_count,
                                 work_dir=self.output / "work")
        if c.init_embeddings:
            try:
                coverage = initialize_embeddings(encoder, c.init_embeddings)
            except WordVectorsError as error:
                raise ConfigError(str(error)) from None
            log.info("init_embeddings: %d of %d vocabulary rows from %s", coverage.found, coverage.vocabulary,
                     c.init_embeddings)
            (self.output / "init_embeddings.json").write_text(json.dumps(
                {"file": c.init_embeddings, **dataclasses.asdict(coverage)}) + "\n")
        if self._pulls_toward_initial(encoder):
            encoder.save(self.initial_dir)
        return encoder

    def _pulls_toward_initial(self, encoder: SentenceEncoder) -> bool:
        c = self.config
        return c.lambda_w > 0 or (c.lambda_c > 0 and bool(composition_l2(encoder, c.lambda_c).anchors))

    def _regularizers(self, encoder: SentenceEncoder) -> list[torch.nn.Module]:
        """The active regularizers; anchors ("initial" values) come from `<output>/initial/` when it exists (so a
        resumed run pulls toward the same start), else from the encoder as it is now."""
        c = self.config
        initial = None
        if self._pulls_toward_initial(encoder) and self.initial_dir.is_dir():
            initial = {name: p.to(encoder.device) for name, p in load_encoder(self.initial_dir).named_parameters()}
        out = []
        if c.lambda_w > 0:
            out.append(embedding_l2(encoder, c.lambda_w, "init", initial))
        if c.lambda_frobenius > 0:
            out.append(embedding_l2(encoder, c.lambda_frobenius, "zero"))
        if c.lambda_c > 0:
            out.append(composition_l2(encoder, c.lambda_c, initial))
        return out

    def steps_per_epoch(self) -> int:
        if self.config.batch_languages == "per-pair":     # each group's last run ends in a short mini-batch
            return sum(math.ceil(n / self.config.batch_size) for n in np.unique(self.groups, return_counts=True)[1])
        return math.ceil(len(self.pairs) / self.config.batch_size)

    def epoch_size(self) -> int:
        return len(self.pairs)

    def batches(self, state: LoopState):
        c = self.config
        if c.batch_languages == "per-pair":
            order, ends = per_pair_order(c.seed, state.epoch, self.groups, c.megabatch_size * c.batch_size)
        else:
            order, ends = epoch_order(c.seed, state.epoch, len(self.pairs)), None
        while state.position < len(self.pairs):
            m = megabatch_size_at(state.step, c.megabatch_size, c.anneal_every)
            end = state.position + m * c.batch_size
            if ends is not None:
                end = min(end, ends[np.searchsorted(ends, state.position, side="right")])
            chunk = [self.pairs[i] for i in order[state.position:end]]
            yield len(chunk), (m, scramble_pairs(chunk, c.scramble_probability, self.rng))

    def step(self, batch: tuple[int, list[tuple[str, str]]], state: LoopState) -> tuple[int, dict]:
        self.megabatch, chunk = batch
        losses = self._megabatch_step(chunk)
        return len(losses), {"loss": sum(losses), "pairs": len(chunk)}

    def parameters(self):
        return self.encoder.parameters()

    def record(self, window: Window, state: LoopState) -> dict:
        pairs = window.sums["pairs"]
        return {"megabatch": self.megabatch, "loss": window.sums["loss"] / max(1, pairs / self.config.batch_size),
                "pairs_per_s": pairs / window.seconds}

    @property
    def dev_encoder(self):
        return self.encoder

    def state_dict(self) -> dict:
        return {"optimizer": self.optimizer.state_dict(), "scaler": self.precision.state_dict(),
                "rng": json.dumps(self.rng.bit_generator.state)}

    def save(self, directory: Path) -> None:
        self.encoder.save(directory)

    def summary(self, state: LoopState) -> dict:
        return {"elapsed_s": state.elapsed, "pairs": len(self.pairs)}

    def _megabatch_step(self, chunk: list[tuple[str, str]]) -> list[float]:
        """Choose negatives over `chunk` (the mega-batch: mined with the current model, or BiCVM's random noise),
        then one Adam step per mini-batch; returns the losses (objective + regularizers)."""
        c, encoder, rng = self.config, self.encoder, self.rng
        text1 = [a for a, _ in chunk]
        text2 = [b for _, b in chunk]
        bilingual = c.mode == "bilingual"
        if c.objective == "bicvm":
            side1, index1, valid1, side2, index2, valid2 = mine_noise(
                text1, text2, bilingual, c.noise_samples, rng, c.sibling_negatives)
        else:
            g1, g2 = encoder.encode(text1, batch_size=2048), encoder.encode(text2, batch_size=2048)
            side1, index1, valid1, side2, index2, valid2 = (
                x[:, None] for x in mine_megabatch(g1, g2, text1, text2, bilingual, c.negatives, rng, c.distance,
                                    c.sibling_negatives))
        sides = {1: text1, 2: text2}
        negatives1 = [[sides[s][i] for s, i in zip(row_side, row)] for row_side, row in zip(side1, index1)]
        negatives2 = [[sides[s][i] for s, i in zip(row_side, row)] for row_side, row in zip(side2, index2)]
        encoder.train()
        losses = []
        for start in range(0, len(chunk), c.batch_size):
            end = min(start + c.batch_size, len(chunk))
            batch = PairBatch(text1[start:end], text2[start:end], negatives1[start:end], negatives2[start:end],
                              valid1[start:end], valid2[start:end])
            self.optimizer.zero_grad()
            with self.precision.autocast():
                loss = self.objective(batch)
            self.precision.backward(loss)
            total = loss.item()
            for regularizer in self.regularizers:
                penalty = regularizer()
                if penalty.requires_grad:
                    self.precision.backward(penalty)
                total += penalty.item()
            self.precision.step(self.optimizer.optimizers)
            losses.append(total)
        return losses
