"""A reproducible fairseq NMT training recipe, driven by one YAML config (see configs/nmt/cs-en-small.yaml).

Steps (each writes a `.done` marker in the work directory, so rerunning the recipe skips finished steps, and
`fairseq-train` resumes from `checkpoints/checkpoint_last.pt`):

1. `data`:        read the bitext (Moses two-file `<stem>.<src>` / `<stem>.<tgt>` pairs, or TSV `src TAB tgt`:
                  models/pairs.py, lines read as `paranmt build` reads them),
                  hold out the `heldout` stems (never trained on), take the first `valid_lines` pairs of the
                  `valid` stem as fairseq's validation set (the rest of that stem stays untouched as a test set),
                  normalize punctuation (sacremoses, as the build pipeline's clean stage does), drop pairs with an
                  empty side or more than `max_chars` characters on a side.
2. `spm`:         one shared sentencepiece model over both sides of the training data (`vocab_size`, `model_type`).
3. `preprocess`:  `fairseq-preprocess --joined-dictionary` over the sentencepiece-encoded files.
4. `train`:       `fairseq-train` with the model / optimization arguments of the config; stops at `max_epoch` or
                  after `stop_time_hours` of cumulative training time (kept in the checkpoint), whichever first.
5. `mrt`:         (objective `mrt` only) minimum risk training on top of a maximum-likelihood model (thesis ch. 7;
                  models/nmt/mrt.py): `fairseq-train --user-dir models/nmt/paranmt_mrt --criterion mrt` restored
                  from `mrt.init_checkpoint` (default: the `train` step's checkpoint_last.pt, or the `init_from`
                  model's fairseq/model.pt) with a fresh optimizer, into `checkpoints-mrt-<cost>/` (rerunning
                  resumes there; log `train-mrt-<cost>.log`). Its optimization flags are `mrt.train`.

`init_from` (a model directory in the layout `convert-nmt` writes, e.g. the shipped assets/nmt-cs-en): the `spm`
step copies its sentencepiece model instead of training one, `preprocess` uses its dictionary, and the default
steps skip `train` (the model exists): `paranmt train-nmt --config configs/nmt/mrt-demo.yaml` runs MRT on the
shipped model.

fairseq's tools load their checkpoints with `torch.load`. Every checkpoint `fairseq-train` would read (the
`init_from` model, `mrt.init_checkpoint`, a `--save-dir`'s checkpoint_last.pt, a `restore_file` or
`finetune_from_model` of the config) is loaded weights-only before any step runs (paranmt.models.safe_load: one
line naming a refused file, exit 2), and the fairseq subprocesses run through this module
(`python -m paranmt.models.nmt.recipe fairseq_cli.train ...`), which allowlists the `argparse.Namespace` of fairseq
checkpoints and forces weights-only loading (TORCH_FORCE_WEIGHTS_ONLY_LOAD=1) for every load fairseq makes.
"""
from __future__ import annotations

import errno
import json
import logging
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar


from paranmt.models.encoding import LineRejects
from paranmt.models.files import model_directory, read_json
from paranmt.models.nmt.fairseq_options import fairseq_flags, option_value
from paranmt.models.pairs import aligned_pairs, tsv_pairs
from paranmt.schemas.config import Config, bounded, check_ranges, choice, load_config, setting
from paranmt.schemas.errors import ConfigError, PipelineStopped
from paranmt.schemas.paths import asset_path

log = logging.getLogger(__name__)

STEPS = ("data", "spm", "preprocess", "train", "mrt")
# what the recipe writes into its work directory (globs): what `--overwrite` deletes, what makes a work dir an
# earlier run's
WRITES = ("raw", "sp", "bin", "checkpoints", "checkpoints-mrt-*", "spm.model", "spm.vocab", ".*.done",
          "data_stats.json", "recipe_config.json", "train.log", "train-mrt-*.log")
OBJECTIVES = ("mle", "mrt")
LANGUAGE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")   # source_lang / target_lang (fairseq flags, file names)


