"""The mega-batch contrastive trainer (SPEC §3; P17, P18 §4, P19 §2).

One update step:
1. take the next mega-batch of M * batch_size pairs (M follows the annealing schedule: M = min(megabatch_size,
   1 + step // anneal_every), or megabatch_size throughout when anneal_every = 0);
2. scramble: with probability `scramble`, shuffle the word order of both sentences of a pair (recurrent
   encoders; default 0.3 for them, 0 otherwise);
3. embed the whole mega-batch without gradients (eval mode) and choose each sentence's negative over it
   (`negatives`: max/mix/rand; monolingual: from both sides; bilingual: from the other side only; a pair's own
   texts and their duplicates are never negatives);
4. split back into mini-batches of `batch_size` pairs; for each: the objective (`margin`: MarginLoss with cosine
   or squared Euclidean `distance`; `bicvm`: BiCVMLoss against `noise_samples` random noise sentences per side,
   drawn in step 3 instead of mining), its backward pass, then the regularizers (lambda_w: L2 toward the initial
   embeddings; lambda_c: L2 on the composition parameters; lambda_frobenius: L2 of the embeddings toward 0; see
   regularizers.py) and one Adam step (SparseAdam on the embedding tables, Adam on the rest).
`init_embeddings` initializes the word embedding tables from a word2vec/GloVe text file before training; the
initial encoder is saved to `<output>/initial/` whenever a regularizer pulls toward it (resume reads it back).
Checkpoints (encoder + optimizer + counters + RNG states) go to `<output>/checkpoint/` every `checkpoint_every`
steps and at the end; `resume=True` continues from there exactly (same data order). A JSON-lines metrics log
(`<output>/metrics.jsonl`) gets loss, mega-batch size and pairs/s every `log_every` steps and the dev STS score at
each epoch end (if `dev_sts_dir` is set).
"""
from __future__ import annotations

import dataclasses
import json
import logging
import math
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch
from tqdm import tqdm

from paranmt.models.encoders import RECURRENT_KINDS, SentenceEncoder, create_encoder, load_encoder
from paranmt.models.encoders.word_vectors import WordVectorsError, initialize_word_embeddings
from paranmt.models.training.loop import write_directory
from paranmt.models.training.loss import DISTANCES, BiCVMLoss, MarginLoss, PairBatch
from paranmt.models.training.negatives import STRATEGIES, mine_megabatch, mine_noise
from paranmt.models.nmt.device import select_device
from paranmt.models.training.regularizers import composition_l2, embedding_l2
from paranmt.models.safe_load import load_weights_only
from paranmt.schemas.config import DEVICES, Config, ConfigError, bounded, check_choice, check_ranges

log = logging.getLogger(__name__)
MODES = ("monolingual", "bilingual")
OBJECTIVES = ("margin", "bicvm")


