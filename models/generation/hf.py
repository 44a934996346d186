"""The `transformers` architecture: any Hugging Face encoder-decoder (BART, T5, Marian layout) as a paraphraser.

Input text: the source alone (`plain`), or `source <sep> condition` (`scpn`: sentence and linearized target parse;
`parse-generator`: linearized parse and template). AMBIG resolved: the condition is given as text after a
separator token, `<sep>` (`separator`), which is added to the tokenizer as a special token (and the embeddings
resized) when the vocabulary lacks it, so it is never split into pieces. The target is the paraphrase (or parse)
text, tokenized as the model's targets.
Models: `hf_model` = a local checkpoint directory (`save_pretrained` / hub snapshot) to fine-tune; without it a
Marian model of `hf_d_model`, `hf_layers`, `hf_heads`, `hf_ffn` is built from scratch with sentencepiece models
trained on the instances (models/nmt/hf_build.py, the project's builder of offline HF models).
Generation: `model.generate` with `num_beams = max(beam, n_best)`, `length_penalty = 1`: a hypothesis' score
is its summed log-probability over its generated tokens (EOS included) divided by their number, the
length-normalized log-probability of the scpn architecture; with one beam (greedy) the same mean is computed from
the per-step scores. `no_repeat_ngram` is transformers' `no_repeat_ngram_size` (0 = off).
"""
from __future__ import annotations

from pathlib import Path

import torch

from paranmt.models.files import reading
from paranmt.models.generation.paraphraser import Paraphraser
from paranmt.models.generation.units import balance_parse
from paranmt.models.nmt.hf import load_pretrained


class HFParaphraser(Paraphraser):
    arch = "transformers"

    def __init__(self, task, templates, settings, tokenizer, model, device: str = "cpu"):
        super().__init__(task, templates, settings, device)
        self.tokenizer = tokenizer
        self.model = model

    @classmethod
    def create(cls, task: str, instances, templates, config, work_dir: Path) -> "HFParaphraser":
        if config.hf_model:
            tokenizer, model = load_pretrained(config.hf_model)
            origin = {"fine_tuned_from": str(config.hf_model)}
        else:
            from paranmt.models.nmt.hf_build import build_hf_model

            sources = [text_input(i.source, i.condition, config.separator) for i in instances]
            targets = [i.target for i in instances]
            initial = build_hf_model("marian", str(work_dir / "initial"), sources, targets,
                                     vocab_size=config.vocab_size, d_model=config.hf_d_model,
                                     layers=config.hf_layers, heads=config.hf_heads, ffn=config.hf_ffn,
                                     seed=config.seed)
            tokenizer, model = load_pretrained(initial)
            origin = {"from_scratch": {"family": "marian", "d_model": config.hf_d_model, "layers": config.hf_layers,
                                       "heads": config.hf_heads, "ffn": config.hf_ffn}}
        if task != "plain" and config.separator not in tokenizer.get_vocab():
            tokenizer.add_special_tokens({"additional_special_tokens": [config.separator]})
            model.resize_token_embeddings(len(tokenizer))
        settings = dict(origin, separator=config.separator, max_source_units=config.max_source_units,
                        max_target_units=config.max_target_units, model_type=model.config.model_type)
        return cls(task, templates, settings, tokenizer, model)

    @property
    def module(self):
        return self.model

    def _encode(self, sources, conditions):
        texts = [text_input(s, c, self.settings["separator"]) for s, c in zip(sources, conditions)]
        encoded = self.tokenizer(texts, padding=True, truncation=True, max_length=self.settings["max_source_units"],
                                 return_tensors="pt")
        return {k: v.to(self.device) for k, v in encoded.items()}

    def loss(self, instances) -> torch.Tensor:
        inputs = self._encode([i.source for i in instances], [i.condition for i in instances])
        labels = self.tokenizer(text_target=[i.target for i in instances], padding=True, truncation=True,
                                max_length=self.settings["max_target_units"], return_tensors="pt")["input_ids"]
        labels = labels.masked_fill(labels == self.tokenizer.pad_token_id, -100).to(self.device)
        return self.model(**inputs, labels=labels).loss

    def _generate_batch(self, sources, conditions, beam, n_best, no_repeat_ngram, fusion):
        if fusion is not None:
            raise ValueError("fusion is implemented for arch scpn only")
        inputs = self._encode(sources, conditions)
        beams = max(beam, n_best)
        output = self.model.generate(**inputs, num_beams=beams, num_return_sequences=n_best, do_sample=False,
                                     length_penalty=1.0, early_stopping=True, output_scores=True,
                                     return_dict_in_generate=True, max_new_tokens=self.settings["max_target_units"],
                                     no_repeat_ngram_size=no_repeat_ngram)
        if beams > 1:
            scores = output.sequences_scores.tolist()
        else:
            steps = self.model.compute_transition_scores(output.sequences, output.scores, normalize_logits=True)
            generated = output.sequences[:, 1:] != self.tokenizer.pad_token_id
            scores = ((steps * generated).sum(1) / generated.sum(1).clamp(min=1)).tolist()
        texts = self.tokenizer.batch_decode(output.sequences, skip_special_tokens=True)
        if self.task == "parse-generator":
            texts = [balance_parse(t.replace(" ", "")) for t in texts]
        else:
            texts = [" ".join(t.split()) for t in texts]
        return [[(texts[i * n_best + k], float(scores[i * n_best + k])) for k in range(n_best)]
                for i in range(len(sources))]

    def save_weights(self, directory: Path, dtype: str = "float32") -> None:
        self.model.save_pretrained(str(directory))
        self.tokenizer.save_pretrained(str(directory))

    @classmethod
    def load(cls, directory: Path, descriptor: dict, templates) -> "HFParaphraser":
        with reading(directory, "Hugging Face model directory (config.json, tokenizer files, weights)"):
            tokenizer, model = load_pretrained(directory)
        return cls(descriptor["task"], templates, descriptor["model"], tokenizer, model.eval())


def text_input(source: str, condition: str | None, separator: str) -> str:
    """The encoder's input text: `source` or `source <sep> condition`."""
    return source if not condition else f"{source} {separator} {condition}"
