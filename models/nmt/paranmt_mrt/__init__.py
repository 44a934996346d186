"""fairseq user directory of paranmt: the `mrt` criterion (minimum risk training with SIMILE / BLEU costs).

Loaded by fairseq-train with `--user-dir <this folder> --criterion mrt` (the NMT recipe's `mrt` step does that;
models/nmt/recipe.py). The formulas are in paranmt.models.nmt.mrt. Per training batch:

1. the label-smoothed token loss of the references (teacher forcing), averaged over target tokens;
2. the n-best list of every source by beam search with the current model (eval mode, no gradient), the
   reference itself removed (`U(x)`);
3. the costs of the hypotheses against the reference (detokenized: sentencepiece pieces joined);
4. the hypotheses scored again by the model in training mode, with gradients: log p(u|x) = Σ token log-probs;
5. loss = γ · token loss + (1 − γ) · mean over sentences of Σ_u cost(u) softmax(log p)(u).
The loss is already normalized, so the sample size is 1. Sentences whose n-best list is empty after removing the
reference contribute no risk.
"""
# (no `from __future__ import annotations`: fairseq reads the config dataclass field types at run time)

import math
from dataclasses import dataclass, field

import torch
from fairseq import metrics, utils
from fairseq.criterions import FairseqCriterion, register_criterion
from fairseq.criterions.label_smoothed_cross_entropy import label_smoothed_nll_loss
from fairseq.dataclass import FairseqDataclass
from fairseq.dataclass.configs import GenerationConfig

from paranmt.models.nmt.mrt import RiskCost, expected_risk


@dataclass
class MinimumRiskConfig(FairseqDataclass):
    mrt_cost: str = field(default="simile", metadata={"help": "simile | bleu | both"})
    mrt_gamma: float = field(default=0.3, metadata={"help": "weight of the token-level loss"})
    mrt_nbest: int = field(default=8, metadata={"help": "beam size = n-best list size"})
    mrt_simile_encoder: str = field(default="assets/encoder-sp", metadata={"help": "SIMILE's encoder directory"})
    mrt_max_len_b: int = field(default=100, metadata={"help": "n-best hypotheses are at most this long"})
    label_smoothing: float = field(default=0.1, metadata={"help": "epsilon of the token-level loss"})


@register_criterion("mrt", dataclass=MinimumRiskConfig)
class MinimumRiskCriterion(FairseqCriterion):
    def __init__(self, task, mrt_cost, mrt_gamma, mrt_nbest, mrt_simile_encoder, mrt_max_len_b, label_smoothing):
        super().__init__(task)
        scorer = None
        if mrt_cost != "bleu":
            from paranmt.models.encoders import load_encoder
            from paranmt.models.scoring.simile import SimileScorer
            from paranmt.schemas.paths import asset_path

            scorer = SimileScorer(load_encoder(asset_path(mrt_simile_encoder)))
        self.cost = RiskCost(mrt_cost, scorer)
        self.gamma, self.nbest, self.eps = mrt_gamma, mrt_nbest, label_smoothing
        self.generation = GenerationConfig(beam=mrt_nbest, nbest=mrt_nbest, max_len_b=mrt_max_len_b)
        self.generator = None

    def _text(self, tokens: torch.Tensor) -> str:
        return self.task.target_dictionary.string(utils.strip_pad(tokens, self.padding_idx), "sentencepiece")

    def risk(self, model, sample) -> tuple[torch.Tensor, int]:
        """Summed expected risk of the batch's sentences, and the number of sentences that had hypotheses."""
        if self.generator is None:
            self.generator = self.task.build_generator([model], self.generation)
        model.eval()
        with torch.no_grad():
            hypotheses = self.generator.generate([model], sample)
        model.train()
        net_input, eos = sample["net_input"], self.task.target_dictionary.eos()
        rows, candidates, texts, references = [], [], [], []
        for i, nbest in enumerate(hypotheses):
            reference = utils.strip_pad(sample["target"][i], self.padding_idx)
            kept = [h["tokens"] for h in nbest if not torch.equal(h["tokens"], reference)]
            rows += [i] * len(kept)
            candidates += kept
            texts += [self._text(t) for t in kept]
            references += [self._text(reference)] * len(kept)
        if not candidates:
            return torch.zeros((), device=net_input["src_tokens"].device), 0
        costs = torch.tensor(self.cost(texts, references), dtype=torch.float, device=candidates[0].device)
        width = max(len(t) for t in candidates)
        target = candidates[0].new_full((len(candidates), width), self.padding_idx)
        previous = candidates[0].new_full((len(candidates), width), self.padding_idx)
        for row, tokens in enumerate(candidates):
            target[row, :len(tokens)] = tokens
            previous[row, 0] = eos                                   # fairseq: decoder input starts with EOS
            previous[row, 1:len(tokens)] = tokens[:-1]
        index = torch.tensor(rows, device=target.device)
        output = model(net_input["src_tokens"][index], net_input["src_lengths"][index], previous)
        log_probs = model.get_normalized_probs(output, log_probs=True).gather(-1, target[..., None]).squeeze(-1)
        sequence = log_probs.masked_fill(target.eq(self.padding_idx), 0.0).sum(-1)
        total, sentences = sequence.new_zeros(()), 0
        for i in sorted(set(rows)):
            members = index.eq(i)
            total = total + expected_risk(sequence[members], costs[members])
            sentences += 1
        return total, sentences

    def forward(self, model, sample, reduce=True):
        output = model(**sample["net_input"])
        log_probs = model.get_normalized_probs(output, log_probs=True)
        target = model.get_targets(sample, output)
        token_loss, nll_loss = label_smoothed_nll_loss(log_probs.view(-1, log_probs.size(-1)), target.view(-1),
                                                       self.eps, ignore_index=self.padding_idx, reduce=True)
        ntokens, nsentences = sample["ntokens"], target.size(0)
        loss = self.gamma * token_loss / ntokens
        risk, scored = torch.zeros(()), 0
        if model.training and self.gamma < 1:
            risk, scored = self.risk(model, sample)
            loss = loss + (1 - self.gamma) * risk / nsentences
        logging = {"loss": loss.data, "nll_loss": nll_loss.data, "risk": float(risk.detach()), "risk_sentences": scored,
                   "ntokens": ntokens, "nsentences": nsentences, "sample_size": 1}
        return loss, 1, logging

    @staticmethod
    def reduce_metrics(logging_outputs) -> None:
        total = lambda key: sum(log.get(key, 0) for log in logging_outputs)  # noqa: E731
        batches, ntokens = max(total("sample_size"), 1), max(total("ntokens"), 1)
        metrics.log_scalar("loss", total("loss") / batches, batches, round=4)
        metrics.log_scalar("nll_loss", total("nll_loss") / ntokens / math.log(2), ntokens, round=4)
        metrics.log_derived("ppl", lambda meters: utils.get_perplexity(meters["nll_loss"].avg))
        if total("risk_sentences"):
            metrics.log_scalar("risk", total("risk") / total("risk_sentences"), total("risk_sentences"), round=4)

    @staticmethod
    def logging_outputs_can_be_summed() -> bool:
        return False
