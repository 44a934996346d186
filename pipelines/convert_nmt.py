"""`paranmt convert-nmt`: make an NMT model directory that both translate backends load.

From a recipe run (`--recipe configs/nmt/cs-en-small.yaml`, or explicit `--checkpoints/--data-bin/--spm`):
average the last epoch checkpoints, strip the optimizer state, store fp16 weights, copy the dictionaries and the
sentencepiece model, and convert the result with ctranslate2's fairseq converter into `<output>/ct2`.
From any fairseq checkpoint (`--fairseq-checkpoint model.pt`, its dict.<lang>.txt beside it): only the
ctranslate2 conversion, into `--output`.
Both read the checkpoint weights-only (fairseq checkpoints are pickles): one that holds more than tensors, plain
data and fairseq's argparse.Namespace is refused in one line (docs/translate.md).
From a Hugging Face MarianMT / M2M-100 / NLLB directory (`--transformers DIR`, local or gs://): CTranslate2's
Transformers converter, the sentencepiece models and an nmt.json (family, language tokens, source model path and
sha256) into `--output`, which the ctranslate2 backend loads as it is (paranmt.models.nmt.hf).
Each also writes CTranslate2's vocabulary map (`vmap.txt` beside the ct2 model, for `translate.use_vmap`) from
sentence pairs in the model's pieces (paranmt.models.nmt.vmap): the bitext `--vmap-source/--vmap-target`, by
default the recipe's training data (`<work_dir>/raw/train.<lang>`) with `--recipe`; or, with `--vmap-source` alone
(monolingual source text, e.g. for a downloaded model whose training data you do not have), the model's own
statistics: the converted model translates those lines (unrestricted, beam 4) and its outputs are the target
side. Without any of these, no map. The map lists the `--vmap-common` (300) target pieces found in the most target
sentences and, per source piece, the `--vmap-per-source` (20) target pieces of highest Dice association (plus the
piece itself); larger maps stay closer to unrestricted decoding and restrict less. It can change the
best hypotheses (measured in docs/translate.md, "Vocabulary map"): check with `eval-nmt --use-vmap`.

Output (docs/reliability.md, "Every command that writes"): an `--output` that is, holds or lies inside an input is
refused; one holding an earlier conversion needs `--overwrite`, which deletes it first (the export of a training run:
its fairseq/, ct2/, spm.model, nmt.json, MANIFEST.json; the others: the whole directory, which CTranslate2's
converter replaces, so a non-empty directory holding no converted model is refused). Ctrl-C, SIGTERM or a full disk
stop it with one line (exit 130 / 143 / 1) after removing what it wrote.

Settings (ConvertConfig): defaults <- `--config YAML` of its keys <- flags <- `--set KEY=VALUE`. A `--config` naming
a recipe YAML (the old form of `--recipe`, told apart by the recipe's keys) is still read as `--recipe`.
"""
from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

from paranmt.models.nmt.evaluate import NmtEvalConfig
from paranmt.models.nmt.export import ConvertConfig
from paranmt.pipelines.runtime.command import Command, OutputFile, RunFolder, claimed_in_run
from paranmt.pipelines.runtime.outputs import check_apart, left_in, replace_earlier, rerun_stops
from paranmt.schemas.errors import ConfigError

log = logging.getLogger(__name__)


def write_vocabulary_map(args, config, model_path: str, default_files: tuple[Path, Path] | None = None) -> None:
    """vmap.txt for the model written at `model_path` from --vmap-source/--vmap-target (models/nmt/vmap.py
    `vocabulary_map`, with the ConvertConfig `config`), said in a line."""
    from paranmt.models.nmt.vmap import vocabulary_map

    line = vocabulary_map(model_path, config, args.vmap_source, args.vmap_target, default_files)
    if line:
        print(line)


# what the export of a training run writes into --output (other files there stay); the other conversions hand the
# whole directory to CTranslate2's converter, which replaces it
RUN_EXPORT_FILES = ("fairseq", "ct2", "spm.model", "nmt.json", "MANIFEST.json")


