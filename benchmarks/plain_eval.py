"""The plain (uncontrolled) paraphraser on held-out human pairs, against copying the input (the "Quality" table of
assets/paraphraser-plain/MANIFEST.md).

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/plain_eval.py --input work/paraphrase-data/pairs-held-out \\
        [--model assets/paraphraser-plain] [--pairs 150] [--max-words 25] [--beam 4] [--output results.json]

Pairs: `--input` in any layout `paranmt train-paraphraser` reads (models/generation/data.py; here the
`paranmt paraphrase-data` output's pairs-held-out), s1 = ref, s2 = bt; the first `--pairs` whose both sides have
at most `--max-words` whitespace words, in input order. The model turns s1 into its best hypothesis o (beam
`--beam`). Columns (BLEU = sacreBLEU corpus BLEU with its defaults: cased, 13a tokens; eval-paraphraser's BLEU
is lowercased):
    bleu_vs_s2          BLEU of o against s2 (the human paraphrase)
    bleu_vs_s1          BLEU of o against s1 (100 = the input copied)
    identical_to_s1     share of pairs with o == s1
and the same for the copy-input baseline (o = s1). Prints a Markdown table; `--output` writes the rows as JSON.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from paranmt.pipelines.cli import CommandLineParser, exit_code


def row(outputs: list[str], sources: list[str], references: list[str], name: str) -> dict:
    """One row of the table (see the module docstring)."""
    import sacrebleu

    identical = sum(o == s for o, s in zip(outputs, sources)) / len(outputs)
    return {"output": name, "pairs": len(outputs), "bleu_vs_s2": sacrebleu.corpus_bleu(outputs, [references]).score,
            "bleu_vs_s1": sacrebleu.corpus_bleu(outputs, [sources]).score, "identical_to_s1": identical}


def main() -> int:
    parser = CommandLineParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--input", required=True, nargs="+", help="held-out pairs (shards, Parquet or pair TSV)")
    parser.add_argument("--model", default="assets/paraphraser-plain", help="plain paraphraser directory")
    parser.add_argument("--pairs", type=int, default=150, help="pairs evaluated (default 150)")
    parser.add_argument("--max-words", type=int, default=25, help="skip pairs with a longer side (default 25)")
    parser.add_argument("--beam", type=int, default=4)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--output", help="JSON file for the rows")
    args = parser.parse_args()

    from paranmt.models.generation.data import GenerationDataError, read_parsed_pairs
    from paranmt.models.generation.paraphraser import ParaphraserModelError, load_generator

    try:
        pairs = [p for p in read_parsed_pairs(args.input)
                 if len(p.s1.split()) <= args.max_words and len(p.s2.split()) <= args.max_words][:args.pairs]
        generator = load_generator(args.model, device=args.device)
    except (GenerationDataError, ParaphraserModelError, OSError) as error:
        print(f"plain_eval: {error}", file=sys.stderr)
        return 2
    if generator.task != "plain":
        print(f"plain_eval: {args.model} is a {generator.task} model, not a plain paraphraser", file=sys.stderr)
        return 2
    if not pairs:
        print(f"plain_eval: no pair of {' '.join(args.input)} has both sides <= {args.max_words} words",
              file=sys.stderr)
        return 2
    sources, references = [p.s1 for p in pairs], [p.s2 for p in pairs]
    outputs = [hypotheses[0][0] if hypotheses else "" for hypotheses in generator.generate(sources, beam=args.beam)]
    table = [row(outputs, sources, references, "plain model"), row(sources, sources, references, "copy s1 (baseline)")]
    print("| output | pairs | BLEU vs s2 | BLEU vs s1 | identical to s1 |\n|---|---:|---:|---:|---:|")
    for line in table:
        print(f"| {line['output']} | {line['pairs']} | {line['bleu_vs_s2']:.1f} | {line['bleu_vs_s1']:.1f} | "
              f"{100 * line['identical_to_s1']:.0f}% |")
    if args.output:
        Path(args.output).write_text(json.dumps(table, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(exit_code(main))
