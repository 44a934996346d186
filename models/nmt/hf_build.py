"""Randomly initialized Hugging Face translation models in the published snapshot layout (for tests, benchmarks
and trying the pipeline offline; nothing is downloaded).

`build_hf_model(family, out_dir, source_sentences, target_sentences, ...)` trains small sentencepiece models on
the given sentences and writes what `save_pretrained` of the published models holds:

- marian (Helsinki-NLP/opus-mt-*): `source.spm`, `target.spm` (unigram), `vocab.json` shared by both sides with
  `</s>` = 0, `<unk>` = 1, the pieces of both models, optional target-language tokens `>>xxx<<`, and `<pad>` LAST
  (= config pad id = decoder start, as the Marian conversions do), `tokenizer_config.json` with `source_lang` /
  `target_lang`;
- m2m100 (facebook/m2m100_*): `sentencepiece.bpe.model` (BPE), fairseq-style `vocab.json` (`<s>` 0, `<pad>` 1,
  `</s>` 2, `<unk>` 3, then the pieces), the 100 language tokens `__xx__` as `additional_special_tokens`, and
  `config.vocab_size` = vocabulary + 100 language tokens + 8 `madeupword`s;
- nllb (facebook/nllb-200-*): `sentencepiece.bpe.model` plus the fast tokenizer's `tokenizer.json` (what the
  published snapshots ship; building it from the .model file needs sentencepiece's protobuf module, whose
  generated code does not load with the protobuf that apache-beam pins, so the conversion here reads the model
  with transformers' own bundled protobuf module), config `tokenizer_class: NllbTokenizer`.

Weights are drawn by the model's own initializer (`init_std`); `eos_bias` > 0 raises the end-of-sentence logit
(Marian: `final_logits_bias`; M2M-100/NLLB: see add_eos_bias) so that random
models end sentences instead of always running to the length limit. SentencePiece models are trained from a
sentence iterator into memory (a model trained from a file would store that file's path).
"""
from __future__ import annotations

import io
import json
from pathlib import Path

FAMILY_NAMES = ("marian", "m2m100", "nllb")


def train_sentencepiece(sentences: list[str], vocab_size: int, model_type: str) -> bytes:
    """A sentencepiece model (bytes) trained in memory on `sentences` (unk 0, bos 1, eos 2, no pad)."""
    import sentencepiece

    writer = io.BytesIO()
    sentencepiece.SentencePieceTrainer.train(
        sentence_iterator=iter(sentences), model_writer=writer, vocab_size=vocab_size, model_type=model_type,
        character_coverage=1.0, hard_vocab_limit=False, num_threads=1, minloglevel=2)
    return writer.getvalue()


def spm_pieces(model: bytes) -> list[str]:
    """The pieces of a sentencepiece model, in id order, without its control tokens (<unk>, <s>, </s>)."""
    import sentencepiece

    processor = sentencepiece.SentencePieceProcessor(model_proto=model)
    return [processor.id_to_piece(i) for i in range(processor.get_piece_size())
            if not (processor.is_control(i) or processor.is_unknown(i))]


def architecture(d_model: int, layers: int, heads: int, ffn: int, init_std: float) -> dict:
    return dict(d_model=d_model, encoder_layers=layers, decoder_layers=layers, encoder_attention_heads=heads,
                decoder_attention_heads=heads, encoder_ffn_dim=ffn, decoder_ffn_dim=ffn, init_std=init_std,
                dropout=0.0, attention_dropout=0.0, activation_dropout=0.0, max_position_embeddings=512)


