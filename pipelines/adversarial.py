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
(DIR/paraphrases/*.jsonl, reused by a rerun with the same settings: generation is the slow part on CPU).
The data folder is ../shared/data beside the repository unless --data says otherwise.
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import logging
from pathlib import Path

from paranmt.models.generation.config import DEFAULT_MODELS, ParaphraseConfig
from paranmt.pipelines.runtime.arguments import add_model_arguments, decoding_settings
from paranmt.schemas.config import PROJECT_ROOT, ConfigError, asset_path

LOG = logging.getLogger(__name__)
DEFAULT_DATA = PROJECT_ROOT.parent / "shared" / "data"
COLUMNS = ("method", "attacked", "test_acc_before", "broken_before", "augmented", "test_acc_after", "broken_after",
           "paraphrases_per_example")


def cached_paraphrases(cache: Path | None, key: dict, make):
    """`make()` (a list of paraphrase lists), stored in `cache`/<hash of key>.jsonl and reused when present."""
    if cache is None:
        return make()
    digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:16]
    path = cache / f"{key['method']}-{key['split']}-{digest}.jsonl"
    if path.is_file():
        LOG.info("reusing %s", path)
        return [json.loads(line)["paraphrases"] for line in path.read_text(encoding="utf-8").splitlines()]
    result = make()
    cache.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text("".join(json.dumps({"paraphrases": p}, ensure_ascii=False) + "\n" for p in result),
                         encoding="utf-8")
    temporary.rename(path)
    return result


def markdown(results: list[dict], task: str) -> str:
    lines = [f"| method ({task}) | attacked | test acc. before | broken before | + paraphrases | test acc. after | "
             "broken after |", "|---|---|---|---|---|---|---|"]
    for r in results:
        lines.append(f"| {r['method']} | {r['attacked']} | {100 * r['test_acc_before']:.1f} | "
                     f"{100 * r['broken_before']:.1f} | {r['augmented']} | {100 * r['test_acc_after']:.1f} | "
                     f"{100 * r['broken_after']:.1f} |")
    return "\n".join(lines)


def run(args) -> int:
    from paranmt.models.adversarial.attack import attack, augmented, paraphrase_examples
    from paranmt.models.adversarial.classifier import ClassifierConfig, TextClassifier
    from paranmt.models.adversarial.tasks import load_task
    from paranmt.models.evaluation.transfer import TransferDataError
    from paranmt.models.generation.models import ModelSetError, find_models
    from paranmt.models.generation.pipeline import open_pipeline
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
    output = Path(args.output) if args.output else None
    if output and output.exists() and not output.is_dir():
        raise ConfigError(f"--output {output} is a file; give a directory")

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
            return cached_paraphrases(output / "paraphrases" if output else None, key, lambda: paraphrase_examples(
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
        output.mkdir(parents=True, exist_ok=True)
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, COLUMNS)
        writer.writeheader()
        writer.writerows(results)
        (output / "results.csv").write_text(buffer.getvalue())
        (output / "results.md").write_text(f"# adversarial {args.task}\n\n{table}\n")
        (output / "samples.json").write_text(json.dumps(samples, indent=1, ensure_ascii=False) + "\n")
    print(table)
    return 0


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