@dataclass
class RecipeData:
    """Where the bitext comes from. `inputs` are directories (every `<stem>.<src>` with a `<stem>.<tgt>` beside it)
    or files (TSV, or the source-side file of a Moses pair); relative paths are relative to the working directory,
    as in a shell."""
    inputs: list[str] = field(default_factory=list)
    format: str = "moses"                 # moses | tsv
    suffixes: list[str] = field(default_factory=lambda: ["ces", "eng"])
    heldout: list[str] = field(default_factory=list)    # stems never trained on (dev/test sets)
    valid: str = ""                       # stem of the validation set (one of `heldout`)
    valid_lines: int = bounded(500, 1)    # first N pairs of `valid` go to fairseq's --valid set
    normalize_punctuation: bool = True
    max_chars: int = 1000


@dataclass
class RecipeSentencepiece:
    vocab_size: int = 8000
    model_type: str = "unigram"
    character_coverage: float = 1.0
    input_sentence_size: int = 2_000_000
    seed: int = 1


@dataclass
class RecipeMRT:
    """The minimum-risk stage (objective `mrt`; models/nmt/mrt.py). `train`: fairseq-train optimization flags of
    this stage. AMBIG: the thesis trains ConvS2S with Nesterov (lr 0.25, momentum 0.99, clip 0.1) for 10 epochs;
    that learning rate diverges a transformer trained with Adam, so the default continues with Adam at a small
    constant rate; `mrt.train` takes the thesis' settings for a ConvS2S model."""
    cost: str = choice("simile", ("simile", "bleu", "both"), flag={"name": "--mrt-cost"}, help="1-SIMILE, 1-BLEU+1, "
                       "or their mean")
    gamma: float = bounded(0.3, 0, 1, flag={"name": "--mrt-gamma"}, help="weight of the token-level loss")
    nbest: int = bounded(8, 2, flag={"name": "--mrt-nbest"}, help="n-best list size")
    simile_encoder: str = setting("assets/encoder-sp", flag={"name": "--mrt-encoder"}, help="SIMILE's encoder")
    init_checkpoint: str = setting("", flag={"name": "--mrt-init-checkpoint"}, help="checkpoint the minimum-risk "
                                   "stage starts from (default: the train step's checkpoint_last.pt, or init_from's "
                                   "model)")
    train: dict = field(default_factory=lambda: {
        "optimizer": "adam", "adam_betas": "(0.9, 0.98)", "lr": 5e-5, "lr_scheduler": "fixed",
        "clip_norm": 0.1, "max_tokens": 1024, "max_update": 200, "save_interval_updates": 50,
        "keep_interval_updates": 1, "no_epoch_checkpoints": True, "log_interval": 10, "seed": 1,
        "skip_invalid_size_inputs_valid_test": True})


@dataclass
class RecipeConfig(Config):
    """One NMT training run. `model` and `train` are passed to fairseq-train as `--key value` flags (keys with
    underscores become dashes; `true` gives a bare flag; `false`/null leaves the flag out), only the options of
    models/nmt/fairseq_options.py, each checked and rendered by its kind (no value reaches fairseq's `eval` or
    its `--user-dir` import). Paths (`work_dir`, `data.inputs`, `init_from`, `mrt.init_checkpoint`) are relative
    to the working directory, as in a shell."""
    SAVED_AS: ClassVar[str] = "recipe_config.json"
    source_lang: str = setting("cs", help="language of the source side of the bitext")
    target_lang: str = setting("en", help="language of the target side")
    work_dir: str = setting("work/nmt", help="override work_dir (data, sentencepiece, binarized data, checkpoints)")
    threads: int = bounded(0, 0, help="override threads of the fairseq subprocesses and of sentencepiece (0: one per "
                            "core)")
    nice: int = setting(10, help="niceness of the fairseq subprocesses (0 = as the caller)")
    data: RecipeData = field(default_factory=RecipeData)
    sentencepiece: RecipeSentencepiece = field(default_factory=RecipeSentencepiece)
    model: dict = field(default_factory=dict)
    train: dict = field(default_factory=dict)
    objective: str = choice("mle", OBJECTIVES, help="mrt: add the minimum-risk stage")
    init_from: str = setting("", help="start from an existing model directory (e.g. assets/nmt-cs-en)")
    mrt: RecipeMRT = field(default_factory=RecipeMRT)

    def validate(self) -> "RecipeConfig":
        check_ranges(self)
        for key in ("source_lang", "target_lang"):
            if not LANGUAGE.fullmatch(str(getattr(self, key))):
                raise ConfigError(f"nmt recipe: {key} must be a language code (letters, digits, '_', '-'), "
                                  f"not {getattr(self, key)!r}")
        for where, options in (("model", self.model), ("train", self.train), ("mrt.train", self.mrt.train)):
            fairseq_flags(options, where)
        if self.init_from and not (model_directory(resolve(self.init_from), "nmt recipe: init_from")
                                   / "nmt.json").is_file():
            raise ConfigError(f"nmt recipe: init_from {self.init_from!r} is not a model directory (no nmt.json)")
        if not self.data.inputs:
            raise ConfigError("nmt recipe: data.inputs is empty; list bitext directories or files")
        if self.data.format not in ("moses", "tsv"):
            raise ConfigError(f"nmt recipe: data.format must be moses or tsv, not {self.data.format!r}")
        if self.data.format == "moses" and len(self.data.suffixes) != 2:
            raise ConfigError("nmt recipe: data.suffixes needs exactly two suffixes: SOURCE, TARGET")
        if not self.data.valid:
            raise ConfigError("nmt recipe: data.valid must name the stem of the validation set")
        for path in self.data.inputs:
            if not Path(resolve(path)).exists():
                raise ConfigError(f"nmt recipe: input {path!r} does not exist")
        return self

    def cpu_threads(self) -> int:
        """The threads of the fairseq subprocesses and of sentencepiece: `threads`, or one per core when it is 0."""
        return self.threads or os.cpu_count() or 1


