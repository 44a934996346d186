"""`paranmt train-paraphraser`: train an SCPN, parse-generator or plain paraphraser (docs/paraphrase.md, Training).

    paranmt train-paraphraser [--input SHARDS_OR_TSV ...] [--sentences TXT ...] --output DIR
                              --task scpn|parse-generator|plain [--arch scpn|transformers] [--config YAML]
                              [--resume | --overwrite] [flags]

Pairs (`--input`, models/generation/data.py): `paranmt build` shard directories / Parquet files (ref, bt and
their parses), `paranmt export --format scpn` TSV, pair TSV (`s1 TAB s2`, or a header naming ref, bt[, ref_parse,
bt_parse]). Sentences (`--sentences`): text files of English sentences, one a line, for training without
paraphrase pairs (SynPG); both kinds can be mixed.
Sentences without a parse are parsed with `--parser` (default assets/parser-en); parses are cached in
`--parse-cache` (default DIR/parses.tsv). `--dev` / `--dev-sentences` take held-out data of the same kinds (the
held-out loss at each checkpoint goes to DIR/metrics.jsonl). Settings: ParaphraserTrainConfig defaults <-
`--config YAML` <- flags <- `--set KEY=VALUE` (any key, e.g. `--set max_words=40`).
DIR is held to the contract of `paranmt train` (docs/reliability.md): an earlier run's model or checkpoint there
needs `--resume` (continue from DIR/checkpoint with the settings saved in DIR/train_config.json, which the flags,
`--config` and `--set` given override; the training inputs are given again, the held-out data that DIR/train_data.json
records are reused unless `--dev` / `--dev-sentences` are given) or `--overwrite` (start again; the parse cache is
kept); Ctrl-C, SIGTERM or a full disk stop it with one line naming the `--resume` command.
"""
from __future__ import annotations

import glob
import json
import logging
from pathlib import Path

from paranmt.models.generation.train import ParaphraserTrainConfig
from paranmt.pipelines.runtime.command import Command, ModelDirectory
from paranmt.pipelines.runtime.rejects import EXIT_REJECTS, over_reject_rate, report_rejects
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.paths import asset_path, make_output_dir

log = logging.getLogger(__name__)
TRAIN_DATA = "train_data.json"      # the data a run read (paths as given, counts); --resume reads its held-out data


def load_instances(pair_paths: list[str], sentence_paths: list[str], config, cache, parser_dir: str, rejects):
    """(instances, {"pairs": counts, "sentences": counts}, parses seen) of the pair inputs and sentence files; the
    lines rejected while reading them are counted in `rejects` (models/encoding.py LineRejects)."""
    from paranmt.models.generation.data import fill_parses, pair_instances, read_parsed_pairs, sentence_instances
    from paranmt.transforms.io.streams import read_sentences

    instances, counts, parses = [], {}, []
    if pair_paths:
        pairs = read_parsed_pairs(pair_paths, rejects)
        fill_parses(pairs, cache, parser_dir, config.task)
        found, counts["pairs"] = pair_instances(config.task, pairs, config.require_different, config.max_words)
        instances += found
        parses += [p for pair in pairs for p in (pair.p1, pair.p2) if p]
    if sentence_paths:
        skipped: dict[str, int] = {}
        sentences = [line.strip() for path in sentence_paths
                     for line in read_sentences(path, counts=skipped, what="sentence file")]
        for reason, n in skipped.items():
            rejects.add(reason, n)
        parsed = cache.parse(sentences, parser_dir) if config.task == "scpn" else {}
        found, counts["sentences"] = sentence_instances(config.task, sentences, parsed, config.max_words)
        instances += found
        parses += [parsed[s] for s in sentences if parsed.get(s)]
    return instances, counts, parses


def recorded_dev(record: Path) -> tuple[list[str], list[str]]:
    """The held-out data (`--dev`, `--dev-sentences`) that the stopped run recorded in `record` (DIR/train_data.json),
    for a --resume that gives none: one line names them; ConfigError when a recorded file is gone (paths as given,
    so from the directory the run started in). A record without a `dev` key (written by an older version, which did
    not record the held-out data) goes on without held-out data, with a warning line."""
    from paranmt.models.files import read_json

    recorded = read_json(record, dict, "training data record") if record.is_file() else {}
    if "dev" not in recorded:
        used = recorded.get("dev_instances")
        log.warning("--resume: %s does not record the held-out data of the stopped run (an older version's record%s); "
                    "going on without a held-out set: give --dev / --dev-sentences to evaluate on one", record,
                    f"; it had {used} held-out instances" if used else "")
        return [], []
    dev, dev_sentences = list(recorded["dev"]), list(recorded.get("dev_sentences", []))
    given = [f"{flag} {' '.join(paths)}" for flag, paths in (("--dev", dev), ("--dev-sentences", dev_sentences))
             if paths]
    if not given:
        return [], []
    gone = [path for path in dev + dev_sentences if not glob.glob(path)]
    if gone:
        raise ConfigError(f"--resume: the held-out data of the stopped run ({', '.join(given)}, recorded in {record}) "
                          f"is gone: {', '.join(gone)} not found; give --dev / --dev-sentences again")
    log.info("--resume: held-out data as the stopped run recorded in %s: %s", record, "; ".join(given))
    return dev, dev_sentences


