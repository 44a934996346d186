"""The fairseq-train options the NMT recipe passes on from its config (`model:`, `train:`, `mrt.train:`), each
with the kind of value it takes, and `fairseq_flags`, which checks a config's options against them and renders
them as command-line arguments.

fairseq evaluates some option values as Python (`eval`: `adam_betas`, `adamax_betas`, `lamb_betas`,
`adafactor_eps`, `adaptive_softmax_cutoff`, fconv's layer lists, `character_filters`, `wer_args`, ...) and
imports code from others (`user_dir`, read from anywhere in the argument list, `--user-dir=X` included). So a
config value never reaches fairseq as written: only the options of `OPTIONS` are passed on, each value is parsed
as data (a YAML value, or a string read with `ast.literal_eval`), checked against its kind (an integer, a finite
number, a pair of numbers in [0, 1), a list of numbers, a true/false flag, a registry name, a path) and
rendered anew in one canonical form (`(0.9, 0.98)`, `0.001`, `[1, 2]`, `./-x` for a path `-x`), so no rendered
value but a negative number starts with `-` (none can be read as an option). Any other option, and any value that
does not fit, is a ConfigError naming the key (docs/reliability.md, "Inputs that must not be trusted").

A checkpoint stores options as well, which fairseq evaluates when it builds a model from it: `check_stored_options`
refuses one whose stored value for an option of `EVALUATED` is not a plain literal."""
from __future__ import annotations

import argparse
import ast
import math
import os
import re

from paranmt.schemas.config import near_matches
from paranmt.schemas.errors import ConfigError

# registry names (arch, optimizer, ...): a letter, then letters, digits and underscores
NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
# options fairseq imports code from: never taken from a config (the recipe's MRT stage sets its own --user-dir)
IMPORTS = ("user_dir",)


def _kinds(kind: str, names: str) -> dict[str, str]:
    return dict.fromkeys(names.split(), kind)


OPTIONS: dict[str, str] = {
    **_kinds("flag", """share_all_embeddings share_decoder_input_output_embed encoder_normalize_before
        decoder_normalize_before encoder_learned_pos decoder_learned_pos no_token_positional_embeddings
        layernorm_embedding no_scale_embedding cross_self_attention no_cross_attention checkpoint_activations
        offload_activations encoder_bidirectional report_accuracy sentence_avg no_epoch_checkpoints
        no_last_checkpoints no_save no_save_optimizer_state reset_optimizer reset_lr_scheduler reset_dataloader
        reset_meters disable_validation skip_invalid_size_inputs_valid_test maximize_best_checkpoint_metric fp16
        bf16 amp memory_efficient_fp16 memory_efficient_bf16 fp16_no_flatten_grads use_old_adam"""),
    **_kinds("int", """encoder_embed_dim decoder_embed_dim encoder_ffn_embed_dim decoder_ffn_embed_dim
        encoder_layers decoder_layers encoder_attention_heads decoder_attention_heads decoder_output_dim
        decoder_input_dim max_source_positions max_target_positions encoder_hidden_size decoder_hidden_size
        decoder_out_embed_dim max_tokens batch_size max_tokens_valid batch_size_valid required_batch_size_multiple
        max_epoch max_update warmup_updates total_num_update force_anneal save_interval save_interval_updates
        keep_interval_updates keep_last_epochs keep_best_checkpoints validate_interval validate_interval_updates
        validate_after_updates patience fixed_validation_seed seed log_interval curriculum empty_cache_freq
        fp16_init_scale fp16_scale_window"""),
    **_kinds("float", """dropout attention_dropout activation_dropout relu_dropout encoder_layerdrop
        decoder_layerdrop encoder_dropout_in encoder_dropout_out decoder_dropout_in decoder_dropout_out
        adam_eps weight_decay momentum clip_norm label_smoothing warmup_init_lr end_learning_rate power lr_shrink
        lr_period_updates t_mult max_lr stop_min_lr stop_time_hours fp16_scale_tolerance min_loss_scale
        threshold_loss_scale"""),
    "adam_betas": "betas",
    "lr": "floats",
    "update_freq": "ints",
    **_kinds("name", "arch optimizer lr_scheduler criterion activation_fn ddp_backend best_checkpoint_metric"),
    **_kinds("path", "restore_file finetune_from_model"),
}

KIND_TEXT = {"flag": "true or false", "int": "an integer", "float": "a finite number",
             "betas": "a pair of numbers in [0, 1), like (0.9, 0.98)", "floats": "a finite number or a list of them",
             "ints": "an integer or a list of them", "name": "a name (letters, digits, underscores)",
             "path": "a path"}


