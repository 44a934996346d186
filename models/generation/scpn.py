"""The SCPN architecture (Iyyer et al. 2018; thesis §6.3.1, SPEC §7), for all three tasks.

    source units x_1..x_S ──embed──► BiLSTM ──► H = h_1..h_S                        (sentence encoder)
    condition tokens ──embed──► BiLSTM ──► Q = q_1..q_P        (parse encoder; AMBIG: the papers name none;
                                                               a 1-layer BiLSTM over the parse tokens)
    decoder (`decoder_layers` >= 2 LSTM layers), step t:
        s_t   = LSTM_1(E y_{t-1}, s_{t-1})                                   bottom layer
        z_t   = sum_j softmax_j(s_tᵀ W_q q_j) q_j                           bilinear parse attention
        d_t   = LSTM_2..L([s_t; z_t], d_{t-1})                               upper layers: z_t is decoder input
        a_t   = softmax_i(d_tᵀ W_h h_i),  c_t = sum_i a_ti h_i               bilinear sentence attention
        o_t   = tanh(W_o [d_t; c_t])
        P_voc = softmax(W_v o_t)
        g_t   = sigmoid(w_g [d_t; c_t; E y_{t-1}; z_t])                     copy switch (See et al. 2017)
        P(y_t = w) = g_t P_voc(w) + (1 - g_t) sum_{i: x_i = w} a_ti
    The initial state of every decoder layer is tanh(W_init mean_i h_i) (cells 0).
AMBIG resolved: the query of the parse attention is the bottom decoder layer's current state s_t (the papers only
say z_t is an attention-weighted average of the encoded parse that is part of the decoder input); it carries the
decoding history like the previous top state would, and lets teacher-forced training run each layer as one fused
LSTM call over the whole target instead of a Python loop over time steps.
Source and target share one vocabulary and one embedding table (sentencepiece pieces for `scpn`/`plain`, parse
tokens for `parse-generator`), so copying needs no extended vocabulary (subword units leave no out-of-vocabulary
words). The `plain` task has no condition: no parse encoder, no z_t.

Loss: mean negative log-likelihood per target unit (EOS included). Decoding: batched beam search; a hypothesis'
score is its length-normalized log-probability, sum_t log P(y_t) / |y| with EOS counted in |y|. Outputs are cut at
min(`max_target_units`, 2 S + 10) units for a source of S units (fairseq's max_len_a/b idea); a cut hypothesis
has no EOS and is averaged over the units it has. With `no_repeat_ngram` = n > 0, a unit that would complete an
n-gram the hypothesis already holds gets probability 0 at that step (fairseq's no_repeat_ngram_size; EOS is
never blocked). On CPU the results are deterministic.
Fusion (`fusion=(network, weight)`, weight w > 0): shallow fusion (Gulcehre et al. 2015) with a second network of
the same units, in practice a plain paraphraser P_f(y | x) trained on real pairs: each beam step scores a unit by
    log P(y_t | x, p, y_<t) + w log P_f(y_t | x, y_<t)
and a finished hypothesis' score is the sum of those over its units divided by (1 + w) |y|, so w = 0 is the plain
SCPN score. SCPN asks for the template, P_f for a sentence that a paraphraser of real pairs would write: on 300
wmt-bt test sentences x 10 templates, the kept outputs read as fluent went from 1 in 4 to about 1 in 2
(docs/paraphrase.md, Fusion).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn

from paranmt.models.files import reading
from paranmt.models.generation.paraphraser import DESCRIPTOR, Paraphraser
from paranmt.models.generation.units import BOS, EOS, PAD, ParseUnits, SentencePieceUnits, balance_parse
from paranmt.models.recurrence import bucketed_lstm, cpu_autocast_lstm, length_buckets, lstm_states

ENCODER_BUCKET_ROWS = 16    # rows per length bucket of the encoders (measured: BiLSTMEncoder's docstring)
DECODER_BUCKET_ROWS = 16    # rows per length bucket of the teacher-forced decoder (measured: SCPN.loss)


@dataclass
class SCPNSizes:
    vocab: int
    condition_vocab: int = 0           # 0: no condition (plain task)
    embed_dim: int = 256
    hidden: int = 384                  # encoder output size (BiLSTM: hidden / 2 per direction) and decoder size
    parse_embed_dim: int = 64
    parse_hidden: int = 128            # parse encoder output size (BiLSTM: parse_hidden / 2 per direction)
    decoder_layers: int = 2
    dropout: float = 0.2
    copy: bool = True

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)


class BiLSTMEncoder(nn.Module):
    """The sentence and parse encoders: h_i = [forward LSTM state ; backward LSTM state] at each real position i of
    a row (hidden / 2 per direction; the backward direction starts at the row's last real unit), 0 at the padding;
    a row of length 0 runs over its first position. How it runs: in length buckets of ENCODER_BUCKET_ROWS rows of
    padded input (models/recurrence.py), so that on the CPU torch runs oneDNN's fused LSTM layer instead of a packed
    sequence's step loop; the same states as the LSTM over the rows as a packed sequence. Bucket size, measured
    (both encoders, forward + backward, 1 thread, CPU-s a batch of 64 wmt-bt instances; benchmarks/RESULTS.md,
    "Trainers at the machine's limit"): on the trainer's length-grouped batches 8 rows 0.34, 16 rows 0.27, 32 rows
    0.27, 64 rows 0.31, the packed sequence 0.73; on batches of instances in random order 8 rows
    0.35, 16 rows 0.34, 32 rows 0.40, 64 rows (the whole batch padded to its longest) 0.62, packed 0.97."""

    def __init__(self, embed_dim: int, hidden: int):
        super().__init__()
        if hidden % 2:
            raise ValueError(f"BiLSTM output size must be even, got {hidden}")
        self.lstm = nn.LSTM(embed_dim, hidden // 2, batch_first=True, bidirectional=True)

    def forward(self, embedded: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        """embedded (B, S, embed_dim), lengths (B) -> states (B, S, hidden)."""
        lengths = lengths.cpu()
        buckets, inverse = length_buckets(lengths, ENCODER_BUCKET_ROWS)
        total, device = embedded.size(1), embedded.device
        parts = [F.pad(lstm_states(self.lstm, embedded[rows.to(device), :longest], lengths[rows]),
                       (0, 0, 0, total - longest)) for rows, longest in buckets]
        return torch.cat(parts)[inverse.to(device)]


def masked_softmax(scores: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """softmax over the last axis where `mask` is True (0 elsewhere); the fill is the dtype's lowest value, so
    that half-precision scores (fp16 autocast on a GPU) do not overflow."""
    return torch.softmax(scores.masked_fill(~mask, torch.finfo(scores.dtype).min), dim=-1)


class SCPN(nn.Module):
    def __init__(self, sizes: SCPNSizes):
        super().__init__()
        if sizes.decoder_layers < 2:
            raise ValueError("the SCPN decoder needs decoder_layers >= 2 (z_t enters above the bottom layer)")
        self.sizes = s = sizes
        self.embed = nn.Embedding(s.vocab, s.embed_dim, padding_idx=PAD)
        self.encoder = BiLSTMEncoder(s.embed_dim, s.hidden)
        self.has_condition = s.condition_vocab > 0
        z_dim = s.parse_hidden if self.has_condition else 0
        if self.has_condition:
            self.parse_embed = nn.Embedding(s.condition_vocab, s.parse_embed_dim, padding_idx=PAD)
            self.parse_encoder = BiLSTMEncoder(s.parse_embed_dim, s.parse_hidden)
            self.parse_attention = nn.Linear(s.hidden, s.parse_hidden, bias=False)      # W_q
        self.init_state = nn.Linear(s.hidden, s.hidden)
        self.bottom = nn.LSTM(s.embed_dim, s.hidden, batch_first=True)
        self.top = nn.LSTM(s.hidden + z_dim, s.hidden, num_layers=s.decoder_layers - 1, batch_first=True,
                           dropout=s.dropout if s.decoder_layers > 2 else 0.0)
        self.attention = nn.Linear(s.hidden, s.hidden, bias=False)                         # W_h
        self.combine = nn.Linear(2 * s.hidden, s.hidden)                                   # W_o
        self.output = nn.Linear(s.hidden, s.vocab)                                         # W_v
        self.copy_switch = nn.Linear(2 * s.hidden + s.embed_dim + z_dim, 1) if s.copy else None
        self.dropout = nn.Dropout(s.dropout)

    # -- encoding ------------------------------------------------------------------------------------------
    def encode(self, source: torch.Tensor, condition: torch.Tensor | None) -> dict:
        """source (B, S), condition (B, P) or None -> the encoder memory of the batch and the initial decoder
        state (`bottom`, `top`: (h, c) with layers first)."""
        source_mask = source != PAD
        states = self.encoder(self.dropout(self.embed(source)), source_mask.sum(1))
        memory = {"source": source, "states": states, "mask": source_mask}
        if self.has_condition:
            condition_mask = condition != PAD
            memory["parse_states"] = self.parse_encoder(self.dropout(self.parse_embed(condition)),
                                                        condition_mask.sum(1))
            memory["parse_mask"] = condition_mask
        mean = (states * source_mask.unsqueeze(-1)).sum(1) / source_mask.sum(1, keepdim=True).clamp(min=1)
        start = torch.tanh(self.init_state(mean)).unsqueeze(0)
        memory["bottom"] = (start.contiguous(), torch.zeros_like(start))
        top = start.expand(self.sizes.decoder_layers - 1, -1, -1).contiguous()
        memory["top"] = (top, torch.zeros_like(top))
        return memory

    @staticmethod
    def select(memory: dict, index: torch.Tensor) -> dict:
        """The memory of the batch rows `index` (beam search reorders and repeats rows)."""
        out = {}
        for key, value in memory.items():
            if key in ("bottom", "top"):
                out[key] = tuple(v.index_select(1, index) for v in value)
            else:
                out[key] = value.index_select(0, index)
        return out

    # -- the decoder over T steps at once (teacher forcing) or one step (T = 1) ------------------------------
    def decoder_outputs(self, memory: dict, previous: torch.Tensor, lengths: torch.Tensor | None = None) \
            -> tuple[torch.Tensor, torch.Tensor | None, torch.Tensor, dict]:
        """previous (B, T) unit ids -> (o_t (B, T, hidden) after dropout, the copy switch g_t (B, T, 1) or None
        without copy, the sentence attention a_t (B, T, S), memory with the state after step T): everything of
        P(y_t) but the vocabulary layer W_v. With `lengths` (B, on the CPU; teacher forcing, no state after step T
        in the memory): the decoder's LSTMs in length buckets of DECODER_BUCKET_ROWS rows (`bucketed_lstm`), so
        the outputs are those of the whole batch at each row's first lengths[row] positions only."""
        def run(lstm, x, state):                    # (outputs, final state; None when bucketed)
            if lengths is None:
                return cpu_autocast_lstm(lstm, x, state)
            return bucketed_lstm(lstm, x, state, lengths, DECODER_BUCKET_ROWS), None

        embedded = self.dropout(self.embed(previous))
        bottom, bottom_state = run(self.bottom, embedded, memory["bottom"])
        inputs = [embedded]
        upper = self.dropout(bottom)
        if self.has_condition:
            scores = torch.bmm(self.parse_attention(bottom), memory["parse_states"].transpose(1, 2))
            z = torch.bmm(masked_softmax(scores, memory["parse_mask"].unsqueeze(1)), memory["parse_states"])
            inputs.append(z)
            upper = torch.cat([upper, z], dim=2)
        top, top_state = run(self.top, upper, memory["top"])
        scores = torch.bmm(self.attention(top), memory["states"].transpose(1, 2))
        weights = masked_softmax(scores, memory["mask"].unsqueeze(1))                  # (B, T, S)
        context = torch.bmm(weights, memory["states"])
        combined = self.dropout(torch.tanh(self.combine(torch.cat([top, context], dim=2))))
        switch = torch.sigmoid(self.copy_switch(torch.cat([top, context] + inputs, dim=2))) \
            if self.copy_switch is not None else None
        return combined, switch, weights, dict(memory, bottom=bottom_state, top=top_state)

    def decode(self, memory: dict, previous: torch.Tensor) -> tuple[torch.Tensor, dict]:
        """previous (B, T) unit ids -> (log P(y_t) (B, T, V), memory with the state after step T)."""
        combined, switch, weights, memory = self.decoder_outputs(memory, previous)
        vocabulary = torch.softmax(self.output(combined), dim=-1)
        if switch is not None:
            source = memory["source"].unsqueeze(1).expand(-1, previous.size(1), -1)
            copied = torch.zeros_like(vocabulary).scatter_add_(2, source, weights)
            probabilities = switch * vocabulary + (1 - switch) * copied
        else:
            probabilities = vocabulary
        return torch.log(probabilities.clamp(min=1e-12)), memory

    # -- training ------------------------------------------------------------------------------------------
    def loss(self, source: torch.Tensor, condition: torch.Tensor | None, target: torch.Tensor) -> torch.Tensor:
        """Mean NLL per target unit; target (B, T) ends with EOS, padded with PAD (teacher forcing). The same
        value as gathering the target's log P(y_t) from `decode`'s (B, T, V), computed at the target units only
        (the CPU step's cost was that elementwise work over [B, T, V]; benchmarks/RESULTS.md, "train-paraphraser
        scpn"): W_v and its log-softmax over the real (non-PAD) positions alone, P_voc(y_t) = exp of the
        log-softmax at y_t, the copy term sum_{i: x_i = y_t} a_ti as a (B, T, S) sum, the mixture and the
        1e-12 floor of `decode` on the target's probability; the decoder's LSTMs in length buckets of
        DECODER_BUCKET_ROWS rows (`decoder_outputs`; not in training with dropout between upper layers, whose
        draws would differ). Measured at the shipped recipe's sizes (batch 128, 1 thread, CPU-s an update, the
        mean of 6 alternating runs): the LSTMs over the whole padded batch 2.65, buckets of 16 rows 2.44."""
        memory = self.encode(source, condition)
        previous = torch.cat([torch.full_like(target[:, :1], BOS), target[:, :-1]], dim=1)
        mask = target != PAD
        lengths = mask.sum(1).cpu() if not (self.training and self.top.dropout) else None
        combined, switch, weights, _ = self.decoder_outputs(memory, previous, lengths)
        gold = target[mask]
        vocabulary = torch.log_softmax(self.output(combined[mask]), dim=-1).gather(1, gold.unsqueeze(1)).squeeze(1)
        probabilities = vocabulary.exp()
        if switch is not None:
            copied = (weights * (memory["source"].unsqueeze(1) == target.unsqueeze(2))).sum(2)[mask]
            gate = switch.squeeze(2)[mask]
            probabilities = gate * probabilities + (1 - gate) * copied
        return -torch.log(probabilities.clamp(min=1e-12)).sum() / mask.sum().clamp(min=1)

    # -- decoding ------------------------------------------------------------------------------------------
    @torch.no_grad()
    def beam_search(self, source: torch.Tensor, condition: torch.Tensor | None, beam: int, n_best: int,
                    max_lengths: list[int], no_repeat_ngram: int = 0,
                    fusion: tuple["SCPN", float] | None = None) -> list[list[tuple[list[int], float]]]:
        """Per batch row: up to n_best (units without EOS, length-normalized log-probability), best first.
        Row b's hypotheses stop at max_lengths[b] units (then they are taken as they are, without EOS);
        `no_repeat_ngram` > 0 blocks repeated n-grams; `fusion` = (network without condition over the same units,
        weight): shallow fusion (module docstring)."""
        batch = source.size(0)
        beam = max(beam, n_best, 1)
        rows_of_batch = torch.arange(batch, device=source.device).repeat_interleave(beam)
        memory = self.select(self.encode(source, condition), rows_of_batch)
        fused, weight = fusion if fusion else (None, 0.0)
        fused_memory = fused.select(fused.encode(source, None), rows_of_batch) if fused else None
        scores = torch.full((batch, beam), float("-inf"), device=source.device)
        scores[:, 0] = 0.0
        scores = scores.view(-1)
        previous = torch.full((batch * beam,), BOS, dtype=torch.long, device=source.device)
        histories: list[list[int]] = [[] for _ in range(batch * beam)]
        finished: list[list[tuple[list[int], float]]] = [[] for _ in range(batch)]
        done = [False] * batch
        for t in range(max(max_lengths)):
            log_probs, memory = self.decode(memory, previous.unsqueeze(1))
            log_probs = log_probs.squeeze(1)
            if fused is not None:
                fused_log_probs, fused_memory = fused.decode(fused_memory, previous.unsqueeze(1))
                log_probs = log_probs + weight * fused_log_probs.squeeze(1)
            if no_repeat_ngram:
                block_repeats(log_probs, histories, no_repeat_ngram)
            vocab = log_probs.size(1)
            candidates = (scores.unsqueeze(1) + log_probs).view(batch, beam * vocab)
            top_scores, top_index = candidates.topk(min(2 * beam, beam * vocab), dim=1)
            top_scores, top_index = top_scores.tolist(), top_index.tolist()
            rows, tokens, new_scores, new_histories = [], [], [], []
            for b in range(batch):
                kept = 0
                for score, index in zip(top_scores[b], top_index[b]):
                    if kept == beam:
                        break
                    row, token = b * beam + index // vocab, index % vocab
                    if score == float("-inf"):
                        break
                    if token == EOS:
                        if not done[b]:
                            finished[b].append((histories[row], score / ((t + 1) * (1 + weight))))
                        continue
                    rows.append(row)
                    tokens.append(token)
                    new_scores.append(score if not done[b] else float("-inf"))
                    new_histories.append(histories[row] + [token])
                    kept += 1
                while kept < beam:                          # keep the shape: dead rows
                    rows.append(b * beam)
                    tokens.append(EOS)
                    new_scores.append(float("-inf"))
                    new_histories.append([])
                    kept += 1
                if len(finished[b]) >= beam:
                    done[b] = True
                elif t + 1 >= max_lengths[b]:                  # cut: the live hypotheses as they are
                    for row in range(len(rows) - beam, len(rows)):
                        if new_scores[row] != float("-inf"):
                            finished[b].append((new_histories[row],
                                                new_scores[row] / (len(new_histories[row]) * (1 + weight))))
                    done[b] = True
            if all(done):
                break
            index = torch.tensor(rows, device=source.device)
            memory = self.select(memory, index)
            if fused is not None:
                fused_memory = fused.select(fused_memory, index)
            previous = torch.tensor(tokens, device=source.device)
            scores = torch.tensor(new_scores, device=source.device)
            histories = new_histories
        return [sorted(found, key=lambda item: -item[1])[:n_best] for found in finished]


def block_repeats(log_probs: torch.Tensor, histories: list[list[int]], n: int) -> None:
    """In place: log P = -inf for every unit that would complete an n-gram already in its row's history."""
    rows, units = [], []
    for row, history in enumerate(histories):
        if len(history) < n - 1:
            continue
        prefix = tuple(history[len(history) - n + 1:])
        for start in range(len(history) - n + 1):
            if tuple(history[start:start + n - 1]) == prefix:
                rows.append(row)
                units.append(history[start + n - 1])
    if rows:
        log_probs[rows, units] = float("-inf")


# -- the paraphraser around the network ------------------------------------------------------------------------
WEIGHTS_FILE = "model.safetensors"
CONDITION_UNITS = "condition_units.json"


def pad(sequences: list[list[int]], device: str) -> torch.Tensor:
    width = max(1, max(len(s) for s in sequences))
    return torch.tensor([s + [PAD] * (width - len(s)) for s in sequences], dtype=torch.long, device=device)


class SCPNParaphraser(Paraphraser):
    """An `SCPN` network with its units (module docstring). settings: the SCPNSizes fields plus
    `max_source_units`, `max_target_units` (longer inputs / outputs are cut)."""

    arch = "scpn"

    def __init__(self, task, templates, settings, network: SCPN, units, condition_units: ParseUnits | None,
                 device: str = "cpu"):
        super().__init__(task, templates, settings, device)
        self.network = network
        self.units = units
        self.condition_units = condition_units

    @classmethod
    def create(cls, task: str, instances, templates, vocab_size: int = 8000, max_source_units: int = 100,
               max_target_units: int = 100, units: SentencePieceUnits | None = None,
               **sizes) -> "SCPNParaphraser":
        """A new, randomly initialized model whose units are trained on `instances` (Instance objects), or are
        `units` (sentence tasks: another model's, so that the two can be fused in decoding)."""
        if task == "parse-generator":
            units = ParseUnits.train([i.source for i in instances] + [i.target for i in instances])
        elif units is None:
            units = SentencePieceUnits.train([i.target for i in instances] + [i.source for i in instances],
                                             vocab_size)
        condition_units = ParseUnits.train([i.condition for i in instances if i.condition]) \
            if task != "plain" else None
        network = SCPN(SCPNSizes(vocab=len(units), condition_vocab=len(condition_units) if condition_units else 0,
                                 **sizes))
        settings = dict(network.sizes.as_dict(), max_source_units=max_source_units,
                        max_target_units=max_target_units, units=units.kind)
        return cls(task, templates, settings, network, units, condition_units)

    @property
    def module(self):
        return self.network

    def _tensors(self, sources, conditions):
        source = pad([self.units.encode(s)[: self.settings["max_source_units"]] for s in sources], self.device)
        condition = None
        if self.condition_units is not None:
            condition = pad([self.condition_units.encode(c)[:400] for c in conditions], self.device)
        return source, condition

    def loss(self, instances) -> torch.Tensor:
        source, condition = self._tensors([i.source for i in instances], [i.condition for i in instances])
        limit = self.settings["max_target_units"]
        target = pad([self.units.encode(i.target)[: limit - 1] + [EOS] for i in instances], self.device)
        return self.network.loss(source, condition, target)

    def _generate_batch(self, sources, conditions, beam, n_best, no_repeat_ngram, fusion):
        source, condition = self._tensors(sources, conditions)
        limits = [min(self.settings["max_target_units"], 2 * length + 10)
                  for length in (source != PAD).sum(1).tolist()]
        if fusion is not None:
            model, weight = fusion
            if not isinstance(model, SCPNParaphraser) or model.task != "plain" or \
                    model.units.model != self.units.model:
                raise ValueError("fusion needs a plain paraphraser of arch scpn on the same units")
            fusion = (model.network.eval(), weight)
        found = self.network.beam_search(source, condition, beam, n_best, limits, no_repeat_ngram, fusion)
        decode = (lambda ids: balance_parse(self.units.decode(ids))) if self.task == "parse-generator" \
            else self.units.decode
        return [[(decode(ids), float(score)) for ids, score in hypotheses] for hypotheses in found]

    def save_weights(self, directory: Path, dtype: str = "float32") -> None:
        from safetensors.torch import save_file

        state = {k: (v.half() if dtype == "float16" and v.is_floating_point() else v).detach().cpu().contiguous()
                 for k, v in self.network.state_dict().items()}
        save_file(state, str(directory / WEIGHTS_FILE))
        self.units.save(directory)
        if self.condition_units is not None:
            self.condition_units.save(directory, CONDITION_UNITS)

    @classmethod
    def load(cls, directory: Path, descriptor: dict, templates) -> "SCPNParaphraser":
        from safetensors.torch import load_file

        with reading(directory / DESCRIPTOR, "paraphraser descriptor"):
            settings = descriptor["model"]
            sizes = SCPNSizes(**{f.name: settings[f.name] for f in dataclasses.fields(SCPNSizes)})
            network = SCPN(sizes)
        units = ParseUnits.load(directory) if settings.get("units") == ParseUnits.kind else \
            SentencePieceUnits.load(directory)
        condition_units = ParseUnits.load(directory, CONDITION_UNITS) if descriptor["task"] != "plain" else None
        with reading(directory / WEIGHTS_FILE, "safetensors weights file"):
            state = {k: v.float() if v.is_floating_point() else v
                     for k, v in load_file(str(directory / WEIGHTS_FILE)).items()}
            network.load_state_dict(state)
        return cls(descriptor["task"], templates, settings, network.eval(), units, condition_units)
