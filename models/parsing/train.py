"""Training recipe of the project's English parser (stanza POS tagger + stanza constituency parser) on the Penn
Treebank sample, and its packaging into a model directory (`assets/parser-en/`) with a MANIFEST.

Steps (each writes under `work_dir` and is skipped when its output exists, so an interrupted run resumes;
the constituency trainer also resumes from its own checkpoint):
1. `prepare`  PTB .mrg -> cleaned trees (`ptb.read_mrg`), split by WSJ file number into train/dev/test, written as
              one-tree-per-line treebanks (constituency trainer) and CoNLL-U (tagger).
2. `vectors`  word vectors for stanza's pretrain file: PPMI-SVD (`vectors.ppmi_svd_vectors`) over the English side
              of the cs-en bitext plus the PTB *training* words, PTB-tokenized (`tokenize.ptb_tokenize`).
3. `tagger`   `python -m stanza.models.tagger` (PTB tags as XPOS), small hidden sizes.
4. `parser`   stanza's constituency trainer (`stanza.models.constituency_parser`), in-order transitions, gold tags
              (`--no_retag`), small hidden sizes; its dev scorer (CoreNLP's Java EvalB, which needs a download) is
              replaced by `evaluate.score_parses` (`BracketF1Evaluator`).
5. `package`  copy the models into the output directory with `parser.json`, mark the parser as trained on XPOS
              (PTB) tags, parse the held-out test files with the packaged `StanzaParser` (tags predicted by the
              packaged tagger) and write MANIFEST.json: sha256 of every file, the recipe, the data, the scores.
"""
from __future__ import annotations

import datetime
import json
import logging
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path


from paranmt.models.parsing import ptb
from paranmt.models.parsing.evaluate import score_parses
from paranmt.models.parsing.tokenize import NAME as TOKENIZER_NAME, ptb_tokenize
from paranmt.models.parsing.trees import parse_one
from paranmt.models.parsing.vectors import ppmi_svd_vectors, write_text_vectors
from paranmt.models.safe_load import load_weights_only
from paranmt.schemas.config import MAX_VOCABULARY, MAX_WIDTH, Config, bounded, check_ranges, setting
from paranmt.schemas.errors import ConfigError, PipelineStopped
from paranmt.schemas.metadata import file_sha256

logger = logging.getLogger(__name__)

STEPS = ("prepare", "vectors", "tagger", "parser", "package")
# what the recipe writes into its work directory, and the file of each step that marks it done (package: in the
# output directory, beside PACKAGE_FILES)
WORK_WRITES = ("data", "pretrain.pt", "vectors.txt", "vectors.json", "tagger", "parser", "tagger.log", "parser.log",
               "package.json")
PACKAGED = "package.json"       # in the work directory: the output this run packaged into and its MANIFEST's sha256
DONE_FILES = {"prepare": "data/summary.json", "vectors": "pretrain.pt", "tagger": "tagger/pos.pt",
              "parser": "parser/DONE", "package": "MANIFEST.json"}
PACKAGE_FILES = ("pretrain.pt", "pos.pt", "constituency.pt", "parser.json", "resources.json", "MANIFEST.json")
# the torch files of a work directory that the recipe (or stanza under it) reads back: checked weights-only first
WORK_TORCH_FILES = ("pretrain.pt", "tagger/pos.pt", "parser/constituency.pt", "parser/checkpoint.pt")