@dataclass
class TrainConfig(Config):
    encoder: str = "sp"
    mode: str = "monolingual"            # monolingual (en-en pairs) | bilingual (cs-en bitext)
    dim: int = bounded(300, 1)
    hidden: int | None = bounded(None, 1)   # recurrent hidden size (default: dim)
    recurrent_units: str = "word"        # word | sp: units of the recurrent encoders and of add/proj/dan
    activation: str = "tanh"             # dan, rnn: tanh | relu; charagram: tanh | linear
    layers: int = bounded(1, 1)          # dan: number of layers
    peepholes: bool = True               # lstm-og / lstm-nog: Gers peephole connections
    bidirectional_combine: str = "sum"   # bigran: sum | ff (one tanh layer over [forward ; backward])
    ngram_orders: list[int] = field(default_factory=lambda: [2, 3, 4])   # charagram n-gram orders
    ngram_min_count: int = bounded(2, 1)   # charagram: keep n-grams seen at least this often in the training data
    vocab_size: int = bounded(200_000, 1)   # word / trigram vocabulary (most frequent units of the training data)
    sp_vocab_size: int = bounded(20_000, 1)
    sp_model: str | None = None          # an existing sentencepiece model (else one is trained on the data)
    batch_size: int = bounded(100, 1)
    margin: float = bounded(0.4, 0)
    objective: str = "margin"            # margin (the papers' two-sided hinge) | bicvm (Elgohary & Carpuat's J_bi)
    distance: str = "cosine"             # margin objective: cosine | euclidean (squared distance)
    noise_samples: int = bounded(5, 1)   # bicvm: random noise sentences per side (k)
    lambda_w: float = bounded(0.0, 0)    # L2 of the embedding rows toward their initial values
    lambda_c: float = bounded(0.0, 0)    # L2 of the composition parameters (toward 0; iRNN: toward its init)
    lambda_frobenius: float = bounded(0.0, 0)   # L2 of the embedding rows toward 0 (BiCVM's (lambda/2)||W||_F^2)
    init_embeddings: str | None = None   # word2vec / GloVe text file initializing the word embeddings
    epochs: int = bounded(5, 0)          # 0 = no training: save the random-init encoder (baselines)
    lr: float = bounded(1e-3, 0)
    megabatch_size: int = bounded(40, 1)
    anneal_every: int = bounded(150, 0)  # grow M by 1 every N mini-batches (0 = M fixed at megabatch_size)
    negatives: str = "max"               # max | mix | rand
    dropout: float = bounded(0.0, 0)    # < 1
    word_dropout: float = bounded(0.0, 0)   # < 1
    scramble: float | None = bounded(None, 0, 1)   # default: 0.3 for recurrent encoders, 0 otherwise
    max_words: int = bounded(100, 1)     # skip training pairs with a longer side (whitespace words)
    seed: int = 1
    max_steps: int = bounded(0, 0)       # stop after this many steps in total (0 = no limit)
    time_budget_minutes: float = bounded(0, 0)   # stop after this much training time in total (0 = no limit)
    checkpoint_every: int = bounded(1000, 1)
    log_every: int = bounded(100, 1)
    dev_sts_dir: str | None = None       # evaluate STS at each epoch end (datasets matching dev_datasets)
    dev_datasets: list[str] = field(default_factory=lambda: ["STS2017/track5.en-en"])
    weights_dtype: str = "float32"       # dtype of the saved final weights (float16 halves the size)
    threads: int = bounded(1, 1)
    device: str = "auto"                 # auto (CUDA when available) | cpu | cuda

    def validate(self) -> "TrainConfig":
        from paranmt.models.encoders import SQUARE_KINDS, EncoderError, check_kind

        check_ranges(self)
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
        check_choice("recurrent_units", self.recurrent_units, ("word", "sp"))
        check_choice("bidirectional_combine", self.bidirectional_combine, ("sum", "ff"))
        if not self.ngram_orders or min(self.ngram_orders) < 1:
            raise ConfigError(f"ngram_orders must be positive n-gram orders, not {self.ngram_orders}")
        check_choice("mode", self.mode, MODES)
        check_choice("negatives", self.negatives, STRATEGIES)
        if self.dropout >= 1 or self.word_dropout >= 1:
            raise ConfigError("dropout and word_dropout must be < 1")
        check_choice("weights_dtype", self.weights_dtype, ("float32", "float16"))
        check_choice("device", self.device, DEVICES)
        check_choice("objective", self.objective, OBJECTIVES)
        check_choice("distance", self.distance, DISTANCES)
        if self.init_embeddings and not Path(self.init_embeddings).is_file():
            raise ConfigError(f"init_embeddings {self.init_embeddings} not found")
        if self.sp_model and not Path(self.sp_model).is_file():
            raise ConfigError(f"sp_model {self.sp_model} not found")
        return self

    @property
    def scramble_probability(self) -> float:
        if self.scramble is not None:
            return self.scramble
        from paranmt.models.encoders import check_kind

        return 0.3 if any(part in RECURRENT_KINDS for part in check_kind(self.encoder)[0]) else 0.0


