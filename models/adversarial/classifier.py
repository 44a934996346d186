"""The victim of the adversarial experiment: the BiLSTM baseline of Tai et al. (2015), as in thesis §6.5.

Sentence encoder: word embeddings (lowercased Moses tokens of the training examples; words seen fewer than
`min_count` times and unseen words share <unk>) -> one-layer bidirectional LSTM; the sentence vector h is the
concatenation of the forward LSTM's last state and the backward LSTM's last state (Tai et al.'s Bidirectional LSTM).
Heads (Tai et al. §5):
* one sentence (sentiment): p = softmax(W h + b);
* a pair (entailment, SICK-E): h_x = h_L * h_R, h_+ = |h_L - h_R|, h_s = sigmoid(W_x h_x + W_+ h_+ + b_h),
  p = softmax(W_p h_s + b_p).
Trained with cross-entropy (NLL of the softmax), Adam, mini-batches in a seeded order; deterministic for a seed
on CPU. The thesis initialized embeddings with GloVe and used hidden size 300; no GloVe is here, so embeddings
start random, and the sizes default small for CPU (`ClassifierConfig`; AMBIG: documented in docs/paraphrase.md).
"""
from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from paranmt.models.adversarial.tasks import Example
from paranmt.models.device import select_device
from paranmt.models.recurrence import lstm_states
from paranmt.models.text.tokenize import lowercase_tokens
from paranmt.schemas.config import DEVICES, Config, bounded, check_ranges, fixed

LOG = logging.getLogger(__name__)
PAD, UNK = "<pad>", "<unk>"


@dataclass
class ClassifierConfig(Config):
    """The classifier's settings (typed and ranged: a section of `paranmt adversarial`'s config)."""
    dim: int = bounded(100, 1, help="classifier word embedding size")
    hidden: int = bounded(100, 1, help="classifier LSTM size per direction")
    head: int = bounded(50, 1, flag={"name": "--classifier-head"}, help="classifier pair head size (Tai et al.: 50)")
    epochs: int = bounded(5, 1, help="classifier training epochs")
    batch_size: int = bounded(25, 1, flag={"name": "--classifier-batch-size"}, help="classifier examples per update")
    lr: float = bounded(1e-3, 0, open_low=True, flag={"name": "--classifier-lr"}, help="classifier learning rate")
    min_count: int = bounded(1, 1, flag={"name": "--classifier-min-count"}, help="classifier vocabulary: words seen "
                             "at least this often")
    seed: int = fixed(1)                # the command's: paranmt adversarial's seed
    device: str = fixed("auto", DEVICES)   # auto | cpu | cuda (models/device.select_device): adversarial's generators'

    def validate(self, where: str = "") -> "ClassifierConfig":
        """ConfigError naming the key (`where` its section, e.g. `classifier.`) of a value out of range."""
        check_ranges(self, where)
        return self


class Vocabulary:
    def __init__(self, words: list[str]):
        self.words = [PAD, UNK] + [w for w in words if w not in (PAD, UNK)]
        self.index = {w: i for i, w in enumerate(self.words)}

    @classmethod
    def build(cls, sentences, min_count: int) -> "Vocabulary":
        counts = Counter(token for sentence in sentences for token in lowercase_tokens(sentence))
        return cls(sorted(w for w, c in counts.items() if c >= min_count))

    def ids(self, sentence: str) -> list[int]:
        """Token ids (an empty sentence is one <unk>, so every sentence has a state)."""
        return [self.index.get(token, 1) for token in lowercase_tokens(sentence)] or [1]


