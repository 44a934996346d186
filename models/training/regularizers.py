"""L2 regularizers of the encoder trainers (SPEC §3, §8-9), one module over parameters and their anchors:

    R(θ) = λ · Σ_p Σ_{r ∈ rows(p)} ‖θ_p[r] − a_p[r]‖²

over the parameters p chosen at construction. The anchor a_p is a copy of p's initial value (the trained model a
fine-tuning starts from, the pretrained word vectors, the iRNN identity initialization) or 0 when p has none.
rows(p) is every row, except for embedding tables trained with sparse gradients (`used_rows_only`): there only the
rows the mini-batch used (the rows with a gradient after the objective's backward pass) enter, since a penalty over
a whole 200k-row table would make every step dense (AMBIG: the papers' Theano code penalized the whole table every
step; with plain SGD both shrink a row the same way between its uses only if it is used). λ = 0 gives 0. Over
every row the gradient 2λ(θ − a) is dense: such a table needs `nn.Embedding(sparse=False)`.

Constructors for the papers' terms:
- `l2_to_initial(parameters, λ)`: λ‖θ − θ_init‖² over the given parameters (λ_w‖W_init − W‖² of PARAGRAM word
  training; "stay near the start" of supervised STS fine-tuning).
- `embedding_l2(model, λ, "init")`: λ_w over every embedding table of `model`, anchored at the initial table, rows
  used by the batch; `"zero"`: the BiCVM Frobenius penalty (λ/2)‖W‖²_F on the used rows.
- `composition_l2(model, λ)`: λ_c over every parameter that is not an embedding table ("the composition
  parameters"), anchored at 0 except the parts whose `composition_prior` is "init" (iRNN: W_x, W_h, b are pulled
  toward their identity initialization).
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn


class L2ToAnchor(nn.Module):
    def __init__(self, parameters: dict[str, nn.Parameter], weight: float,
                 anchors: dict[str, torch.Tensor] | None = None, used_rows_only: bool = False):
        """`anchors`: name -> anchor (copied here); a parameter without one is anchored at 0."""
        super().__init__()
        if weight < 0:
            raise ValueError(f"an L2 regularizer's weight must be >= 0, got {weight}")
        self.weight, self.parameters_, self.used_rows_only = weight, parameters, used_rows_only
        self.anchors = {name: anchor.detach().clone() for name, anchor in (anchors or {}).items()}

    def forward(self) -> torch.Tensor:
        total = torch.zeros(())
        if self.weight == 0:
            return total
        for name, value in self.parameters_.items():
            anchor = self.anchors.get(name)
            if self.used_rows_only:
                if value.grad is None:
                    continue
                sparse = value.grad.is_sparse
                rows = value.grad.coalesce().indices()[0] if sparse else torch.arange(value.shape[0], device=value.device)
                current = F.embedding(rows, value, sparse=sparse)       # keeps the gradient sparse
                target = 0.0 if anchor is None else anchor.to(value.device)[rows]
            else:
                current, target = value, (0.0 if anchor is None else anchor.to(value.device))
            total = total.to(value.device) + (current - target).pow(2).sum()
        return self.weight * total


def embedding_tables(model: nn.Module) -> dict[str, nn.Parameter]:
    """Name -> weight of every nn.Embedding in `model` (the word / unit embedding tables)."""
    return {f"{name}.weight" if name else "weight": module.weight for name, module in model.named_modules()
            if isinstance(module, nn.Embedding)}


def l2_to_initial(parameters: dict[str, nn.Parameter], weight: float) -> L2ToAnchor:
    """λ‖θ − θ_init‖² over `parameters`, θ_init = their values now."""
    return L2ToAnchor(parameters, weight, dict(parameters) if weight > 0 else {})


def embedding_l2(model: nn.Module, weight: float, anchor: str = "init",
                 initial: dict[str, torch.Tensor] | None = None) -> L2ToAnchor:
    """Over the rows of every embedding table the batch used; `anchor` "init" (the table in `initial`, default:
    the model's tables now) or "zero"."""
    if anchor not in ("init", "zero"):
        raise ValueError(f"anchor must be init or zero, not {anchor!r}")
    tables = embedding_tables(model)
    anchors = {} if anchor == "zero" else {name: (initial or tables)[name] for name in tables}
    return L2ToAnchor(tables, weight, anchors, used_rows_only=True)


def composition_l2(model: nn.Module, weight: float, initial: dict[str, torch.Tensor] | None = None) -> L2ToAnchor:
    """Over every parameter that is not an embedding table, anchored at 0, or at `initial` (default: the model's
    values now) for the parts whose `composition_prior` is "init"."""
    tables = {id(table) for table in embedding_tables(model).values()}
    parameters = {name: p for name, p in model.named_parameters() if id(p) not in tables}
    prefixes = [f"{name}." if name else "" for name, module in model.named_modules()
                if getattr(module, "composition_prior", "zero") == "init"]
    anchors = {name: (initial or parameters)[name] for name in parameters
               if any(name.startswith(prefix) for prefix in prefixes)}
    return L2ToAnchor(parameters, weight, anchors)