def read_data(args, config, output: Path, rejects) -> tuple[list, dict, list, list, dict]:
    """(instances, counts, parses seen, held-out instances, their counts) of the training and held-out inputs,
    parsed through the parse cache; the rejected lines counted in `rejects`. ConfigError when they cannot be read
    or the parser is not there."""
    from paranmt.models.generation.data import GenerationDataError, ParseCache
    from paranmt.models.parsing.parser import ParserModelError, model_files

    parser_dir = asset_path(args.parser)
    cache = ParseCache(args.parse_cache or output / "parses.tsv")
    try:
        if config.task != "plain":
            model_files(parser_dir)
        instances, counts, parses = load_instances(args.input, args.sentences, config, cache, parser_dir, rejects)
        dev, dev_counts, _ = load_instances(args.dev, args.dev_sentences, config, cache, parser_dir, rejects) \
            if args.dev or args.dev_sentences else ([], {}, [])
    except (GenerationDataError, ParserModelError, OSError) as error:
        raise ConfigError(str(error)) from None
    return instances, counts, parses, dev, dev_counts


def check(config: ParaphraserTrainConfig, args) -> None:
    if not args.input and not args.sentences:
        raise ConfigError("give training pairs (--input), sentences (--sentences) or both")


def run(config: ParaphraserTrainConfig, args) -> int:
    """Read the data (parsed through the cache; a --resume without held-out data takes the stopped run's), train,
    save."""
    from paranmt.models.encoding import LineRejects
    from paranmt.models.generation.data import top_templates
    from paranmt.models.generation.train import ParaphraserTrainer

    output = make_output_dir(args.output)
    if args.resume and not (args.dev or args.dev_sentences):
        args.dev, args.dev_sentences = recorded_dev(output / TRAIN_DATA)
    rejects = LineRejects()
    instances, counts, parses, dev, dev_counts = read_data(args, config, output, rejects)
    read = rejects.total + sum(c.read for c in [*counts.values(), *dev_counts.values()])
    unusable = rejects.total + sum(c.unusable for c in [*counts.values(), *dev_counts.values()])
    counts = {kind: c.as_dict() for kind, c in counts.items()}
    if not instances:
        raise ConfigError(f"no training instances in {', '.join(args.input + args.sentences)} ({counts})")
    log.info("training instances: %d (%s)", len(instances), counts)
    templates = top_templates(parses, 20)
    info = {"inputs": args.input, "sentences": args.sentences, "dev": args.dev, "dev_sentences": args.dev_sentences,
            "data": counts, "dev_instances": len(dev), "rejected": rejects.by_reason, "not_utf8": rejects.advice(),
            "parser": args.parser if config.task != "plain" else None}     # paths as given: records stay portable
    (output / TRAIN_DATA).write_text(json.dumps(info, indent=2) + "\n")
    report_rejects("train-paraphraser", rejects, read, str(output / TRAIN_DATA))
    if over_reject_rate("train-paraphraser", unusable, read, args.max_reject_rate):
        return EXIT_REJECTS
    try:
        ParaphraserTrainer(config, output).fit(instances, templates, dev, resume=args.resume, training_info=info)
    except ValueError as error:
        if "device" in str(error):
            raise ConfigError(str(error)) from None
        raise
    log.info("paraphraser saved to %s", output)
    return 0


def own_flags(parser) -> None:
    """The training and held-out data, the output and the parser of train-paraphraser, which no config holds."""
    parser.add_argument("--input", nargs="+", default=[], metavar="PATH",
                        help="training pairs: shard directories / Parquet, scpn TSV, pair TSV")
    parser.add_argument("--output", required=True, help="model directory (also checkpoint/, metrics.jsonl)")
    parser.add_argument("--sentences", nargs="+", default=[], metavar="PATH",
                        help="English sentence files, one a line (SynPG): (shuffled words, own parse) -> sentence "
                             "for scpn, shuffled words -> sentence for plain")
    parser.add_argument("--dev", nargs="+", default=[], metavar="PATH",
                        help="held-out pairs (held-out loss at each checkpoint; the lowest one's model is kept in "
                             "DIR/best/); --resume without --dev / --dev-sentences reuses those the stopped run "
                             "recorded in DIR/train_data.json")
    parser.add_argument("--dev-sentences", nargs="+", default=[], metavar="PATH", help="held-out sentence files")
    parser.add_argument("--parser", default="assets/parser-en", help="parser model directory (default %(default)s)")
    parser.add_argument("--parse-cache", help="parse cache TSV to reuse and extend (default DIR/parses.tsv)")


COMMAND = Command("train-paraphraser", ParaphraserTrainConfig, run, help="train an SCPN / parse-generator / plain "
                  "paraphraser on shards, SCPN TSV, pair TSV or single sentences", description=__doc__,
                  inputs=("input", "sentences", "dev", "dev_sentences", "hf_model"), check=check, flags=own_flags,
                  output=ModelDirectory("DIR", data=("input", "sentences")), rejects=True,
                  what="paraphraser training config", example="epochs=2")