@dataclass
class ParserTrainConfig(Config):
    """Hyperparameters and data of the recipe (configs/parser/*.yaml)."""
    treebank: str = setting("../shared/data/treebank/ptb-sample", help="folder of PTB wsj_*.mrg files")
    bitext: str = setting("../shared/data/bitext/cs-en", help="folder of the bitext whose English side (with the PTB "
                          "training words) trains the word vectors")
    bitext_suffix: str = setting(".eng", help="suffix of the bitext's English files")
    dev_files: list[int] = setting(default_factory=lambda: [150, 159], help="first and last WSJ file number of the "
                                   "dev split (model selection)")
    test_files: list[int] = setting(default_factory=lambda: [160, 179], help="first and last WSJ file number of the "
                                    "held-out test split (scored in the MANIFEST)")
    vector_dim: int = bounded(50, 1, MAX_WIDTH, help="size of the PPMI-SVD word vectors")
    vector_max_vocab: int = bounded(20000, 1, MAX_VOCABULARY, help="words kept for the word vectors, the most frequent")
    vector_min_count: int = bounded(2, 1, help="words seen fewer times get no vector")
    vector_window: int = bounded(2, 1, help="context window of the word vectors")
    tagger_args: list[str] = setting(default_factory=list, help="extra flags for stanza.models.tagger")
    parser_args: list[str] = setting(default_factory=list, help="extra flags for stanza.models.constituency_parser")
    threads: int = bounded(1, 1, help="OMP/MKL threads of the stanza trainers")
    seed: int = setting(1234, help="random seed (word vectors, both trainers)")

    def validate(self) -> "ParserTrainConfig":
        check_ranges(self)
        for key in ("dev_files", "test_files"):
            if len(getattr(self, key)) != 2:
                raise ConfigError(f"{key} must be two WSJ file numbers [first, last], not {getattr(self, key)}")
        return self


def _range(bounds: list[int]) -> range:
    return range(bounds[0], bounds[1] + 1)


def prepare(config: ParserTrainConfig, work: Path) -> dict:
    """Step 1; returns {split: {"files": [...], "trees": n, "words": n}}."""
    data = work / "data"
    summary_path = data / "summary.json"
    if summary_path.exists():
        return json.loads(summary_path.read_text())
    data.mkdir(parents=True, exist_ok=True)
    files = list(Path(config.treebank).glob("wsj_*.mrg"))
    if not files:
        raise FileNotFoundError(f"no wsj_*.mrg files in {config.treebank}")
    splits = ptb.split_files(files, dev=_range(config.dev_files), test=_range(config.test_files))
    summary = {}
    for split, paths in splits.items():
        trees = [tree for path in paths for tree in ptb.read_mrg(path)]
        ptb.write_treebank(trees, data / f"{split}.mrg")
        ptb.write_conllu(trees, data / f"{split}.conllu")
        summary[split] = {"files": f"{paths[0].name}..{paths[-1].name} ({len(paths)} files)",
                          "trees": len(trees), "words": sum(len(t.leaves()) for t in trees)}
    summary_path.write_text(json.dumps(summary, indent=1))
    return summary


def build_vectors(config: ParserTrainConfig, work: Path) -> Path:
    """Step 2; returns the stanza pretrain (.pt) path."""
    pretrain_path = work / "pretrain.pt"
    if pretrain_path.exists():
        return pretrain_path
    sentences = [tree.leaves() for tree in (parse_one(line) for line in
                                            (work / "data" / "train.mrg").read_text().splitlines())]
    for path in sorted(Path(config.bitext).glob(f"*{config.bitext_suffix}")):
        sentences += [ptb_tokenize(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    logger.info("vectors: %d sentences, %d tokens", len(sentences), sum(map(len, sentences)))
    words, vectors = ppmi_svd_vectors(sentences, dim=config.vector_dim, max_vocab=config.vector_max_vocab,
                                      min_count=config.vector_min_count, window=config.vector_window,
                                      seed=config.seed)
    text_path = work / "vectors.txt"
    write_text_vectors(words, vectors, text_path)
    from stanza.models.common.pretrain import Pretrain
    Pretrain(str(pretrain_path), str(text_path)).load()  # converts the text vectors and writes the .pt file
    (work / "vectors.json").write_text(json.dumps({"sentences": len(sentences), "tokens": sum(map(len, sentences)),
                                                   "vocab": len(words), "dim": config.vector_dim}))
    return pretrain_path


def done_steps(work: Path, output: Path) -> list[str]:
    """The steps whose DONE_FILES exist; `package` only when `output`'s MANIFEST.json is the one this run wrote
    there (`packaged_here`), not any packaged parser (the shipped one)."""
    return [step for step, name in DONE_FILES.items()
            if (packaged_here(work, output) if step == "package" else (work / name).exists())]


def packaged_here(work: Path, output: Path) -> bool:
    """Whether `output` holds the parser that the run in `work` packaged: the record PACKAGED it left names `output`
    and the sha256 of its MANIFEST.json."""
    manifest, record = output / DONE_FILES["package"], work / PACKAGED
    if not (manifest.is_file() and record.is_file()):
        return False
    try:
        packaged = json.loads(record.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return packaged == {"output": str(output.resolve()), "manifest_sha256": file_sha256(manifest)}


def _run(command: list[str], log_path: Path, threads: int) -> None:
    """Run a stanza trainer, its output appended to `log_path`; PipelineStopped (one line naming the log) when it
    fails."""
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), MKL_NUM_THREADS=str(threads))
    logger.info("running %s (log: %s)", " ".join(command), log_path)
    with open(log_path, "a") as log:
        result = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT, env=env)
    if result.returncode:
        raise PipelineStopped(f"the {log_path.stem} training failed with exit code {result.returncode}; see {log_path}")


