"""`paranmt train-words`: PARAGRAM word embeddings (paranmt.models.training.paragram) trained on word-pair
paraphrases: the output directory of `paranmt lexicon` (corpus -> lexicon -> word vectors, the closed loop) or a
PPDB file (`LHS ||| PHRASE ||| PARAPHRASE ||| ...`; the one-token PHRASE/PARAPHRASE pairs). Writes into `--output`
a `word` encoder directory (config.json, weights.npz, vocab.txt: `paranmt eval-words / eval / encode --model
OUTPUT` open it), `vectors.txt` (word2vec text), `metrics.jsonl` (loss per epoch) and `train_report.json`.

Output (docs/reliability.md, "Every command that writes"): an `--output` holding these files of an earlier run is
refused unless `--overwrite` (PARAGRAM training cannot resume); one that is, holds or lies inside `--input` or
`--init-vectors` is refused. Ctrl-C, SIGTERM or a full disk stop it with one line (exit 130 / 143 / 1) after
removing what it wrote.
"""
from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

from paranmt.pipelines.runtime.outputs import check_apart, left_in, replace_earlier, rerun_stops
from paranmt.schemas.errors import ConfigError

# what a run writes into --output: the word encoder (config.json, weights.npz, vocab.txt) and its reports
WRITES = ("config.json", "weights.npz", "vocab.txt", "vectors.txt", "metrics.jsonl", "train_report.json")


def run(args) -> int:
    import torch

    from paranmt.models.training.paragram import ParagramConfig

    config = ParagramConfig(dim=args.dim, similarity=args.similarity, margin=args.margin, negatives=args.negatives,
                            batch_size=args.batch_size, epochs=args.epochs, lr=args.lr, l2_to_init=args.l2_to_init,
                            init_vectors=args.init_vectors, max_steps=args.max_steps, seed=args.seed)
    try:
        config.validate()
    except ValueError as error:
        raise ConfigError(str(error)) from None
    source = Path(args.input)
    kind = args.format if args.format != "auto" else ("lexicon" if source.is_dir() else "ppdb")
    output = Path(args.output)
    check_apart(args.output, [args.input, args.init_vectors])
    if output.exists() and not output.is_dir():
        raise ConfigError(f"--output {output} is a file")
    replace_earlier(args.output, left_in(args.output, WRITES), args.overwrite, "a word encoder of an earlier run")
    torch.set_num_threads(args.threads)
    with rerun_stops(args.output, getattr(args, "argv", None), "train-words", lambda: left_in(args.output, WRITES)):
        return train_into(args, config, source, kind, output)


def train_into(args, config, source: Path, kind: str, output: Path) -> int:
    """Read the word pairs, train, and write the encoder, vectors.txt and the report into `output`."""
    from paranmt.models.training.paragram import (WordPairsError, read_lexicon_pairs, read_ppdb_pairs, save_word2vec,
                                                  train_paragram)

    try:
        if kind == "lexicon":
            pairs = read_lexicon_pairs(source, args.score_column, args.min_score, args.max_pairs)
        else:
            pairs = read_ppdb_pairs(source, args.max_pairs)
        output.mkdir(parents=True, exist_ok=True)
        encoder, report = train_paragram(pairs, config, output / "metrics.jsonl")
    except WordPairsError as error:
        raise ConfigError(str(error)) from None
    encoder.save(output)
    words = save_word2vec(encoder, output / "vectors.txt")
    report.update({"input": str(source), "format": kind, "command": "paranmt " + " ".join(sys.argv[1:])})
    (output / "train_report.json").write_text(json.dumps(report, indent=2) + "\n")
    print(f"trained on {report['pairs']} word pairs ({report['steps']} steps); {words} words "
          f"({report['initialized']} from --init-vectors) in {output}")
    return 0


def register(subparsers) -> None:
    from paranmt.models.training.negatives import STRATEGIES
    from paranmt.models.training.paragram import SIMILARITIES, ParagramConfig

    defaults = dataclasses.asdict(ParagramConfig())
    parser = subparsers.add_parser("train-words", help="PARAGRAM word embeddings from a paraphrase lexicon or a PPDB "
                                   "file", description=__doc__)
    parser.add_argument("--input", required=True, help="a `paranmt lexicon` output directory or a PPDB file")
    parser.add_argument("--format", choices=("auto", "lexicon", "ppdb"), default="auto",
                        help="auto: a directory is a lexicon, a file is PPDB")
    parser.add_argument("--output", required=True, help="directory for the word encoder and vectors.txt")
    parser.add_argument("--score-column", default="pmi_adj", choices=("cross_count", "pmi_cross", "pmi_within",
                                                                      "pmi_adj"), help="lexicon: column to rank by")
    parser.add_argument("--min-score", type=float, default=0.0, help="lexicon: keep pairs scoring >= this (0)")
    parser.add_argument("--max-pairs", type=int, default=0, help="at most N pairs (best first; 0 = all)")
    parser.add_argument("--init-vectors", help="word2vec / GloVe text file to start from (and regularize toward)")
    parser.add_argument("--dim", type=int, default=defaults["dim"])
    parser.add_argument("--similarity", choices=SIMILARITIES, default=defaults["similarity"])
    parser.add_argument("--margin", type=float, default=defaults["margin"])
    parser.add_argument("--negatives", choices=STRATEGIES, default=defaults["negatives"])
    parser.add_argument("--batch-size", type=int, default=defaults["batch_size"])
    parser.add_argument("--epochs", type=int, default=defaults["epochs"])
    parser.add_argument("--lr", type=float, default=defaults["lr"], help="AdaGrad learning rate")
    parser.add_argument("--l2-to-init", type=float, default=defaults["l2_to_init"],
                        help="lambda of lambda * ||W_init - W||^2")
    parser.add_argument("--max-steps", type=int, default=0)
    parser.add_argument("--seed", type=int, default=defaults["seed"])
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--overwrite", action="store_true", help="replace the word encoder an earlier run wrote "
                        "into --output (without it, an --output holding one is refused)")
    parser.set_defaults(func=run)
