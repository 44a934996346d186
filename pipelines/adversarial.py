"""`paranmt adversarial`: syntactically adversarial examples against a BiLSTM classifier, before and after
training on paraphrases (thesis §6.5, Table 62; models/adversarial/).

    paranmt adversarial --task sick-e --paraphraser assets [--output DIR] [--attack-rows 200] [--augment-rows 500]

1. train the task's BiLSTM classifier (Tai et al. 2015) on the training split; test accuracy on the test split;
2. paraphrase the first --attack-rows test examples (SICK-E: sentence A only): SCPN with 10 templates drawn from
   the top 20, and the baseline, the plain paraphraser's 10-best; broken share = correctly classified examples
   that some paraphrase makes wrong;
3. paraphrase the first --augment-rows training examples the same way, append them (original labels), retrain;
   test accuracy and broken share (same attack paraphrases) again.
Prints the before/after table; --output DIR also gets results.csv, results.md and the paraphrases
(DIR/paraphrases/*.jsonl, written as each is made: generation is the slow part on CPU). A DIR holding an earlier
run's results or paraphrases is refused unless `--resume` (finish a stopped run: its paraphrases of the same
settings are reused) or `--overwrite` (delete them first); one that is, holds or lies inside an input is refused;
Ctrl-C, SIGTERM or a full disk stop it in one line naming the --resume command when paraphrases are kept.
The data folder is ../shared/data beside the repository unless --data says otherwise.
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import logging
from contextlib import contextmanager
from pathlib import Path

from paranmt.models.evaluation.tables import write_result_file
from paranmt.models.files import DataFileError, read_text, reading
from paranmt.models.generation.config import DEFAULT_MODELS, ParaphraseConfig
from paranmt.pipelines.runtime import outputs
from paranmt.pipelines.runtime.arguments import add_model_arguments, decoding_settings
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.paths import PROJECT_ROOT, asset_path

LOG = logging.getLogger(__name__)
DEFAULT_DATA = PROJECT_ROOT.parent / "shared" / "data"
RESULTS = ("results.csv", "results.md", "samples.json")
CACHE = "paraphrases"           # DIR/paraphrases/*.jsonl: what --resume reuses
COLUMNS = ("method", "attacked", "test_acc_before", "broken_before", "augmented", "test_acc_after", "broken_after",
           "paraphrases_per_example")


def cached_paraphrases(cache: Path | None, key: dict, make):
    """`make()` (a list of paraphrase lists, one per example: `key["rows"]`), stored in `cache`/<hash of
    key>.jsonl (written whole) and reused when present; a cached file that does not hold one list of paraphrases
    per example is a DataFileError naming it."""
    if cache is None:
        return make()
    digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:16]
    path = cache / f"{key['method']}-{key['split']}-{digest}.jsonl"
    if path.is_file():
        LOG.info("reusing %s", path)
        with reading(path, "file of cached paraphrases", DataFileError):
            found = [json.loads(line)["paraphrases"] for line in read_text(path, "paraphrase cache").splitlines()]
        if len(found) != key["rows"] or not all(isinstance(p, list) for p in found):
            raise DataFileError(f"{path} holds {len(found)} lines, not a list of paraphrases for each of the "
                                f"{key['rows']} examples (a damaged cache: delete it to make it again)")
        return found
    result = make()
    write_result_file(path, "".join(json.dumps({"paraphrases": p}, ensure_ascii=False) + "\n" for p in result))
    return result


def held_output(output: Path) -> tuple[str | None, bool]:
    """What `output` holds of an earlier run, for the output contract (pipelines/runtime/outputs.py `claim`): a
    description, and whether --resume has something to do (cached paraphrases and no results yet)."""
    cached = sorted((output / CACHE).glob("*.jsonl")) if (output / CACHE).is_dir() else []
    if any((output / name).exists() for name in RESULTS):
        return "the results of an earlier run", False
    if cached:
        return (f"the cached paraphrases of a run that stopped before its end ({len(cached)} file(s) in "
                f"{output / CACHE})"), True
    return None, False


def claim_output(args) -> Path | None:
    """The output contract for --output (None without it): apart from the inputs, an earlier run's results or
    cached paraphrases need --resume (reuse the paraphrases) or --overwrite (delete results and cache first)."""
    if not args.output:
        if args.resume or args.overwrite:
            raise ConfigError("--resume and --overwrite are about --output; give it")
        return None
    output = Path(args.output)
    outputs.check_apart(args.output, [args.data, *(asset_path(path) for path in (
        args.paraphraser, args.parse_generator, args.parser, args.encoder) if path)])
    if output.exists() and not output.is_dir():
        raise ConfigError(f"--output {output} exists and is not a directory")
    held, unfinished = held_output(output)
    if outputs.claim(args.output, held, args.resume, args.overwrite, unfinished=unfinished) == "overwrite":
        outputs.remove_paths([*(output / name for name in RESULTS), output / CACHE])
    return output


@contextmanager
def adversarial_stops(output: Path | None, argv: list[str] | None):
    """`stops_in_one_line` whose line says how many files of paraphrases are kept and, when there are any, the
    command that resumes from them; the results written before the stop (an incomplete set) are removed (each
    file's temporary is removed by its writer, models/evaluation/tables.py `write_result_file`)."""
    def cached() -> int:
        return len(list((output / CACHE).glob("*.jsonl"))) if output and (output / CACHE).is_dir() else 0

    def status() -> str:
        return "no results were written" + (f"; {cached()} file(s) of paraphrases are kept in {output / CACHE}"
                                            if cached() else "")

    def advice() -> str:
        return outputs.resume_command(argv, "adversarial") if cached() else "run the same command again"

    def cleanup() -> None:
        if output:
            outputs.remove_paths(outputs.left_in(str(output), RESULTS))

    with outputs.stops_in_one_line(status, advice, str(output or "."), cleanup):
        yield


def markdown(results: list[dict], task: str) -> str:
    lines = [f"| method ({task}) | attacked | test acc. before | broken before | + paraphrases | test acc. after | "
             "broken after |", "|---|---|---|---|---|---|---|"]
    for r in results:
        lines.append(f"| {r['method']} | {r['attacked']} | {100 * r['test_acc_before']:.1f} | "
                     f"{100 * r['broken_before']:.1f} | {r['augmented']} | {100 * r['test_acc_after']:.1f} | "
                     f"{100 * r['broken_after']:.1f} |")
    return "\n".join(lines)


def run(args) -> int:
    from paranmt.models.adversarial.classifier import ClassifierConfig
    from paranmt.models.adversarial.tasks import load_task
    from paranmt.models.evaluation.transfer import TransferDataError
    from paranmt.models.generation.models import ModelSetError, find_models
    from paranmt.transforms.io.model_cache import local_model_path

    for name in ("attack_rows", "augment_rows", "templates_per_example", "n_best"):
        if getattr(args, name) < (0 if name == "augment_rows" else 1):
            raise ConfigError(f"--{name.replace('_', '-')} must be >= {0 if name == 'augment_rows' else 1}")
    try:
        data = load_task(args.task, args.data)
        classifier_config = ClassifierConfig(dim=args.dim, hidden=args.hidden, epochs=args.epochs,
                                             seed=args.seed, device=args.device).validate()
    except (TransferDataError, ValueError) as error:
        raise ConfigError(str(error)) from None
    common = dict(model=args.paraphraser, arch=args.arch, batch_size=args.batch_size, **decoding_settings(args))
    methods = {"scpn": ParaphraseConfig(task="scpn", parse_generator=args.parse_generator,
                                        templates=args.templates, **common).resolve(local_model_path)}
    try:
        find_models(asset_path(args.paraphraser), "plain", args.arch)
        methods["plain"] = ParaphraseConfig(task="plain", n_best=args.n_best,
                                            **dict(common, beam=max(args.beam, args.n_best))).resolve(local_model_path)
    except ModelSetError as error:
        LOG.warning("no plain baseline: %s", error)
    output = claim_output(args)
    with adversarial_stops(output, getattr(args, "argv", None)):
        table = experiment(args, data, classifier_config, methods, output)
    print(table)
    return 0


def experiment(args, data, classifier_config, methods: dict, output: Path | None) -> str:
    """Train, attack, augment, retrain, attack again (the module docstring's steps) for each method; write the
    results into `output` (each file whole); returns the table."""
    from paranmt.models.adversarial.attack import attack, augmented, paraphrase_examples
    from paranmt.models.adversarial.classifier import TextClassifier
    from paranmt.models.generation.pipeline import open_pipeline

    train = data.splits["train"][:args.train_rows] if args.train_rows else data.splits["train"]
    test = data.splits["test"][:args.test_rows] if args.test_rows else data.splits["test"]
    attacked, to_augment = test[:args.attack_rows], train[:args.augment_rows]
    LOG.info("%s: %d training, %d test examples; attacking %d, augmenting from %d", args.task, len(train),
             len(test), len(attacked), len(to_augment))
    before = TextClassifier(len(data.labels), data.pair, classifier_config).fit(train)
    accuracy_before = before.accuracy(test)
    results, samples = [], {}
    for method, config in methods.items():
        pipeline = open_pipeline(config)
        pipeline.post_filter = None if args.no_filter else pipeline.post_filter
        pool = config.template_list if method == "scpn" else None

        def make(examples, split):
            key = {"method": method, "split": split, "task": args.task, "rows": len(examples),
                   "settings": {k: v for k, v in vars(config).items()}, "per_example": args.templates_per_example,
                   "filter": not args.no_filter, "seed": args.seed}
            return cached_paraphrases(output / CACHE if output else None, key, lambda: paraphrase_examples(
                pipeline, examples, pool, args.templates_per_example, args.seed))

        LOG.info("%s: paraphrasing %d attacked examples", method, len(attacked))
        attack_paraphrases = make(attacked, "attack")
        LOG.info("%s: paraphrasing %d training examples", method, len(to_augment))
        augment_paraphrases = make(to_augment, "augment") if to_augment else []
        first = attack(before, attacked, attack_paraphrases)
        extra = augmented(train, to_augment, augment_paraphrases)
        after_model = TextClassifier(len(data.labels), data.pair, classifier_config).fit(extra)
        second = attack(after_model, attacked, attack_paraphrases)
        results.append({"method": method, "attacked": len(attacked), "test_acc_before": accuracy_before,
                        "broken_before": first.broken_share, "augmented": len(extra) - len(train),
                        "test_acc_after": after_model.accuracy(test), "broken_after": second.broken_share,
                        "paraphrases_per_example": sum(map(len, attack_paraphrases)) / max(len(attacked), 1)})
        samples[method] = [{"sentence": e.sentences[0], "paraphrases": p}
                           for e, p in zip(attacked[:20], attack_paraphrases[:20])]
    table = markdown(results, args.task)
    if output:
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, COLUMNS)
        writer.writeheader()
        writer.writerows(results)
        write_result_file(output / "results.csv", buffer.getvalue())
        write_result_file(output / "results.md", f"# adversarial {args.task}\n\n{table}\n")
        write_result_file(output / "samples.json", json.dumps(samples, indent=1, ensure_ascii=False) + "\n")
    return table