def claim_output(args, inputs: list, whole: bool) -> None:
    """The output contract (module docstring): --output apart from `inputs`; an earlier conversion there needs
    --overwrite (which deletes it first); when the converter replaces the `whole` directory, a non-empty one that
    holds no converted model (model.bin, nmt.json) is refused even with --overwrite."""
    check_apart(args.output, inputs)
    output = Path(args.output)
    if output.exists() and not output.is_dir():
        raise ConfigError(f"--output {output} exists and is not a directory")
    earlier = left_in(args.output, None if whole else RUN_EXPORT_FILES)
    if whole and earlier and not any((output / name).is_file() for name in ("model.bin", "nmt.json")):
        raise ConfigError(f"--output {output} is not empty and holds no converted model; CTranslate2's converter "
                          f"replaces the whole directory: choose a new one")
    replace_earlier(args.output, earlier, args.overwrite, "a converted model")


def run_transformers(args, config, source: str) -> None:
    from paranmt.models.nmt.hf import NotATranslationModel, convert_transformers_to_ctranslate2

    try:
        descriptor = convert_transformers_to_ctranslate2(source, args.output, args.quantization,
                                                         source_name=args.transformers)
    except NotATranslationModel as error:
        raise ConfigError(f"--transformers: {error}") from None
    write_vocabulary_map(args, config, args.output)
    languages = ", ".join(sorted(descriptor["language_codes"])) or "/".join(str(p) for p in descriptor["pair"])
    print(f"wrote {args.output}: {descriptor['family']} model, {descriptor['ct2_quantization']} weights, "
          f"languages: {languages}")


def transformers_source(args) -> str:
    """The local directory of --transformers (a remote one through the model cache)."""
    from paranmt.transforms.io.model_cache import ModelCacheError, local_model_path

    try:
        source = local_model_path(args.transformers)
    except ModelCacheError as error:
        raise ConfigError(str(error)) from None
    if not Path(source).is_dir():
        raise ConfigError(f"--transformers {args.transformers}: no such directory")
    return source


def run(config: ConvertConfig, args) -> int:
    """Convert what the arguments name (module docstring) into --output, with the settings `config`."""
    from paranmt.models.nmt.export import check_dictionaries, convert_fairseq_to_ctranslate2, load_checkpoint

    set_settings(args, config)
    vmap_files = [args.vmap_source, args.vmap_target]
    whole = bool(args.transformers or args.fairseq_checkpoint)
    written = (lambda: left_in(args.output, None if whole else RUN_EXPORT_FILES))
    if args.transformers:
        source = transformers_source(args)
        claim_output(args, [args.transformers, source, *vmap_files], whole)
        with rerun_stops(args.output, getattr(args, "argv", None), "convert-nmt", written):
            run_transformers(args, config, source)
        return 0
    if args.fairseq_checkpoint and args.vmap_source:
        raise ConfigError("--vmap-source needs a model directory (--recipe, --checkpoints or --transformers); "
                          "--fairseq-checkpoint writes a bare ct2 model")
    if args.fairseq_checkpoint:
        checkpoint = Path(args.fairseq_checkpoint)
        if not checkpoint.is_file():
            raise ConfigError(f"fairseq checkpoint {checkpoint} does not exist")
        dictionaries = [checkpoint.parent / f"dict.{lang}.txt" for lang in (args.source_lang, args.target_lang)]
        missing = [str(path) for path in dictionaries if not path.is_file()]
        if missing:
            raise ConfigError(f"fairseq checkpoint {checkpoint} needs its dictionaries beside it: "
                              f"{', '.join(missing)} missing (--source-lang / --target-lang name them)")
        check_dictionaries(load_checkpoint(checkpoint), checkpoint.parent, args.source_lang, args.target_lang)
        claim_output(args, [checkpoint, *dictionaries], whole)
        with rerun_stops(args.output, getattr(args, "argv", None), "convert-nmt", written):
            convert_fairseq_to_ctranslate2(str(checkpoint), str(checkpoint.parent), args.output, args.source_lang,
                                           args.target_lang, args.quantization)
        print(f"wrote {args.output}")
        return 0
    recipe = None
    if args.recipe:
        from paranmt.models.nmt.recipe import NMTRecipe, load_recipe_config

        recipe = NMTRecipe(load_recipe_config(args.recipe))
        checkpoints, data_bin, spm = recipe.checkpoints, recipe.bin, recipe.spm_model
        source_lang, target_lang = recipe.config.source_lang, recipe.config.target_lang
        vmap_data = (recipe.raw / f"train.{source_lang}", recipe.raw / f"train.{target_lang}")
    else:
        if not (args.checkpoints and args.data_bin and args.spm):
            raise ConfigError("give --recipe RECIPE.yaml, or --checkpoints, --data-bin and --spm, "
                              "or --fairseq-checkpoint")
        checkpoints, data_bin, spm = Path(args.checkpoints), Path(args.data_bin), Path(args.spm)
        source_lang, target_lang = args.source_lang, args.target_lang
        vmap_data = None
    for path in (checkpoints, data_bin, spm):
        if not Path(path).exists():
            raise ConfigError(f"{path} does not exist (has the recipe been run?)")
    claim_output(args, [checkpoints, data_bin, spm, *(vmap_data or ()), *vmap_files], whole)
    with rerun_stops(args.output, getattr(args, "argv", None), "convert-nmt", written):
        export_run(args, config, recipe, checkpoints, data_bin, spm, source_lang, target_lang, vmap_data)
    return 0


