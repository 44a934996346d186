"""`paranmt train-words`: PARAGRAM word embeddings (paranmt.models.training.paragram) trained on word-pair
paraphrases: the output directory of `paranmt lexicon` (corpus -> lexicon -> word vectors, the closed loop) or a
PPDB file (`LHS ||| PHRASE ||| PARAPHRASE ||| ...`; the one-token PHRASE/PARAPHRASE pairs). Writes into `--output`
a `word` encoder directory (config.json, weights.npz, vocab.txt: `paranmt eval-words / eval / encode --model
OUTPUT` open it), `vectors.txt` (word2vec text), `metrics.jsonl` (loss per epoch; drawn as `metrics.png`) and
`train_report.json`.
Settings: ParagramConfig defaults <- `--config YAML` <- flags <- `--set KEY=VALUE`.

Output (docs/reliability.md, "Every command that writes"): an `--output` holding these files of an earlier run is
refused unless `--overwrite` (PARAGRAM training cannot resume); one that is, holds or lies inside `--input` or
`--init-vectors` is refused. Ctrl-C, SIGTERM or a full disk stop it with one line (exit 130 / 143 / 1) after
removing what it wrote.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from paranmt.models.training.paragram import ParagramConfig
from paranmt.pipelines.runtime.command import Command, ResultsFolder
from paranmt.schemas.errors import ConfigError

# what a run writes into --output: the word encoder (config.json, weights.npz, vocab.txt) and its reports
WRITES = ("config.json", "weights.npz", "vocab.txt", "vectors.txt", "metrics.jsonl", "metrics.png",
          "train_report.json")


def run(config: ParagramConfig, args) -> int:
    """Read the word pairs, train, and write the encoder, vectors.txt and the report into --output."""
    from paranmt.models.training.paragram import (WordPairsError, read_lexicon_pairs, read_ppdb_pairs, save_word2vec,
                                                  train_paragram)

    source, output = Path(args.input), Path(args.output)
    kind = args.format if args.format != "auto" else ("lexicon" if source.is_dir() else "ppdb")
    try:
        if kind == "lexicon":
            pairs = read_lexicon_pairs(source, config.score_column, config.min_score, config.max_pairs)
        else:
            pairs = read_ppdb_pairs(source, config.max_pairs)
        output.mkdir(parents=True, exist_ok=True)
        encoder, report = train_paragram(pairs, config, output / "metrics.jsonl")
    except WordPairsError as error:
        raise ConfigError(str(error)) from None
    encoder.save(output)
    words = save_word2vec(encoder, output / "vectors.txt")
    report.update({"input": str(source), "format": kind,
                   "command": "paranmt " + " ".join(getattr(args, "argv", sys.argv[1:]))})
    (output / "train_report.json").write_text(json.dumps(report, indent=2) + "\n")
    print(f"trained on {report['pairs']} word pairs ({report['steps']} steps); {words} words "
          f"({report['initialized']} from --init-vectors) in {output}")
    return 0


def own_flags(parser) -> None:
    """The inputs and output of train-words, which no config holds."""
    parser.add_argument("--input", required=True, help="a `paranmt lexicon` output directory or a PPDB file")
    parser.add_argument("--format", choices=("auto", "lexicon", "ppdb"), default="auto",
                        help="auto: a directory is a lexicon, a file is PPDB")
    parser.add_argument("--output", required=True, help="directory for the word encoder and vectors.txt")


COMMAND = Command("train-words", ParagramConfig, run, help="PARAGRAM word embeddings from a paraphrase lexicon or a "
                  "PPDB file", description=__doc__, inputs=("input", "init_vectors"), flags=own_flags, example="dim=25",
                  output=ResultsFolder(WRITES, held="a word encoder of an earlier run", overwrite_help="replace the "
                                       "word encoder an earlier run wrote into --output (without it, an --output "
                                       "holding one is refused)"))