def register(subparsers) -> None:
    parser = subparsers.add_parser("adversarial", help="syntactically adversarial examples against a BiLSTM "
                                   "classifier, before and after paraphrase augmentation",
                                   description=__doc__.split("\n\n")[0])
    parser.add_argument("--task", required=True, choices=("sick-e", "mr"))
    parser.add_argument("--paraphraser", default=DEFAULT_MODELS,
                        help="directory of paraphraser models (scpn + parse generator, and plain for the baseline)")
    parser.add_argument("--arch", choices=("scpn", "transformers"), help="architecture, when there are both")
    parser.add_argument("--parse-generator", help="parse generator directory (default: the one beside the model)")
    parser.add_argument("--templates", help="template pool (default: the model's top 20; see `paraphrase`)")
    parser.add_argument("--data", default=str(DEFAULT_DATA), help="the shared data folder (sts/, transfer/)")
    parser.add_argument("--output", help="directory for results.csv, results.md, samples and cached paraphrases")
    parser.add_argument("--resume", action="store_true", help="finish a run that stopped, reusing the paraphrases "
                        "it cached in DIR/paraphrases/ (refused when there are none)")
    parser.add_argument("--overwrite", action="store_true", help="replace the results and cached paraphrases of an "
                        "earlier run in --output (without --resume or --overwrite, an --output holding them is "
                        "refused)")
    parser.add_argument("--train-rows", type=int, default=0, help="training examples (0 = all)")
    parser.add_argument("--test-rows", type=int, default=0, help="test examples for accuracy (0 = all)")
    parser.add_argument("--attack-rows", type=int, default=200, help="test examples attacked (default 200)")
    parser.add_argument("--augment-rows", type=int, default=500,
                        help="training examples paraphrased for augmentation (default 500; 0 = none)")
    parser.add_argument("--templates-per-example", type=int, default=10)
    parser.add_argument("--n-best", type=int, default=10, help="plain baseline: hypotheses per example (10)")
    parser.add_argument("--no-filter", action="store_true", help="use paraphrases without the post-filter")
    parser.add_argument("--dim", type=int, default=100, help="classifier word embedding size")
    parser.add_argument("--hidden", type=int, default=100, help="classifier LSTM size per direction")
    parser.add_argument("--epochs", type=int, default=3, help="classifier training epochs")
    parser.add_argument("--seed", type=int, default=1)
    add_model_arguments(parser)
    parser.set_defaults(func=run)