class BiLSTMClassifier(nn.Module):
    def __init__(self, vocab_size: int, classes: int, pair: bool, config: ClassifierConfig):
        super().__init__()
        self.pair = pair
        self.embed = nn.Embedding(vocab_size, config.dim, padding_idx=0)
        self.lstm = nn.LSTM(config.dim, config.hidden, batch_first=True, bidirectional=True)
        if pair:
            self.combine = nn.Linear(4 * config.hidden, config.head)     # [W_x W_+] over [h_x; h_+]
            self.out = nn.Linear(config.head, classes)
        else:
            self.out = nn.Linear(2 * config.hidden, classes)

    def encode(self, ids: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        """[B, T] padded ids, [B] lengths -> [B, 2 * hidden]: last forward state ; last backward state (the
        backward direction's state at the first position, having read the row from its last real word). Run on
        padded input, torch's fused LSTM layer on the CPU (models/recurrence.py)."""
        lengths = lengths.cpu()
        states = lstm_states(self.lstm, self.embed(ids), lengths)
        hidden = self.lstm.hidden_size
        last = states[torch.arange(len(lengths)), lengths.clamp_min(1) - 1, :hidden]
        return torch.cat([last, states[:, 0, hidden:]], dim=-1)

    def forward(self, sides: list[tuple[torch.Tensor, torch.Tensor]]) -> torch.Tensor:
        """Logits [B, classes] for one (ids, lengths) per sentence slot."""
        states = [self.encode(ids, lengths) for ids, lengths in sides]
        if not self.pair:
            return self.out(states[0])
        left, right = states
        return self.out(torch.sigmoid(self.combine(torch.cat([left * right, (left - right).abs()], dim=-1))))


class TextClassifier:
    """A trained BiLSTM classifier with its vocabulary: `fit(examples)`, `predict(examples)`, `accuracy(...)`."""

    def __init__(self, classes: int, pair: bool, config: ClassifierConfig | None = None):
        self.classes, self.pair = classes, pair
        self.config = (config or ClassifierConfig()).validate()
        self.device = torch.device(select_device(self.config.device).kind)
        self.vocab: Vocabulary | None = None
        self.model: BiLSTMClassifier | None = None

    def _batch(self, examples: list[Example]) -> list[tuple[torch.Tensor, torch.Tensor]]:
        sides = []
        for slot in range(2 if self.pair else 1):
            ids = [self.vocab.ids(example.sentences[slot]) for example in examples]
            lengths = torch.tensor([len(i) for i in ids])
            padded = torch.zeros(len(ids), int(lengths.max()), dtype=torch.long)
            for row, sequence in enumerate(ids):
                padded[row, :len(sequence)] = torch.tensor(sequence)
            sides.append((padded.to(self.device), lengths))
        return sides

    def fit(self, examples: list[Example]) -> "TextClassifier":
        """Train from scratch on `examples` (a new vocabulary from their sentences)."""
        if not examples:
            raise ValueError("no training examples")
        c = self.config
        torch.manual_seed(c.seed)
        self.vocab = Vocabulary.build((s for e in examples for s in e.sentences), c.min_count)
        self.model = BiLSTMClassifier(len(self.vocab.words), self.classes, self.pair, c).to(self.device)
        optimizer = torch.optim.Adam(self.model.parameters(), lr=c.lr)
        labels = torch.tensor([e.label for e in examples], device=self.device)
        for epoch in range(c.epochs):
            self.model.train()
            order = np.random.default_rng(c.seed + epoch).permutation(len(examples))
            total = 0.0
            for start in range(0, len(order), c.batch_size):
                index = order[start:start + c.batch_size]
                loss = nn.functional.cross_entropy(self.model(self._batch([examples[i] for i in index])),
                                                   labels[torch.as_tensor(index, device=self.device)])
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                total += loss.item() * len(index)
            LOG.info("classifier epoch %d/%d: loss %.4f on %d examples", epoch + 1, c.epochs,
                     total / len(examples), len(examples))
        return self

    @torch.no_grad()
    def predict(self, examples: list[Example], batch_size: int = 256) -> np.ndarray:
        """int64 [n] predicted label indices."""
        if self.model is None:
            raise RuntimeError("predict before fit")
        self.model.eval()
        predictions = [self.model(self._batch(examples[start:start + batch_size])).argmax(-1).cpu().numpy()
                       for start in range(0, len(examples), batch_size)]
        return np.concatenate(predictions) if predictions else np.zeros(0, np.int64)

    def accuracy(self, examples: list[Example]) -> float:
        """Share of `examples` predicted correctly (0.0 for none)."""
        if not examples:
            return 0.0
        return float((self.predict(examples) == np.array([e.label for e in examples])).mean())
