"""`paranmt convert-nmt`: make an NMT model directory that both translate backends load.

From a recipe run (`--config configs/nmt/cs-en-small.yaml`, or explicit `--checkpoints/--data-bin/--spm`):
average the last epoch checkpoints, strip the optimizer state, store fp16 weights, copy the dictionaries and the
sentencepiece model, and convert the result with ctranslate2's fairseq converter into `<output>/ct2`.
From any fairseq checkpoint (`--fairseq-checkpoint model.pt`, its dict.<lang>.txt beside it): only the
ctranslate2 conversion, into `--output`.
Both unpickle the checkpoint (fairseq checkpoints are pickles): only convert checkpoints you trust.
"""
from __future__ import annotations

import json
from pathlib import Path

from paranmt.schemas.config import ConfigError


def run(args) -> int:
    from paranmt.models.nmt.export import convert_fairseq_to_ctranslate2, export_model

    if args.fairseq_checkpoint:
        checkpoint = Path(args.fairseq_checkpoint)
        if not checkpoint.is_file():
            raise ConfigError(f"fairseq checkpoint {checkpoint} does not exist")
        convert_fairseq_to_ctranslate2(str(checkpoint), str(checkpoint.parent), args.output, args.source_lang,
                                       args.target_lang, args.quantization)
        print(f"wrote {args.output}")
        return 0
    if args.config:
        from paranmt.models.nmt.recipe import NMTRecipe, load_recipe_config

        recipe = NMTRecipe(load_recipe_config(args.config))
        checkpoints, data_bin, spm = recipe.checkpoints, recipe.bin, recipe.spm_model
        source_lang, target_lang = recipe.config.source_lang, recipe.config.target_lang
    else:
        if not (args.checkpoints and args.data_bin and args.spm):
            raise ConfigError("give --config RECIPE.yaml, or --checkpoints, --data-bin and --spm, "
                              "or --fairseq-checkpoint")
        checkpoints, data_bin, spm = Path(args.checkpoints), Path(args.data_bin), Path(args.spm)
        source_lang, target_lang = args.source_lang, args.target_lang
    for path in (checkpoints, data_bin, spm):
        if not Path(path).exists():
            raise ConfigError(f"{path} does not exist (has the recipe been run?)")
    descriptor = export_model(str(checkpoints), str(data_bin), str(spm), args.output, source_lang, target_lang,
                              average_last=args.average_last, fp16=not args.fp32,
                              quantization=args.quantization)
    print(json.dumps(descriptor, indent=2))
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser("convert-nmt", help="export fairseq checkpoints to a model directory "
                                   "(fairseq + ctranslate2)", description=__doc__)
    parser.add_argument("--output", required=True, help="model directory to write, e.g. assets/nmt-cs-en")
    parser.add_argument("--config", help="the recipe YAML whose work_dir holds checkpoints, bin/, spm.model")
    parser.add_argument("--checkpoints", help="fairseq --save-dir of a training run")
    parser.add_argument("--data-bin", help="fairseq-preprocess destdir (dict.<lang>.txt)")
    parser.add_argument("--spm", help="sentencepiece model")
    parser.add_argument("--fairseq-checkpoint", help="convert only this checkpoint to ctranslate2")
    parser.add_argument("--source-lang", default="cs")
    parser.add_argument("--target-lang", default="en")
    parser.add_argument("--average-last", type=int, default=1,
                        help="average the last N epoch checkpoints (1 = checkpoint_last.pt as is)")
    parser.add_argument("--fp32", action="store_true", help="keep fp32 weights in fairseq/model.pt")
    parser.add_argument("--quantization", default="int8",
                        help="ctranslate2 weight type: float32, float16, int8, int8_float16 (default int8)")
    parser.set_defaults(func=run)