def export_run(args, config, recipe, checkpoints: Path, data_bin: Path, spm: Path, source_lang: str,
               target_lang: str, vmap_data: tuple[Path, Path] | None) -> None:
    """The model directory of a training run (`recipe`: its NMTRecipe with --recipe, else None): the exported
    checkpoints, the vocabulary map and MANIFEST.json with the provenance."""
    from paranmt.models.nmt.export import export_model, run_provenance, write_manifest

    descriptor = export_model(str(checkpoints), str(data_bin), str(spm), args.output, source_lang, target_lang,
                              average_last=args.average_last, fp16=not args.fp32,
                              quantization=args.quantization)
    write_vocabulary_map(args, config, args.output, vmap_data)
    command = "paranmt " + " ".join(getattr(args, "argv", sys.argv[1:]))
    manifest = write_manifest(args.output, run_provenance(descriptor, command, recipe, args.recipe))
    print(json.dumps({"model": descriptor, "total_bytes": manifest["total_bytes"]}, indent=2))


def run_eval(config: NmtEvalConfig, args) -> int:
    """BLEU, chrF and SIMILE of a model directory on a source/reference file pair (optionally recorded in
    MANIFEST.json). SIMILE (paranmt.models.scoring.simile: SIM * LP**0.25 with the `--simile-encoder`, by default
    the score stage's shipped encoder) is the mean of the sentence scores, as `paranmt simile` prints it.
    `--hypotheses` (written once complete) must lie apart from the inputs, and an existing file there needs
    `--overwrite`; Ctrl-C, SIGTERM or a full disk stop it with one line (nothing is written then). Settings:
    NmtEvalConfig defaults <- `--config YAML` <- flags <- `--set KEY=VALUE`."""
    set_settings(args, config)
    return evaluate_model(args, config)


def evaluate_model(args, config) -> int:
    """`run_eval` once its output is claimed (`config`: its NmtEvalConfig)."""
    from paranmt.models.files import write_text_atomically
    from paranmt.models.nmt.evaluate import evaluate_model
    from paranmt.models.nmt.export import record_evaluation

    result, hypotheses = evaluate_model(config, args.model, args.source, args.reference)
    if args.hypotheses:
        write_text_atomically(args.hypotheses, "".join(h + "\n" for h in hypotheses))
    entry = {"backend": args.backend + ("+vmap" if args.use_vmap else ""),
             "test_set": args.test_name or Path(args.source).stem, "beam": args.beam,
             "skip_first": args.skip_first, "threads": args.threads, **result,
             "command": "paranmt " + " ".join(getattr(args, "argv", sys.argv[1:]))}
    if args.record:
        record_evaluation(args.model, entry)
    print(json.dumps(entry, indent=2))
    return 0