def train_tagger(config: ParserTrainConfig, work: Path, pretrain: Path) -> Path:
    """Step 3; returns the tagger model path."""
    model = work / "tagger" / "pos.pt"
    if model.exists():
        return model
    model.parent.mkdir(parents=True, exist_ok=True)
    data = work / "data"
    _run([sys.executable, "-m", "stanza.models.tagger", "--mode", "train", "--lang", "en", "--shorthand", "en_ptb",
          "--train_file", str(data / "train.conllu"), "--eval_file", str(data / "dev.conllu"),
          "--output_file", str(work / "tagger" / "dev.pred.conllu"), "--wordvec_pretrain_file", str(pretrain),
          "--save_dir", str(model.parent), "--save_name", model.name, "--seed", str(config.seed), "--cpu",
          *config.tagger_args], work / "tagger.log", config.threads)
    return model


def train_parser(config: ParserTrainConfig, work: Path, pretrain: Path) -> Path:
    """Step 4; returns the constituency model path (the best dev-F1 model)."""
    model = work / "parser" / "constituency.pt"
    done = work / "parser" / "DONE"
    if done.exists():
        return model
    model.parent.mkdir(parents=True, exist_ok=True)
    data = work / "data"
    _run([sys.executable, "-m", "paranmt.models.parsing.train", "stanza-constituency",
          "--mode", "train", "--lang", "en", "--shorthand", "en_ptb", "--no_retag", "--cpu",
          "--train_file", str(data / "train.mrg"), "--eval_file", str(data / "dev.mrg"),
          "--wordvec_pretrain_file", str(pretrain), "--save_dir", str(model.parent), "--save_name", model.name,
          "--checkpoint_save_name", str(model.parent / "checkpoint.pt"), "--seed", str(config.seed),
          *config.parser_args], work / "parser.log", config.threads)
    done.write_text(datetime.datetime.now(datetime.timezone.utc).isoformat())
    return model


class _EvalResponse:
    """The part of CoreNLP's EvaluateParserResponse that stanza's trainer reads."""

    def __init__(self, f1: float, tree_f1: float):
        self.f1, self.treeF1 = f1, tree_f1

    def HasField(self, name: str) -> bool:  # noqa: N802 - protobuf method name
        return False


class BracketF1Evaluator:
    """Drop-in for `stanza.server.parser_eval.EvaluateParser` (CoreNLP's Java EvalB) that scores with
    `evaluate.score_parses`: `.f1` = labeled bracket F1, `.treeF1` = exact-template match (for the log)."""

    def __init__(self, kbest=None):
        self.kbest = kbest

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        return False

    def process(self, results) -> _EvalResponse:
        gold = [parse_one("{}".format(result.gold)) for result in results]
        predicted = [parse_one("{}".format(result.predictions[0].tree)) for result in results]
        scores = score_parses(gold, predicted)
        logger.info("dev: bracket F1 %.4f, exact template %.4f", scores.bracket_f1, scores.exact_template_match)
        return _EvalResponse(scores.bracket_f1, scores.exact_template_match)


def run_stanza_constituency(argv: list[str]) -> None:
    """stanza's constituency trainer with `BracketF1Evaluator` as its dev scorer."""
    import torch
    from stanza.models import constituency_parser
    from stanza.models.constituency import parser_training

    torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "1")))
    parser_training.EvaluateParser = BracketF1Evaluator
    constituency_parser.main(argv)