# options whose value fairseq evaluates as Python when it builds a model, task, optimizer or criterion from them
# (`eval`, utils.eval_str_list / eval_str_dict / eval_bool): in a checkpoint's stored options, such a value must be
# a plain literal (`check_stored_options`); tests/models/test_safe_load.py checks the list against fairseq's source
EVALUATED = frozenset("""adam_betas adamax_betas lamb_betas adafactor_eps adaptive_softmax_cutoff adaptive_input_cutoff
    character_filters encoder_layers decoder_layers encoder_attention decoder_attention self_attention pretrained
    project_input gated_attention downsample conv_feature_layers conv_aggregator_layers conv_enc_config
    conv_dec_config feature_encoder_spec wer_args left_pad_source left_pad_target pipeline_balance
    pipeline_devices pipeline_encoder_balance pipeline_encoder_devices pipeline_decoder_balance
    pipeline_decoder_devices model_overrides vggblock_enc_config transformer_enc_config transformer_dec_config
    transformer_sampling transformer_context decoder_zero_init xformers_att_config encoder_glu decoder_glu
    weight_softmax encoder_kernel_size_list decoder_kernel_size_list""".split())


def check_stored_options(state: dict, path) -> None:
    """UnsafeFileError naming `path` when a fairseq checkpoint `state` stores (in `args` or a section of `cfg`) a
    text value for an option of EVALUATED that is not a plain Python literal: fairseq would run it as code when it
    builds the model from the checkpoint (the translators, convert-nmt's CTranslate2 converter)."""
    from paranmt.models.safe_load import UnsafeFileError

    def walk(node, where: str, depth: int = 0):
        node = vars(node) if isinstance(node, argparse.Namespace) else node
        if not isinstance(node, dict) or depth > 3:
            return
        for key, value in node.items():
            if isinstance(value, (dict, argparse.Namespace)):
                yield from walk(value, f"{where}{key}.", depth + 1)
            elif key in EVALUATED and isinstance(value, str) and _literal(value) is value:
                yield f"{where}{key}", value

    for section in ("args", "cfg"):
        for name, value in walk(state.get(section) or {}, f"{section}."):
            raise UnsafeFileError(f"{path}: refused: its stored option {name} is {_shown(value)}, not a plain "
                                  f"value, and fairseq would run it as Python")


def _literal(value):
    """A string read as a Python literal (numbers, tuples, lists) when it is one, else as it is."""
    if isinstance(value, str) and len(value) <= 200:
        try:
            return ast.literal_eval(value.strip())
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return value
    return value


def _shown(value) -> str:
    """repr(value), cut to 80 characters for a one-line message."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _number(value, kind: type) -> bool:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return isinstance(value, int) if kind is int else math.isfinite(value)


def _render(kind: str, value) -> str | None:
    """The canonical command-line text of `value` for an option of `kind`, None when it does not fit."""
    parsed = _literal(value)
    if kind == "int" and _number(parsed, int):
        return str(parsed)
    if kind == "float" and _number(parsed, float):
        return repr(float(parsed))
    if kind == "betas" and isinstance(parsed, (list, tuple)) and len(parsed) == 2 \
            and all(_number(x, float) and 0 <= x < 1 for x in parsed):
        return f"({float(parsed[0])!r}, {float(parsed[1])!r})"
    if kind in ("floats", "ints"):
        number = float if kind == "floats" else int
        items = list(parsed) if isinstance(parsed, (list, tuple)) else [parsed]
        if items and all(_number(x, number) for x in items):
            texts = [repr(number(x)) for x in items]
            return texts[0] if len(texts) == 1 else f"[{', '.join(texts)}]"
    if kind == "name" and isinstance(value, str) and NAME.fullmatch(value):
        return value
    if kind == "path" and isinstance(value, str) and value.strip() and "\0" not in value:
        return os.path.join(".", value) if value.startswith("-") else value
    return None


def option_value(key: str, value, where: str) -> str | bool:
    """The checked, canonical value of fairseq option `key` (`where`: its config section, for messages): its
    command-line text, or True for a flag that is set and False for one left out (False or null)."""
    name = f"{where}.{key}"
    if key in IMPORTS:
        raise ConfigError(f"nmt recipe: {name} is refused: fairseq would import code from it (the recipe "
                          f"passes no --user-dir of a config; docs/reliability.md, 'Inputs that must not be trusted')")
    kind = OPTIONS.get(key) if isinstance(key, str) else None
    if kind is None:
        raise ConfigError(f"nmt recipe: {name} is not one of the fairseq options the recipe passes on"
                          f"{near_matches(str(key), OPTIONS, where + '.')} (docs/translate.md lists them)")
    if value is None or value is False:
        return False
    if kind == "flag":
        if value is True:
            return True
        text = None
    else:
        text = _render(kind, value)
    if text is None:
        raise ConfigError(f"nmt recipe: {name} must be {KIND_TEXT[kind]}, not {_shown(value)}")
    return text


def fairseq_flags(options: dict, where: str = "train") -> list[str]:
    """{'encoder_layers': 3, 'share_all_embeddings': True, 'fp16': False, 'adam_betas': [0.9, 0.98]} ->
    ['--encoder-layers', '3', '--share-all-embeddings', '--adam-betas', '(0.9, 0.98)'] (False / None drop the
    flag); every option checked and rendered by `option_value` (module docstring)."""
    flags = []
    for key, value in options.items():
        text = option_value(key, value, where)
        flag = "--" + key.replace("_", "-")
        if text is True:
            flags.append(flag)
        elif text is not False:
            flags += [flag, text]
    return flags