def build_marian(out: Path, source_sentences: list[str], target_sentences: list[str], vocab_size: int,
                 arch: dict, source_lang: str, target_lang: str, target_tokens: list[str], seed: int,
                 eos_bias: float, vocab_total: int = 0) -> None:
    import torch
    from transformers import MarianConfig, MarianMTModel, MarianTokenizer

    out.mkdir(parents=True, exist_ok=True)
    source_spm = train_sentencepiece(source_sentences, vocab_size, "unigram")
    target_spm = train_sentencepiece(target_sentences, vocab_size, "unigram")
    tokens = ["</s>", "<unk>"] + [f">>{t}<<" for t in target_tokens]
    for piece in spm_pieces(source_spm) + spm_pieces(target_spm):
        if piece not in tokens:
            tokens.append(piece)
    tokens += [f"<filler{i}>" for i in range(vocab_total - len(tokens) - 1)]   # published vocabulary size
    tokens.append("<pad>")
    staging = out / ".staging"
    staging.mkdir(exist_ok=True)
    (staging / "source.spm").write_bytes(source_spm)
    (staging / "target.spm").write_bytes(target_spm)
    (staging / "vocab.json").write_text(json.dumps({t: i for i, t in enumerate(tokens)}, ensure_ascii=False))
    tokenizer = MarianTokenizer(str(staging / "source.spm"), str(staging / "target.spm"),
                                str(staging / "vocab.json"), source_lang=source_lang, target_lang=target_lang)
    tokenizer.save_pretrained(str(out))
    for name in ("source.spm", "target.spm", "vocab.json"):
        (staging / name).unlink()
    staging.rmdir()
    pad = len(tokens) - 1
    config = MarianConfig(vocab_size=len(tokens), decoder_vocab_size=len(tokens), pad_token_id=pad,
                          decoder_start_token_id=pad, eos_token_id=0, forced_eos_token_id=0, bos_token_id=0,
                          bad_words_ids=[[pad]], activation_function="swish", scale_embedding=True,
                          share_encoder_decoder_embeddings=True, static_position_embeddings=True,
                          num_beams=4, max_length=512, **arch)
    torch.manual_seed(seed)
    model = MarianMTModel(config).eval()
    if eos_bias:
        with torch.no_grad():
            model.final_logits_bias[0, 0] = eos_bias
    model.save_pretrained(str(out))


def add_eos_bias(model, eos_id: int, eos_bias: float) -> None:
    """A constant logit bias for EOS in an M2M-100 model (no output bias of its own): dimension 0 of the decoder's
    final layer norm becomes the constant 1 (weight 0, bias 1), and column 0 of the tied output embedding is zero
    except `eos_bias` for EOS, so logit(EOS) gains eos_bias and no other logit changes."""
    import torch

    with torch.no_grad():
        norm = model.model.decoder.layer_norm
        norm.weight[0], norm.bias[0] = 0.0, 1.0
        embedding = model.get_output_embeddings().weight
        embedding[:, 0] = 0.0
        embedding[eos_id, 0] = eos_bias


def build_m2m100(out: Path, sentences: list[str], vocab_size: int, arch: dict, source_lang: str,
                 target_lang: str, seed: int, eos_bias: float) -> None:
    import torch
    from transformers import M2M100Config, M2M100ForConditionalGeneration, M2M100Tokenizer
    from transformers.models.m2m_100.tokenization_m2m_100 import FAIRSEQ_LANGUAGE_CODES

    out.mkdir(parents=True, exist_ok=True)
    spm = train_sentencepiece(sentences, vocab_size, "bpe")
    tokens = ["<s>", "<pad>", "</s>", "<unk>"] + spm_pieces(spm)
    staging = out / ".staging"
    staging.mkdir(exist_ok=True)
    (staging / "sentencepiece.bpe.model").write_bytes(spm)
    (staging / "vocab.json").write_text(json.dumps({t: i for i, t in enumerate(tokens)}, ensure_ascii=False))
    tokenizer = M2M100Tokenizer(str(staging / "vocab.json"), str(staging / "sentencepiece.bpe.model"),
                                src_lang=source_lang, tgt_lang=target_lang,
                                additional_special_tokens=[f"__{c}__" for c in FAIRSEQ_LANGUAGE_CODES["m2m100"]])
    tokenizer.save_pretrained(str(out))
    for name in ("sentencepiece.bpe.model", "vocab.json"):
        (staging / name).unlink()
    staging.rmdir()
    vocab = len(tokens) + len(tokenizer.lang_token_to_id) + tokenizer.num_madeup_words
    config = M2M100Config(vocab_size=vocab, pad_token_id=1, bos_token_id=0, eos_token_id=2,
                          decoder_start_token_id=2, scale_embedding=True, activation_function="relu",
                          early_stopping=True, num_beams=5, max_length=200, **arch)
    torch.manual_seed(seed)
    model = M2M100ForConditionalGeneration(config).eval()
    if eos_bias:
        add_eos_bias(model, 2, eos_bias)
    model.save_pretrained(str(out))