def loadable_transition(saved: str) -> str:
    """A saved transition as stanza 1.15 can read it back. It saves compound transitions with bare labels,
    `CompoundUnary(S,VP)`, `Finalize(ROOT)`, but reads the labels with `ast.literal_eval`, which fails on them: a
    model trained with a `*_COMPOUND` or `*_UNARY` transition scheme does not load. Such labels are rewritten as a
    tuple of strings, `CompoundUnary('S', 'VP',)`, which its reader turns into the same transition; everything
    else (and labels it can already read) is returned as it is."""
    import ast
    kind, _, rest = saved.partition("(")
    if kind not in ("CompoundUnary", "Finalize") or not rest.endswith(")"):
        return saved
    try:
        ast.literal_eval(rest[:-1])
        return saved
    except (ValueError, SyntaxError):
        return kind + "(" + "".join(f"{label!r}, " for label in rest[:-1].split(",")) + ")"


def mark_xpos_model(source: Path, target: Path) -> None:
    """Copy a constituency model trained with `--no_retag` on PTB-tagged trees and record in it that it reads XPOS
    (PTB) tags: stanza's ConstituencyProcessor feeds `word.xpos` only to models whose config has a retag package
    and retag_method 'xpos' (`LSTMModel.uses_xpos`), otherwise `word.upos`, which this model never saw. The
    optimizer state is dropped (inference only), and compound transitions are saved so that stanza can read them
    (`loadable_transition`)."""
    import torch
    checkpoint = load_weights_only(source)
    for state in ("optimizer_state_dict", "scheduler_state_dict"):
        checkpoint.pop(state, None)
    checkpoint["params"]["config"]["retag_package"] = "paranmt-ptb-tagger"
    checkpoint["params"]["config"]["retag_method"] = "xpos"
    checkpoint["params"]["transitions"] = [loadable_transition(saved) for saved in checkpoint["params"]["transitions"]]
    torch.save(checkpoint, target)


def package(config: ParserTrainConfig, work: Path, output: Path, summary: dict, tagger: Path, parser: Path,
            pretrain: Path, config_path: str | None) -> dict:
    """Step 5; returns the MANIFEST dict."""
    from paranmt.models.parsing.parser import DESCRIPTOR, StanzaParser

    output.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(pretrain, output / "pretrain.pt")
    shutil.copyfile(tagger, output / "pos.pt")
    mark_xpos_model(parser, output / "constituency.pt")
    (output / DESCRIPTOR).write_text(json.dumps({"pos_model": "pos.pt", "constituency_model": "constituency.pt",
                                                 "pretrain": "pretrain.pt", "lang": "en"}, indent=1) + "\n")
    (output / "resources.json").write_text("{}\n")  # stanza's Pipeline reads it even when nothing is downloaded
    gold = [parse_one(line) for line in (work / "data" / "test.mrg").read_text().splitlines()]
    parser_model = StanzaParser(str(output), device="cpu")
    start = time.perf_counter()
    predicted = parser_model.parse([tree.leaves() for tree in gold])
    seconds = time.perf_counter() - start
    failed = sum(tree is None for tree in predicted)
    if failed:
        raise RuntimeError(f"the packaged parser failed on {failed} test sentences")
    scores = score_parses(gold, predicted)
    vectors_info = json.loads((work / "vectors.json").read_text())
    training = training_summary(work, parser)
    manifest = {
        "name": "parser-en",
        "what": "English POS tagger + constituency parser (stanza 1.15 models) for the parse stage; "
                "input: PTB-tokenized words; tags: PTB (XPOS); trees: PTB labels without function tags",
        "files": [{"path": path.name, "sha256": file_sha256(path), "bytes": path.stat().st_size}
                  for path in sorted(output.iterdir()) if path.is_file() and path.name != "MANIFEST.json"],
        "recipe": {
            "command": "paranmt train-parser" + (f" --config {config_path}" if config_path else "")
                       + f" --work-dir {work} --output {output}",
            "code": "models/parsing/train.py (steps: " + ", ".join(STEPS) + ")",
            "config": config.to_dict(),
            "stanza_version": _stanza_version(),
            "training": training,
        },
        "data": {
            "treebank": "Penn Treebank WSJ sample (NLTK 10%, wsj_0001..0179): ../shared/data/treebank/ptb-sample "
                        "(function tags, -NONE- traces and empty constituents removed)",
            "splits": summary,
            "word_vectors": {"method": "PPMI-SVD (models/parsing/vectors.py), lowercased",
                             "text": "English side of ../shared/data/bitext/cs-en (*.eng) + PTB train words, "
                                     f"tokenized by {TOKENIZER_NAME}", **vectors_info},
        },
        "quality_on_test": {
            "split": f"held-out files {summary['test']['files']}, gold tokens, predicted tags",
            "pos_accuracy": round(scores.pos_accuracy, 4),
            "bracket_f1": round(scores.bracket_f1, 4),
            "bracket_precision": round(scores.precision, 4),
            "bracket_recall": round(scores.recall, 4),
            "exact_template_match": round(scores.exact_template_match, 4),
            "sentences": scores.sentences,
            "words": scores.words,
            "scorer": "models/parsing/evaluate.py (evalb COLLINS.prm conventions)",
            "parse_seconds_cpu": round(seconds, 1),
        },
        "licence": "trained on the NLTK PTB sample: LDC, non-commercial research use only (see the data's SOURCE)",
    }
    (output / "MANIFEST.json").write_text(json.dumps(manifest, indent=1) + "\n")
    (work / PACKAGED).write_text(json.dumps({"output": str(output.resolve()),
                                             "manifest_sha256": file_sha256(output / "MANIFEST.json")}) + "\n")
    return manifest