def resolve(path: str) -> str:
    """`path` made absolute: as given when it is, else relative to the working directory (as in a shell)."""
    return os.path.abspath(path)


def load_recipe_config(path: str, overrides: dict | None = None) -> RecipeConfig:
    """Defaults <- YAML <- overrides (dotted keys, None ignored), by the project's one config loader."""
    return load_config(RecipeConfig, path, overrides, what="nmt recipe config").validate()


# ---------------------------------------------------------------------------------------------------- data

def bitext_files(data: RecipeData) -> list[tuple[str, str, str | None]]:
    """(stem, source_path, target_path or None for TSV) for every input, sorted by path for determinism."""
    found = []
    src_suffix, tgt_suffix = (data.suffixes + ["", ""])[:2]
    for spec in data.inputs:
        path = Path(resolve(spec))
        if data.format == "tsv":
            files = sorted(path.glob("*.tsv")) if path.is_dir() else [path]
            found += [(f.stem, str(f), None) for f in files]
            continue
        sources = sorted(path.glob(f"*.{src_suffix}")) if path.is_dir() else [path]
        for source in sources:
            stem = source.name[: -len(src_suffix) - 1]
            target = source.with_name(f"{stem}.{tgt_suffix}")
            if not target.exists():
                raise ConfigError(f"nmt recipe: {source} has no target-side file {target.name}")
            found.append((stem, str(source), str(target)))
    return found


def prepare_data(config: RecipeConfig, out_dir: Path) -> dict:
    """Write raw (normalized) train / valid / test text files; return counts per split and per input stem."""
    from sacremoses import MosesPunctNormalizer

    data = config.data
    normalizers = {lang: MosesPunctNormalizer(lang=lang) for lang in (config.source_lang, config.target_lang)}
    splits = {name: ([], []) for name in ("train", "valid", "test")}
    stats: dict = {"inputs": {}, "dropped_empty": 0, "dropped_too_long": 0}
    rejects = LineRejects()
    for stem, source, target in bitext_files(data):
        kept = 0
        pairs = aligned_pairs(source, target, rejects, ValueError) if target is not None else (
            (row["source"], row["target"]) for row in tsv_pairs(source, rejects, ("source", "target"), error=ValueError))
        for line_number, (src, tgt) in enumerate(pairs):
            src, tgt = src.strip(), tgt.strip()
            if not src or not tgt:
                stats["dropped_empty"] += 1
                continue
            if len(src) > data.max_chars or len(tgt) > data.max_chars:
                stats["dropped_too_long"] += 1
                continue
            if data.normalize_punctuation:
                src = normalizers[config.source_lang].normalize(src)
                tgt = normalizers[config.target_lang].normalize(tgt)
            if stem == data.valid:
                split = "valid" if line_number < data.valid_lines else "test"
            elif stem in data.heldout:
                continue
            else:
                split = "train"
            splits[split][0].append(src)
            splits[split][1].append(tgt)
            kept += 1
        stats["inputs"][stem] = {"pairs": kept, "role": "valid/test" if stem == data.valid
                                 else "heldout" if stem in data.heldout else "train"}
    stats.update(rejected=rejects.by_reason, not_utf8=rejects.advice())
    if not splits["train"][0]:
        raise ConfigError("nmt recipe: no training pairs were read (check data.inputs / data.suffixes)")
    if not splits["valid"][0]:
        raise ConfigError(f"nmt recipe: the validation stem {data.valid!r} was not found among the inputs")
    out_dir.mkdir(parents=True, exist_ok=True)
    for split, (src_lines, tgt_lines) in splits.items():
        for lang, lines in ((config.source_lang, src_lines), (config.target_lang, tgt_lines)):
            (out_dir / f"{split}.{lang}").write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        stats[split] = len(src_lines)
    return stats


