"""The bilingual generative transformer (BGT, thesis §5.4-5.6) and its Table 48 baselines, on one code path.

A translation pair (x_en, x_xx) is generated from a shared semantic latent and one latent per language:

    z_sem, z_en, z_xx ~ N(0, I)
    p(x_en | z_sem, z_en) p(x_xx | z_sem, z_xx)                    one decoder per language
    q(z_sem | x) q(z_en | x_en) q(z_xx | x_xx)                      three inference networks (models/encoders/bgt.py);
                                                                   the semantic one reads ONE side of each pair,
                                                                   English for even rows of a batch, the other
                                                                   language for odd rows

Each decoder is a causal Transformer decoder whose only memory is the latent vector z = [z_sem; z_lang], projected
to the model width (one memory position: "Attention" injection), and whose logits see z again,
logits_t = W [h_t; z] + b ("Logit" injection). Training maximizes the ELBO (reparameterized samples) plus the
auxiliary translation loss, i.e. minimizes per sentence pair

    L = -Σ_lang log p(x_lang | z_sem, z_lang)
        + β(step) · [KL(q(z_sem|x) ‖ N(0,I)) + KL(q(z_en|x_en) ‖ N(0,I)) + KL(q(z_xx|x_xx) ‖ N(0,I))]
        + L_trans,     L_trans = label-smoothed CE (ε) of decoding the side the semantic network did NOT read,
                                 from [mu_sem; 0]
    KL(N(mu, σ²) ‖ N(0, I)) = ½ Σ_k (mu_k² + σ_k² - log σ_k² - 1)
    β(step) = min(1, step / kl_anneal_steps)                        (linear annealing; the thesis: 2^16 updates)

Variants (`VARIANTS`; Table 48's rows):
- `bgt`: the full model above.
- `bgt-no-prior`: BGT without the prior: z = mu (no sampling), no KL term.
- `variational-multilingual-translation` (VAR.): the semantic latent only, sampled, with its KL; decode the other
  side from [z_sem] (label-smoothed CE). No language latents.
- `multilingual-translation` (MULTILING.): deterministic z_sem = mu, decode the other side (label-smoothed CE).
- `english-translation` (ENG.): the semantic network always reads English and decodes the other language.
Sentence embedding for every variant: mu of the semantic network (`BGTEncoder`).
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from paranmt.models.encoders.bgt import BGTEncoder, TransformerInference, pad_ids

VARIANTS = ("bgt", "bgt-no-prior", "variational-multilingual-translation", "multilingual-translation",
            "english-translation")


def gaussian_kl(mu: torch.Tensor, log_var: torch.Tensor) -> torch.Tensor:
    """KL(N(mu, exp(log_var)) ‖ N(0, I)) per row, [n]."""
    return 0.5 * (mu.pow(2) + log_var.exp() - log_var - 1.0).sum(-1)


def sample(mu: torch.Tensor, log_var: torch.Tensor) -> torch.Tensor:
    """Reparameterized sample mu + σ ⊙ ε, ε ~ N(0, I)."""
    return mu + torch.randn_like(mu) * (0.5 * log_var).exp()


class LatentDecoder(nn.Module):
    """Causal Transformer decoder conditioned on a latent vector only (Attention + Logit injection)."""

    def __init__(self, embedding: nn.Embedding, latent: int, layers: int, heads: int, ffn: int, dropout: float,
                 max_len: int):
        super().__init__()
        dim, vocab = embedding.embedding_dim, embedding.num_embeddings
        self.embedding = embedding
        self.positions = nn.Embedding(max_len + 1, dim)
        self.memory = nn.Linear(latent, dim)
        layer = nn.TransformerDecoderLayer(dim, heads, ffn, dropout, batch_first=True, norm_first=True)
        self.layers = nn.TransformerDecoder(layer, layers, norm=nn.LayerNorm(dim))
        self.output = nn.Linear(dim + latent, vocab)

    def forward(self, previous: torch.Tensor, pad: torch.Tensor, z: torch.Tensor) -> torch.Tensor:
        """previous [n, T] (BOS + tokens), pad [n, T], z [n, latent] -> logits [n, T, vocab]."""
        width = previous.shape[1]
        causal = torch.ones(width, width, dtype=torch.bool, device=previous.device).triu(1)   # True = masked
        x = self.embedding(previous) + self.positions(torch.arange(width, device=previous.device))[None]
        states = self.layers(x, self.memory(z)[:, None, :], tgt_mask=causal, tgt_key_padding_mask=pad)
        return self.output(torch.cat([states, z[:, None, :].expand(-1, width, -1)], dim=-1))


class BGTModel(nn.Module):
    """BGT or one of its baselines (module docstring). `languages` = (English, the other language)."""

    def __init__(self, featurizer, variant: str = "bgt", languages: tuple[str, str] = ("en", "cs"),
                 dim: int = 256, latent: int = 256, encoder_layers: int = 2, decoder_layers: int = 1,
                 heads: int = 4, ffn: int = 1024, dropout: float = 0.1, max_len: int = 100,
                 label_smoothing: float = 0.1):
        super().__init__()
        if variant not in VARIANTS:
            raise ValueError(f"unknown BGT variant {variant!r}; choose one of {', '.join(VARIANTS)}")
        self.variant, self.languages, self.max_len, self.label_smoothing = variant, tuple(languages), max_len, \
            label_smoothing
        self.encoder = BGTEncoder(featurizer, dim, latent, encoder_layers, heads, ffn, dropout, max_len, variant)
        embedding = self.encoder.semantic.embedding                  # shared by every network
        self.pad_id = self.encoder.pad_id
        self.bos_id, self.eos_id = self.pad_id + 1, self.pad_id + 2
        self.uses_language_latents = variant in ("bgt", "bgt-no-prior")
        self.variational = variant in ("bgt", "variational-multilingual-translation")
        self.language_nets = nn.ModuleDict({
            lang: TransformerInference(embedding, latent, encoder_layers, heads, ffn, dropout, max_len)
            for lang in (self.languages if self.uses_language_latents else ())})
        decoded = self.languages[1:] if variant == "english-translation" else self.languages
        decoder_latent = 2 * latent if self.uses_language_latents else latent
        self.decoders = nn.ModuleDict({
            lang: LatentDecoder(embedding, decoder_latent, decoder_layers, heads, ffn, dropout, max_len)
            for lang in decoded})

    def _decode_nll(self, lang: str, ids: list[list[int]], z: torch.Tensor, smoothing: float) -> torch.Tensor:
        """Per-sentence summed token cross-entropy of generating `ids` (+ EOS) in `lang` from z, [n]."""
        device = z.device
        previous, pad = pad_ids([[self.bos_id] + s[:self.max_len] for s in ids], self.pad_id, self.max_len + 1)
        target, _ = pad_ids([s[:self.max_len] + [self.eos_id] for s in ids], self.pad_id, self.max_len + 1)
        logits = self.decoders[lang](previous.to(device), pad.to(device), z)
        loss = F.cross_entropy(logits.transpose(1, 2), target.to(device), ignore_index=self.pad_id,
                               label_smoothing=smoothing, reduction="none")
        return loss.sum(1)

    def forward(self, english: list[list[int]], other: list[list[int]], kl_weight: float = 1.0) -> dict:
        """Losses of a batch of sentencepiece-id pairs, each averaged over the pairs: `loss` (what is minimized),
        `reconstruction`, `kl`, `translation`."""
        n, (en, xx), device = len(english), self.languages, self.encoder.device
        sides = {en: english, xx: other}
        reads_english = [True] * n if self.variant == "english-translation" else [i % 2 == 0 for i in range(n)]
        source = [english[i] if reads_english[i] else other[i] for i in range(n)]
        ids, pad = (t.to(device) for t in pad_ids(source, self.pad_id, self.max_len))
        mu, log_var = self.encoder.semantic(ids, pad)
        z_sem = sample(mu, log_var) if self.variational and self.training else mu
        zero = torch.zeros((), device=device)
        kl = gaussian_kl(mu, log_var) if self.variational else torch.zeros(n, device=device)
        reconstruction = torch.zeros(n, device=device)
        if self.uses_language_latents:
            for lang in self.languages:
                lang_ids, lang_pad = (t.to(device) for t in pad_ids(sides[lang], self.pad_id, self.max_len))
                mu_l, log_var_l = self.language_nets[lang](lang_ids, lang_pad)
                z_lang = sample(mu_l, log_var_l) if self.variational and self.training else mu_l
                if self.variational:
                    kl = kl + gaussian_kl(mu_l, log_var_l)
                reconstruction = reconstruction + self._decode_nll(lang, sides[lang], torch.cat([z_sem, z_lang], -1),
                                                                   0.0)
        # the translation loss: decode the side the semantic network did not read, from [mu_sem; 0]
        z_translate = mu if self.uses_language_latents else z_sem
        if self.uses_language_latents:
            z_translate = torch.cat([z_translate, torch.zeros_like(z_translate)], -1)
        translation = torch.zeros(n, device=device)
        for lang, rows in ((xx, [i for i in range(n) if reads_english[i]]),
                           (en, [i for i in range(n) if not reads_english[i]])):
            if rows:
                translation[rows] = self._decode_nll(lang, [sides[lang][i] for i in rows], z_translate[rows],
                                                     self.label_smoothing)
        loss = reconstruction + (kl_weight * kl if self.variational else zero) + translation
        return {"loss": loss.mean(), "reconstruction": reconstruction.mean(), "kl": kl.mean(),
                "translation": translation.mean()}