def megabatch_size_at(step: int, size: int, anneal_every: int) -> int:
    """M at global mini-batch `step`: min(size, 1 + step // anneal_every), or size when anneal_every == 0."""
    return size if anneal_every == 0 else min(size, 1 + step // anneal_every)


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

    def step(self) -> None:
        for optimizer in self.optimizers:
            optimizer.step()

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
        self.checkpoint_dir = self.output / "checkpoint"

    # -- state -------------------------------------------------------------------------------------------
    def _new_state(self, pairs: list[tuple[str, str]]) -> dict:
        c = self.config
        texts = [s for pair in pairs for s in pair]
        encoder = create_encoder(c.encoder, texts, dim=c.dim, hidden=c.hidden, vocab_size=c.vocab_size,
                                 sp_model=c.sp_model, sp_vocab_size=c.sp_vocab_size,
                                 recurrent_units=c.recurrent_units, dropout=c.dropout,
                                 word_dropout=c.word_dropout, activation=c.activation, layers=c.layers,
                                 peepholes=c.peepholes, bidirectional_combine=c.bidirectional_combine,
                                 ngram_orders=c.ngram_orders, ngram_min_count=c.ngram_min_count,
                                 work_dir=self.output / "work")
        if c.init_embeddings:
            try:
                coverage = initialize_word_embeddings(encoder, c.init_embeddings)
            except WordVectorsError as error:
                raise ConfigError(str(error)) from None
            log.info("init_embeddings: %d of %d vocabulary rows from %s", coverage.found, coverage.vocabulary,
                     c.init_embeddings)
            (self.output / "init_embeddings.json").write_text(json.dumps(
                {"file": c.init_embeddings, **dataclasses.asdict(coverage)}) + "\n")
        if self.pulls_toward_initial(encoder):
            encoder.save(self.initial_dir)
        return {"encoder": encoder, "step": 0, "epoch": 0, "position": 0, "elapsed": 0.0,
                "rng": np.random.default_rng(c.seed), "optimizer_state": None}

    @property
    def initial_dir(self) -> Path:
        return self.output / "initial"

    def pulls_toward_initial(self, encoder: SentenceEncoder) -> bool:
        c = self.config
        return c.lambda_w > 0 or (c.lambda_c > 0 and bool(composition_l2(encoder, c.lambda_c).anchors))

    def regularizers(self, encoder: SentenceEncoder) -> list[torch.nn.Module]:
        """The active regularizers; anchors ("initial" values) come from `<output>/initial/` when it exists (so a
        resumed run pulls toward the same start), else from the encoder as it is now."""
        c = self.config
        initial = None
        if self.pulls_toward_initial(encoder) and self.initial_dir.is_dir():
            initial = {name: p.to(encoder.device) for name, p in load_encoder(self.initial_dir).named_parameters()}
        out = []
        if c.lambda_w > 0:
            out.append(embedding_l2(encoder, c.lambda_w, "init", initial))
        if c.lambda_frobenius > 0:
            out.append(embedding_l2(encoder, c.lambda_frobenius, "zero"))
        if c.lambda_c > 0:
            out.append(composition_l2(encoder, c.lambda_c, initial))
        return out

    def _save_checkpoint(self, state: dict, optimizer: Optimizers) -> None:
        """Write the checkpoint beside the current one, then swap them (a crash never leaves no checkpoint)."""
        def write(tmp: Path) -> None:
            state["encoder"].save(tmp)
            torch.save({"optimizer": optimizer.state_dict(), "step": state["step"], "epoch": state["epoch"],
                        "position": state["position"], "elapsed": state["elapsed"],
                        "rng": json.dumps(state["rng"].bit_generator.state), "torch_rng": torch.get_rng_state(),
                        "config": dataclasses.asdict(self.config)}, tmp / "trainer_state.pt")

        write_directory(self.checkpoint_dir, write)

    def _load_checkpoint(self) -> dict:
        saved = load_weights_only(self.checkpoint_dir / "trainer_state.pt")
        if saved["config"] != dataclasses.asdict(self.config):
            changed = [k for k, v in saved["config"].items() if dataclasses.asdict(self.config).get(k) != v]
            log.warning("resuming with a changed config (fields: %s)", ", ".join(changed))
        encoder = load_encoder(self.checkpoint_dir)
        rng = np.random.default_rng()
        rng.bit_generator.state = json.loads(saved["rng"])
        torch.set_rng_state(saved["torch_rng"])
        return {"encoder": encoder, "step": saved["step"], "epoch": saved["epoch"], "position": saved["position"],
                "elapsed": saved["elapsed"], "rng": rng, "optimizer_state": saved["optimizer"]}

    # -- training ----------------------------------------------------------------------------------------
    def fit(self, pairs: list[tuple[str, str]], resume: bool = False) -> SentenceEncoder:
        """Train on `pairs` (side1, side2); save the final encoder into the output directory and return it."""
        c = self.config
        if not pairs:
            raise ConfigError("no training pairs")
        torch.set_num_threads(c.threads)
        torch.manual_seed(c.seed)
        self.output.mkdir(parents=True, exist_ok=True)
        (self.output / "train_config.json").write_text(json.dumps(dataclasses.asdict(c), indent=2) + "\n")
        interrupted_swap = self.output / "checkpoint.old"
        if resume and not self.checkpoint_dir.exists() and interrupted_swap.exists():
            interrupted_swap.rename(self.checkpoint_dir)
        if resume and (self.checkpoint_dir / "trainer_state.pt").is_file():
            state = self._load_checkpoint()
            log.info("resuming at step %d (epoch %d, pair %d)", state["step"], state["epoch"], state["position"])
        else:
            state = self._new_state(pairs)
        try:
            device = select_device(c.device)          # the project's one device choice (models/nmt/device.py)
        except ValueError as error:
            raise ConfigError(str(error)) from None
        encoder: SentenceEncoder = state["encoder"].to(device.kind)
        optimizer = make_optimizer(encoder, c.lr)
        if state["optimizer_state"] is not None:
            optimizer.load_state_dict(state["optimizer_state"])
        objective = (BiCVMLoss(encoder, c.margin) if c.objective == "bicvm" else
                     MarginLoss(encoder, c.margin, c.distance))
        regularizers = self.regularizers(encoder)
        steps_per_epoch = math.ceil(len(pairs) / c.batch_size)
        total = steps_per_epoch * c.epochs
        if c.max_steps:
            total = min(total, c.max_steps)
        metrics = (self.output / "metrics.jsonl").open("a")
        bar = tqdm(total=total, initial=min(state["step"], total), desc=f"train {c.encoder}", unit="batch",
                   dynamic_ncols=True)
        window_loss, window_pairs, window_start = 0.0, 0, time.perf_counter()
        stop = False
        try:
            while state["epoch"] < c.epochs and not stop:
                order = np.random.default_rng(c.seed + state["epoch"]).permutation(len(pairs))
                while state["position"] < len(pairs) and not stop:
                    started = time.perf_counter()
                    m = megabatch_size_at(state["step"], c.megabatch_size, c.anneal_every)
                    chunk = [pairs[i] for i in order[state["position"]:state["position"] + m * c.batch_size]]
                    chunk = scramble_pairs(chunk, c.scramble_probability, state["rng"])
                    losses = self._megabatch_step(encoder, optimizer, objective, regularizers, chunk,
                                                         state["rng"])
                    state["position"] += len(chunk)
                    state["step"] += len(losses)
                    state["elapsed"] += time.perf_counter() - started
                    bar.update(len(losses))
                    window_loss += sum(losses)
                    window_pairs += len(chunk)
                    if state["step"] // c.log_every != (state["step"] - len(losses)) // c.log_every:
                        seconds = time.perf_counter() - window_start
                        record = {"step": state["step"], "epoch": state["epoch"], "megabatch": m,
                                  "loss": window_loss / max(1, window_pairs / c.batch_size),
                                  "pairs_per_s": window_pairs / seconds, "elapsed_s": state["elapsed"]}
                        metrics.write(json.dumps(record) + "\n")
                        metrics.flush()
                        bar.set_postfix(loss=f"{record['loss']:.4f}", M=m)
                        window_loss, window_pairs, window_start = 0.0, 0, time.perf_counter()
                    if state["step"] // c.checkpoint_every != (state["step"] - len(losses)) // c.checkpoint_every:
                        self._save_checkpoint(state, optimizer)
                    stop = bool((c.max_steps and state["step"] >= c.max_steps) or
                                (c.time_budget_minutes and state["elapsed"] >= 60 * c.time_budget_minutes))
                if state["position"] >= len(pairs):
                    state["epoch"] += 1
                    state["position"] = 0
                    self._log_dev(encoder, state, metrics)
        finally:
            bar.close()
        self._save_checkpoint(state, optimizer)
        metrics.write(json.dumps({"done": True, "step": state["step"], "epoch": state["epoch"],
                                  "elapsed_s": state["elapsed"], "pairs": len(pairs)}) + "\n")
        metrics.close()
        encoder.save(self.output, dtype=c.weights_dtype)
        return encoder.eval()

    def _megabatch_step(self, encoder, optimizer, objective, regularizers, chunk, rng) -> list[float]:
        """Choose negatives over `chunk` (the mega-batch: mined with the current model, or BiCVM's random noise),
        then one Adam step per mini-batch; returns the losses (objective + regularizers)."""
        c = self.config
        text1 = [a for a, _ in chunk]
        text2 = [b for _, b in chunk]
        bilingual = c.mode == "bilingual"
        if c.objective == "bicvm":
            side1, index1, valid1, side2, index2, valid2 = mine_noise(text1, text2, bilingual, c.noise_samples, rng)
        else:
            g1, g2 = encoder.encode(text1, batch_size=2048), encoder.encode(text2, batch_size=2048)
            side1, index1, valid1, side2, index2, valid2 = (
                x[:, None] for x in mine_megabatch(g1, g2, text1, text2, bilingual, c.negatives, rng, c.distance))
        sides = {1: text1, 2: text2}
        negatives1 = [[sides[s][i] for s, i in zip(row_side, row)] for row_side, row in zip(side1, index1)]
        negatives2 = [[sides[s][i] for s, i in zip(row_side, row)] for row_side, row in zip(side2, index2)]
        encoder.train()
        losses = []
        for start in range(0, len(chunk), c.batch_size):
            end = min(start + c.batch_size, len(chunk))
            batch = PairBatch(text1[start:end], text2[start:end], negatives1[start:end], negatives2[start:end],
                              valid1[start:end], valid2[start:end])
            optimizer.zero_grad()
            loss = objective(batch)
            loss.backward()
            total = loss.item()
            for regularizer in regularizers:
                penalty = regularizer()
                if penalty.requires_grad:
                    penalty.backward()
                total += penalty.item()
            optimizer.step()
            losses.append(total)
        return losses

    def _log_dev(self, encoder, state, metrics) -> None:
        c = self.config
        if not c.dev_sts_dir:
            return
        from paranmt.models.evaluation.sts import evaluate

        results, _ = evaluate(encoder.encode, c.dev_sts_dir, c.dev_datasets)
        record = {"step": state["step"], "epoch": state["epoch"],
                  "dev": {r.dataset: round(100 * r.pearson, 2) for r in results}}
        metrics.write(json.dumps(record) + "\n")
        metrics.flush()
        log.info("epoch %d dev STS: %s", state["epoch"], record["dev"])