# ---------------------------------------------------------------------------------------------------- recipe

class NMTRecipe:
    """Runs the steps of one RecipeConfig in `config.work_dir` (see the module docstring)."""

    def __init__(self, config: RecipeConfig):
        self.config = config
        self.work = Path(resolve(config.work_dir))
        self.raw = self.work / "raw"
        self.sp = self.work / "sp"
        self.bin = self.work / "bin"
        self.checkpoints = self.work / "checkpoints"
        self.spm_model = self.work / "spm.model"
        self.log_path = self.work / "train.log"

    # -- helpers
    def _done(self, step: str) -> Path:
        return self.work / f".{step}.done"

    def written(self) -> list[Path]:
        """What an earlier run of the recipe left in the work directory (WRITES)."""
        return sorted(path for pattern in WRITES for path in self.work.glob(pattern))

    def done_steps(self) -> list[str]:
        """The steps marked done in the work directory."""
        return [step for step in STEPS if self._done(step).exists()]

    def last_checkpoint(self) -> Path | None:
        """The checkpoint_last.pt that a rerun of the train or mrt step continues from (the newest), if any."""
        found = [path for path in (self.checkpoints / "checkpoint_last.pt", self.mrt_save_dir() / "checkpoint_last.pt")
                 if path.is_file()]
        return max(found, key=lambda path: path.stat().st_mtime) if found else None

    def _env(self) -> dict:
        """The fairseq subprocesses' environment: weights-only loading forced (module docstring)."""
        env = {k: v for k, v in os.environ.items() if k != "TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD"}
        threads = str(self.config.cpu_threads())
        env.update(TORCH_FORCE_WEIGHTS_ONLY_LOAD="1", OMP_NUM_THREADS=threads, MKL_NUM_THREADS=threads,
                   PYTHONUNBUFFERED="1")
        return env

    def _run(self, module: str, args: list[str], log_path: Path | None = None) -> None:
        """Run a fairseq tool as a subprocess (through `run_fairseq_tool`), appending its output to `log_path`
        (default: work/train.log)."""
        log_path = log_path or self.log_path
        command = [sys.executable, "-m", "paranmt.models.nmt.recipe", module, *args]
        if self.config.nice:
            command = ["nice", "-n", str(self.config.nice), *command]
        log.info("running %s (log: %s)", " ".join(command), log_path)
        with open(log_path, "a", encoding="utf-8") as log_file:
            log_file.write(f"\n### {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())} {' '.join(command)}\n")
            log_file.flush()
            result = subprocess.run(command, stdout=log_file, stderr=subprocess.STDOUT, env=self._env())
        if result.returncode:
            tail = log_path.read_text(encoding="utf-8", errors="replace").splitlines()[-50:]
            if any("No space left on device" in line for line in tail):
                raise OSError(errno.ENOSPC, f"No space left on device (see {log_path})")
            raise PipelineStopped(f"{module} failed with exit code {result.returncode}; see {log_path}")

    # -- steps
    def step_data(self) -> None:
        stats = prepare_data(self.config, self.raw)
        (self.work / "data_stats.json").write_text(json.dumps(stats, indent=2))
        log.info("data: %d train, %d valid, %d test pairs", stats["train"], stats["valid"], stats["test"])
        for advice in stats["not_utf8"]:
            log.warning("data: %s", advice)
        if stats["rejected"]:
            log.warning("data: input lines rejected (%s); counted in %s", stats["rejected"],
                        self.work / "data_stats.json")

    def init_model(self) -> tuple[Path, dict] | None:
        """(directory, nmt.json) of `init_from`, or None."""
        if not self.config.init_from:
            return None
        directory = Path(resolve(self.config.init_from))
        return directory, read_json(directory / "nmt.json", dict, "NMT model descriptor")

    def default_steps(self) -> tuple[str, ...]:
        """data, spm, preprocess, then train (unless the model comes from init_from) and mrt (objective mrt)."""
        return tuple(s for s in STEPS if (s != "train" or not self.config.init_from)
                     and (s != "mrt" or self.config.objective == "mrt"))

    def step_spm(self) -> None:
        init = self.init_model()
        if init:
            shutil.copyfile(init[0] / init[1]["spm"], self.spm_model)
        else:
            self._train_spm()
        self._encode_splits()

    def _train_spm(self) -> None:
        import sentencepiece as spm

        c, sp = self.config, self.config.sentencepiece
        spm.set_random_generator_seed(sp.seed)
        spm.SentencePieceTrainer.train(
            input=[str(self.raw / f"train.{c.source_lang}"), str(self.raw / f"train.{c.target_lang}")],
            model_prefix=str(self.work / "spm"), vocab_size=sp.vocab_size, model_type=sp.model_type,
            character_coverage=sp.character_coverage, input_sentence_size=sp.input_sentence_size,
            shuffle_input_sentence=True, seed_sentencepiece_size=1_000_000, num_threads=c.cpu_threads(),
            minloglevel=2)

    def _encode_splits(self) -> None:
        import sentencepiece as spm

        c = self.config
        processor = spm.SentencePieceProcessor(model_file=str(self.spm_model))
        self.sp.mkdir(parents=True, exist_ok=True)
        for split in ("train", "valid", "test"):
            for lang in (c.source_lang, c.target_lang):
                lines = (self.raw / f"{split}.{lang}").read_text(encoding="utf-8").splitlines()
                pieces = processor.encode(lines, out_type=str)
                (self.sp / f"{split}.{lang}").write_text("".join(" ".join(p) + "\n" for p in pieces),
                                                          encoding="utf-8")

    def step_preprocess(self) -> None:
        c = self.config
        self._run("fairseq_cli.preprocess", [
            "--source-lang", c.source_lang, "--target-lang", c.target_lang,
            "--trainpref", str(self.sp / "train"), "--validpref", str(self.sp / "valid"),
            "--testpref", str(self.sp / "test"), "--destdir", str(self.bin),
            "--joined-dictionary", "--workers", "1",
            *(["--srcdict", str(self.init_model()[0] / "fairseq" / f"dict.{c.source_lang}.txt")]
              if self.config.init_from else [])])

    def fairseq_train_args(self, save_dir: Path, extra: list[str], train: dict, where: str) -> list[str]:
        """fairseq-train's arguments: the binarized data, `save_dir`, `extra`, the model flags and `train`'s (the
        config section `where`), checked and rendered by fairseq_options.fairseq_flags."""
        from paranmt.models.device import cuda_available

        c = self.config
        args = [str(self.bin), "--source-lang", c.source_lang, "--target-lang", c.target_lang,
                "--save-dir", str(save_dir), "--num-workers", "0", "--log-format", "simple", *extra]
        args += fairseq_flags(c.model, "model") + fairseq_flags(train, where)
        if not cuda_available():
            args.append("--cpu")
        return args

    def train_args(self) -> list[str]:
        return self.fairseq_train_args(self.checkpoints, [], self.config.train, "train")

    def step_train(self) -> None:
        self._run("fairseq_cli.train", self.train_args())

    def mrt_save_dir(self) -> Path:
        return self.work / f"checkpoints-mrt-{self.config.mrt.cost}"

    def mrt_init(self) -> str:
        """The checkpoint the minimum-risk stage starts from: `mrt.init_checkpoint`, else the `init_from` model,
        else the train step's checkpoint_last.pt."""
        c = self.config
        return c.mrt.init_checkpoint or (str(self.init_model()[0] / self.init_model()[1]["fairseq"]) if c.init_from
                                         else str(self.checkpoints / "checkpoint_last.pt"))

    def mrt_args(self) -> list[str]:
        """fairseq-train arguments of the minimum-risk stage (module docstring, step 5)."""
        from paranmt.models.nmt import paranmt_mrt_dir

        c, m = self.config, self.config.mrt
        save_dir, init = self.mrt_save_dir(), self.mrt_init()
        extra = ["--user-dir", str(paranmt_mrt_dir()), "--criterion", "mrt", "--mrt-cost", m.cost,
                 "--mrt-gamma", str(m.gamma), "--mrt-nbest", str(m.nbest),
                 "--mrt-simile-encoder", resolve(asset_path(m.simile_encoder)),
                 "--label-smoothing", option_value("label_smoothing", c.train.get("label_smoothing"), "train") or "0.1"]
        if not (save_dir / "checkpoint_last.pt").is_file():       # first run: start from the MLE model
            if not Path(resolve(init)).is_file():
                raise ConfigError(f"nmt recipe: mrt.init_checkpoint {init} does not exist; run the train step "
                                  f"first or set mrt.init_checkpoint / init_from")
            extra += ["--restore-file", str(Path(resolve(init)).resolve()), "--reset-optimizer",
                      "--reset-lr-scheduler", "--reset-dataloader", "--reset-meters"]
        return self.fairseq_train_args(save_dir, extra, m.train, "mrt.train")

    def step_mrt(self) -> None:
        self._run("fairseq_cli.train", self.mrt_args(), self.work / f"train-mrt-{self.config.mrt.cost}.log")

    def checkpoints_read(self, steps: tuple[str, ...]) -> list[Path]:
        """The existing checkpoint files that fairseq-train would load in the `train` and `mrt` steps of `steps`:
        each step's checkpoint_last.pt (resume), the MRT start model, and a `restore_file` / `finetune_from_model`
        of the step's flags (fairseq reads those relative to the working directory)."""
        candidates = []
        for step, save_dir, train in (("train", self.checkpoints, self.config.train),
                                      ("mrt", self.mrt_save_dir(), self.config.mrt.train)):
            if step not in steps:
                continue
            candidates.append(save_dir / "checkpoint_last.pt")
            candidates += [Path(str(train[key])) for key in ("restore_file", "finetune_from_model") if train.get(key)]
            if step == "mrt":
                candidates.append(Path(resolve(self.mrt_init())))
        return [path for path in dict.fromkeys(candidates) if path.is_file()]

    def run(self, steps: tuple[str, ...] | None = None, force: bool = False) -> None:
        """Run `steps` (default_steps()); first every checkpoint fairseq-train would load is loaded weights-only
        (UnsafeFileError, one line naming a refused file: module docstring)."""
        from paranmt.models.nmt.export import load_checkpoint

        steps = self.default_steps() if steps is None else steps
        for path in self.checkpoints_read(steps):
            load_checkpoint(path)
        self.work.mkdir(parents=True, exist_ok=True)
        self.config.save(self.work)
        for step in steps:
            done = self._done(step)
            if done.exists() and not force and step not in ("train", "mrt"):
                log.info("step %s already done (%s)", step, done)
                continue
            start = time.time()
            getattr(self, f"step_{step}")()
            done.write_text(f"{time.time() - start:.1f} s\n")
            log.info("step %s finished in %.1f s", step, time.time() - start)


def run_fairseq_tool(argv: list[str]) -> None:
    """`python -m paranmt.models.nmt.recipe MODULE ARGS`: run the fairseq command-line module MODULE (e.g.
    fairseq_cli.train) with the `argparse.Namespace` of fairseq checkpoints allowlisted for torch's weights-only
    unpickler (the recipe's subprocesses also get TORCH_FORCE_WEIGHTS_ONLY_LOAD=1: NMTRecipe._env)."""
    import runpy

    from paranmt.models.nmt.export import allow_fairseq_checkpoints

    allow_fairseq_checkpoints()
    sys.argv = list(argv)            # runpy puts the module's path in argv[0]
    runpy.run_module(argv[0], run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    run_fairseq_tool(sys.argv[1:])