def set_settings(args, config) -> None:
    """The command's settings set on `args` in place of the flags'."""
    for key, value in config.to_dict().items():
        setattr(args, key, value)


def convert_flags(parser) -> None:
    """What convert-nmt converts and where to, which no config holds."""
    parser.add_argument("--output", required=True, help="model directory to write, e.g. assets/nmt-cs-en")
    parser.add_argument("--recipe", metavar="RECIPE.yaml",
                        help="the recipe YAML whose work_dir holds checkpoints, bin/, spm.model")
    parser.add_argument("--checkpoints", help="fairseq --save-dir of a training run")
    parser.add_argument("--data-bin", help="fairseq-preprocess destdir (dict.<lang>.txt)")
    parser.add_argument("--spm", help="sentencepiece model")
    parser.add_argument("--fairseq-checkpoint", help="convert only this checkpoint to ctranslate2")
    parser.add_argument("--transformers", metavar="DIR",
                        help="convert this Hugging Face MarianMT / M2M-100 / NLLB directory (save_pretrained or hub "
                             "snapshot layout, local or gs://) to ctranslate2")
    parser.add_argument("--vmap-source", metavar="FILE",
                        help="source side of the bitext for the vocabulary map vmap.txt (default with --recipe: "
                             "the recipe's training data); alone, without --vmap-target: monolingual source text "
                             "that the converted model translates itself (beam 4), the map then comes from the "
                             "model's own outputs")
    parser.add_argument("--vmap-target", metavar="FILE",
                        help="target side, aligned with --vmap-source (e.g. the model's training data)")


def recipe_given_as_config(args) -> None:
    """The old form of `--recipe`, `--config RECIPE.yaml`: a --config YAML holding a key of an NMT recipe that
    ConvertConfig has not (work_dir, data, ...) is read as --recipe, said in a line."""
    import dataclasses

    from paranmt.models.nmt.recipe import RecipeConfig
    from paranmt.schemas.config import read_yaml_mapping

    if not args.config:
        return
    settings = {spec.name for spec in dataclasses.fields(ConvertConfig)}
    recipe_keys = {spec.name for spec in dataclasses.fields(RecipeConfig)} - settings
    if not set(read_yaml_mapping(args.config, "convert-nmt config")) & recipe_keys:
        return
    if args.recipe:
        raise ConfigError(f"--config {args.config} is an NMT recipe, and --recipe names one too: give the recipe "
                          f"as --recipe alone")
    log.warning("--config %s is an NMT recipe: read as --recipe (the old form; give it as --recipe)", args.config)
    args.recipe, args.config = args.config, None


COMMAND = Command("convert-nmt", ConvertConfig, run, help="export fairseq checkpoints or a Hugging Face translation "
                  "model to a model directory (fairseq + ctranslate2)", description=__doc__, flags=convert_flags,
                  what="convert-nmt settings", example="vmap_common=1000", prepare=recipe_given_as_config,
                  config_help="YAML with ConvertConfig keys (the flags' names with _ for -; flags and --set win); "
                              "a recipe YAML there is still read as --recipe (the old form)",
                  output=RunFolder(claimed_in_run, "replace the converted model an earlier run wrote into --output "
                                   "(without it, an --output holding one is refused)"))


def eval_flags(parser) -> None:
    """The model, test set and translations file of eval-nmt, which no config holds."""
    parser.add_argument("--model", required=True, help="model directory, e.g. assets/nmt-cs-en")
    parser.add_argument("--source", required=True, help="one source sentence per line")
    parser.add_argument("--reference", required=True, help="one reference per line, aligned with --source")
    parser.add_argument("--hypotheses", help="write the translations to this file")


EVAL_NMT = Command("eval-nmt", NmtEvalConfig, run_eval, help="BLEU, chrF and SIMILE of an NMT model directory on a test "
                   "set", description=run_eval.__doc__, inputs=("source", "reference", "model"), flags=eval_flags,
                   example="beam=5", output=OutputFile("a file (an earlier run's translations?)", "nothing was written",
                                                       "replace an existing --hypotheses file (without it, one is "
                                                       "refused)", flag="hypotheses"))