def training_summary(work: Path, parser: Path) -> dict:
    """Epochs and dev scores of the two trainings (from the parser checkpoint and the tagger log)."""
    checkpoint = load_weights_only(parser.parent / "checkpoint.pt")
    tagger_dev = [(int(step), float(score)) for step, score in
                  re.findall(r"step (\d+): train_loss = \S+, dev_score = ([0-9.]+)", (work / "tagger.log").read_text())]
    return {"parser": {"epochs_trained": checkpoint["epochs_trained"], "best_epoch": checkpoint["best_epoch"],
                       "dev_bracket_f1": round(checkpoint["best_f1"], 4)},
            "tagger": {"last_step": max(step for step, _ in tagger_dev) if tagger_dev else None,
                       "best_dev_score": max(score for _, score in tagger_dev) if tagger_dev else None,
                       "dev_score": "stanza's AllTags accuracy (UPOS, XPOS and features all right)"}}


def _stanza_version() -> str:
    import stanza
    return stanza.__version__


def run(config: ParserTrainConfig, work: Path, output: Path, steps: tuple[str, ...] = STEPS,
        config_path: str | None = None) -> dict | None:
    """Run the recipe's `steps` in order (each resumes from what `work` already holds). The torch files `work`
    already holds (WORK_TORCH_FILES) are loaded weights-only first: a file that would run code is refused with one
    line naming it (paranmt.models.safe_load) before stanza or the package step reads it."""
    for name in WORK_TORCH_FILES:
        if (work / name).is_file():
            load_weights_only(work / name)
    work.mkdir(parents=True, exist_ok=True)
    summary = prepare(config, work)
    logger.info("data: %s", summary)
    if "vectors" not in steps:
        return None
    pretrain = build_vectors(config, work)
    tagger = train_tagger(config, work, pretrain) if "tagger" in steps else None
    parser = train_parser(config, work, pretrain) if "parser" in steps else None
    if "package" in steps:
        if tagger is None or parser is None:
            raise ValueError("the package step needs the tagger and parser steps")
        return package(config, work, output, summary, tagger, parser, pretrain, config_path)
    return None


def main(argv: list[str] | None = None) -> None:
    """`python -m paranmt.models.parsing.train stanza-constituency ARGS`: the patched stanza trainer (step 4)."""
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] != "stanza-constituency":
        raise SystemExit("usage: python -m paranmt.models.parsing.train stanza-constituency STANZA_ARGS "
                         "(the full recipe is `paranmt train-parser`)")
    logging.basicConfig(level=logging.INFO)
    run_stanza_constituency(argv[1:])


if __name__ == "__main__":
    main()