def nllb_fast_tokenizer(spm_file: str, source_code: str, target_code: str):
    """NllbTokenizerFast built from a sentencepiece model, reading the model's protobuf with transformers' bundled
    protobuf module (sentencepiece's own fails to import with the protobuf runtime beam pins)."""
    import importlib

    from transformers import NllbTokenizerFast

    convert_slow_tokenizer = importlib.import_module("transformers.convert_slow_tokenizer")

    def bundled_protobuf(error_message=""):
        from transformers.utils import sentencepiece_model_pb2_new

        return sentencepiece_model_pb2_new

    original = convert_slow_tokenizer.import_protobuf
    convert_slow_tokenizer.import_protobuf = bundled_protobuf
    try:
        return NllbTokenizerFast(vocab_file=spm_file, src_lang=source_code, tgt_lang=target_code,
                                 from_slow=True)
    finally:
        convert_slow_tokenizer.import_protobuf = original


def build_nllb(out: Path, sentences: list[str], vocab_size: int, arch: dict, source_code: str,
               target_code: str, seed: int, eos_bias: float) -> None:
    import torch
    from transformers import M2M100Config, M2M100ForConditionalGeneration

    out.mkdir(parents=True, exist_ok=True)
    staging = out / ".staging"
    staging.mkdir(exist_ok=True)
    (staging / "sentencepiece.bpe.model").write_bytes(train_sentencepiece(sentences, vocab_size, "bpe"))
    tokenizer = nllb_fast_tokenizer(str(staging / "sentencepiece.bpe.model"), source_code, target_code)
    tokenizer.save_pretrained(str(out))
    (staging / "sentencepiece.bpe.model").unlink()
    staging.rmdir()
    config = M2M100Config(vocab_size=len(tokenizer), pad_token_id=1, bos_token_id=0, eos_token_id=2,
                          decoder_start_token_id=2, scale_embedding=True, activation_function="relu",
                          tokenizer_class="NllbTokenizer", max_length=200, **arch)
    torch.manual_seed(seed)
    model = M2M100ForConditionalGeneration(config).eval()
    if eos_bias:
        add_eos_bias(model, 2, eos_bias)
    model.save_pretrained(str(out))


def build_hf_model(family: str, out_dir: str, source_sentences: list[str], target_sentences: list[str],
                   vocab_size: int = 600, d_model: int = 32, layers: int = 2, heads: int = 4, ffn: int = 64,
                   init_std: float = 0.02, seed: int = 1, eos_bias: float = 0.0,
                   marian_target_tokens: tuple[str, ...] = (), marian_vocab_total: int = 0) -> Path:
    """Write a random `family` model (see the module docstring) for Czech -> English into `out_dir`.
    `marian_target_tokens` (e.g. ("eng", "deu")) makes a multilingual-target Marian model with `>>xxx<<` tokens;
    `marian_vocab_total` pads Marian's shared vocabulary with `<fillerN>` tokens to that size (a published model's
    output layer, for benchmarks)."""
    out = Path(out_dir)
    arch = architecture(d_model, layers, heads, ffn, init_std)
    if family == "marian":
        build_marian(out, source_sentences, target_sentences, vocab_size, arch, "cs", "en",
                     list(marian_target_tokens), seed, eos_bias, marian_vocab_total)
    elif family == "m2m100":
        build_m2m100(out, source_sentences + target_sentences, vocab_size, arch, "cs", "en", seed, eos_bias)
    elif family == "nllb":
        build_nllb(out, source_sentences + target_sentences, vocab_size, arch, "ces_Latn", "eng_Latn", seed,
                   eos_bias)
    else:
        raise ValueError(f"unknown family {family!r}; choose one of {', '.join(FAMILY_NAMES)}")
    return out
